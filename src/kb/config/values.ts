/**
 * The rules for the config's string values (content/reference/configuration.md, "Values"): paths,
 * URLs, the site's base, names, free text and patterns. Configs come from untrusted pull requests,
 * so no value reaches the file system, a request or a page before it passed its rule.
 *
 * Each rule returns what is wrong with a value and how to fix it, the text that follows
 * `<dotted path>: ` in a configuration error, or undefined when the value is fine.
 */

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** What JSON.stringify leaves as it is but a terminal or a page may act on. */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u2028\u2029]/g;

/** Longest `subjects` or `learnings` path, in characters. */
export const MAX_PATH_LENGTH = 1024;
/** Longest name between two slashes of a path, in UTF-8 bytes: what file systems allow. */
export const MAX_NAME_BYTES = 255;

/**
 * A string as messages show it: in double quotes with JSON's escapes, and DEL, C1 controls and
 * line separators escaped too, so that no value can write to a terminal or break a line.
 */
export function quoteValue(text: string): string {
  return JSON.stringify(text).replace(UNESCAPED_BY_JSON, (char) => `\\u${hex(char)}`);
}

/** A TOML key as a dotted path shows it: bare when TOML allows it, else quoted. */
export function quoteKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : quoteValue(key);
}

function hex(char: string): string {
  return (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0');
}

/** The first control character of `value` that `allowed` does not hold. */
function controlIn(value: string, allowed = ''): string | undefined {
  for (const char of value) if (CONTROL.test(char) && !allowed.includes(char)) return char;
  return undefined;
}

function controlProblem(value: string, allowed = ''): string | undefined {
  const char = controlIn(value, allowed);
  return char === undefined ? undefined : `${quoteValue(value)} contains a control character (U+${hex(char).toUpperCase()}). Remove it.`;
}

/**
 * A `subjects` folder or `learnings` store, relative to the config file: no control character, no
 * backslash (a `/` elsewhere), and short enough for file systems. Absolute paths and paths that
 * leave the config's folder are judged when files are merged (`escapeProblem`).
 */
export function pathProblem(value: string, key: 'subjects' | 'learnings' | 'logo' | 'favicon' | 'questions'): string | undefined {
  const control = controlProblem(value);
  if (control) return control;
  if (value.includes('\\')) return `${quoteValue(value)} contains a backslash. Separate folders with "/": ${key} = ${quoteValue(value.replaceAll('\\', '/'))}.`;
  if (value.length > MAX_PATH_LENGTH) return `the path is ${value.length} characters long, over the limit of ${MAX_PATH_LENGTH}. Use a shorter path.`;
  const encoder = new TextEncoder();
  const longest = Math.max(...value.split('/').map((name) => encoder.encode(name).length));
  if (longest > MAX_NAME_BYTES) return `a name in the path is ${longest} bytes long, and file systems allow at most ${MAX_NAME_BYTES}. Shorten it.`;
  return undefined;
}

/** How one URL key is judged and explained. */
interface UrlRule {
  /** The fix when the value is not an http(s) URL. */
  notUrl: string;
  /** Why a user name or password may not be in it, and anything more to do. */
  credentials: (withoutThem: string) => string;
  /** Whether a query and a fragment are refused. */
  plainAddress: boolean;
}

/** The user information of an http(s) URL as written, up to its last `@`. */
const USER_INFO = /^(https?:\/\/)[^/?#]*@/i;

function urlProblem(value: string, rule: UrlRule): string | undefined {
  const control = controlProblem(value);
  if (control) return control;
  // A WHATWG parser reads "\" as "/" and other parsers do not: refused, the value means one thing.
  if (value.includes('\\')) return `${quoteValue(value)} contains a backslash. Write "/" instead.`;
  const notUrl = `${quoteValue(value)} is not an http(s) URL. ${rule.notUrl}`;
  if (!/^https?:\/\/./i.test(value)) return notUrl;
  if (value.includes(' ')) return `${quoteValue(value)} contains a space. Write it as %20.`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return notUrl;
  }
  if (url.username !== '' || url.password !== '' || USER_INFO.test(value)) {
    return `the URL holds a user name or password (${quoteValue(value.replace(USER_INFO, '$1…@'))}), ${rule.credentials(quoteValue(value.replace(USER_INFO, '$1')))}`;
  }
  if (rule.plainAddress && /[?#]/.test(value)) return `${quoteValue(value)} has a query or a fragment. Remove it: ${quoteValue(value.replace(/[?#].*$/s, ''))}.`;
  // The value is used as written: in pages, and in the User-Agent header, which only takes ASCII.
  const other = [...value].find((char) => char > '\u007e');
  if (other !== undefined) return `${quoteValue(value)} contains ${quoteValue(other)}, which is not ASCII. Write the URL in ASCII: ${quoteValue(url.href)}.`;
  return undefined;
}

/** `[site] url`: an http(s) address without credentials, query or fragment. */
export function siteUrlProblem(value: string): string | undefined {
  return urlProblem(value, {
    notUrl: 'Give the site\'s public address, e.g. "https://kb.example.com".',
    credentials: (fixed) => `which every page would publish. Remove it: ${fixed}.`,
    plainAddress: true,
  });
}

/** `[site] repository`: an http(s) address without credentials, query or fragment (edit links add a path). */
export function repositoryProblem(value: string): string | undefined {
  return urlProblem(value, {
    notUrl: 'Give the repository\'s web address, e.g. "https://github.com/acme/knowledge".',
    credentials: (fixed) => `which every edit link would publish. Remove it: ${fixed}.`,
    plainAddress: true,
  });
}

/**
 * `[kb.summaries] endpoint`: an http(s) URL without credentials (fetch refuses them; the key has
 * its own variable). `http:` stays allowed for local servers, and a query for gateways that need one.
 */
export function endpointProblem(value: string): string | undefined {
  return urlProblem(value, {
    notUrl: 'Give the whole chat completions URL, e.g. "https://api.openai.com/v1/chat/completions".',
    credentials: (fixed) => `which requests cannot carry. Remove it: ${fixed}; the API key goes in the environment variable that api_key_env names.`,
    plainAddress: false,
  });
}

const BASE_FIX = 'A base is the path the site is served under: letters, digits, "-", "_", "." and "~" between single slashes, e.g. "/docs/" ("/" is the domain root).';

/**
 * `[site] base`: a path of safe characters (those of `syllabus({ base })`), without `//` (a URL of
 * another host), `.` or `..` segments, backslashes or a scheme. Leading and trailing slashes are
 * optional (`normalizeBase` adds them).
 */
export function baseProblem(value: string): string | undefined {
  const shown = quoteValue(value);
  const control = controlIn(value);
  if (control !== undefined) return `${shown} contains a control character (U+${hex(control).toUpperCase()}). ${BASE_FIX}`;
  if (value.includes('\\')) return `${shown} contains a backslash. ${BASE_FIX}`;
  const other = [...value].find((char) => !/[A-Za-z0-9._~/-]/.test(char));
  if (other !== undefined) return `${shown} contains ${quoteValue(other)}. ${BASE_FIX}`;
  if (value.includes('//')) return `${shown} contains "//". ${BASE_FIX}`;
  if (value.split('/').some((segment) => segment === '.' || segment === '..')) return `${shown} has a "." or ".." segment. ${BASE_FIX}`;
  return undefined;
}

/** One line of text (a title, an introduction, a model name): tabs allowed, no line break or other control. */
export function lineProblem(value: string): string | undefined {
  if (value.includes('\n')) return `${quoteValue(value)} contains a line break. Write it on one line.`;
  return controlProblem(value, '\t');
}

/** Text of several lines (a description, the prompt): tabs and line breaks allowed, no other control. */
export function textProblem(value: string): string | undefined {
  return controlProblem(value, '\t\n');
}

/** `api_key_env`: the name of an environment variable. */
export function envNameProblem(value: string): string | undefined {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) return undefined;
  return `${quoteValue(value)} is not an environment variable name. Use letters, digits and "_", not starting with a digit, e.g. "SYLLABUS_LLM_KEY".`;
}

/** `[site] branch`: a branch name, with no control character or white space. */
export function branchProblem(value: string): string | undefined {
  const control = controlProblem(value);
  if (control) return control;
  if (/\s/.test(value)) return `${quoteValue(value)} contains white space, which a branch name cannot hold. Give the branch's name, e.g. "main".`;
  return undefined;
}

/** A `learned`, `disabled` or profile `knowledge` entry, before it is compiled: no control character. */
export function patternProblem(value: string): string | undefined {
  return controlProblem(value);
}

/** A `[profile.<name>]` name: not empty, no control character (it is shown, and names a file of the site). */
export function profileNameProblem(name: string): string | undefined {
  if (name === '') return 'the profile name is empty. Name the table, e.g. [profile.reviewer].';
  const control = controlIn(name);
  if (control === undefined) return undefined;
  const fixed = quoteKey([...name].filter((char) => !CONTROL.test(char)).join('') || 'reviewer');
  return `the profile name ${quoteValue(name)} contains a control character (U+${hex(control).toUpperCase()}). Rename the table, e.g. [profile.${fixed}].`;
}
