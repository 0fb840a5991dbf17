/**
 * `links.txt`, the list of URL sources at the top of a topic folder
 * (content/reference/subject-formats.md): one URL per line; blank lines and `#` comments ignored.
 * Parsing is pure; reading the file is a thin fs layer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SyllabusConfig } from '../config/merge.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { normalizeText } from '../subjects/format.ts';
import { isOutside } from '../files/paths.ts';
import { isUnsafeName } from '../subjects/slug.ts';
import { sourceSlugOf } from './slug.ts';

/** The name of the list of URL sources at the top of a topic folder. */
export const LINKS_FILE = 'links.txt';

/** A URL listed in a `links.txt`. */
export interface SourceLink {
  /**
   * The URL as the WHATWG URL parser writes it (`href`), without its `#fragment`: scheme and
   * host lower-cased, a default port dropped, `.` and `..` segments resolved.
   */
  url: string;
  /** 1-based line of the URL in the file. */
  line: number;
}

/** The usable URLs of a `links.txt`, in file order, and a warning for every line left out. */
export interface LinksReading {
  links: SourceLink[];
  diagnostics: Diagnostic[];
}

/**
 * Reads the lines of a `links.txt` (`file` names it in diagnostics). Each line is trimmed; an
 * empty line, or one whose first character is `#`, is ignored, and `#` after white space starts a
 * comment (`https://example.com/a  # the intro`), since a URL holds no white space. What remains
 * must be one absolute `http:` or `https:` URL without a user name or password; a `#fragment` is
 * dropped (the whole page is the source), and its host may not hold `"`, `<` or `>`. A line that is not, or that repeats a URL listed above
 * it, is a warning naming the line, and is left out.
 */
export function parseLinksFile(text: string, file: string): LinksReading {
  const links: SourceLink[] = [];
  const diagnostics: Diagnostic[] = [];
  const seen = new Map<string, number>();
  const lines = normalizeText(text.replace(/^\uFEFF/, '')).split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const value = raw.replace(/(?:^|\s)#.*$/, '').trim();
    if (value === '') return;
    const warn = (message: string): void => {
      diagnostics.push({ kind: 'warning', code: 'invalid-source', message, file, line });
    };
    const problem = linkProblem(value);
    if (problem) {
      warn(`${JSON.stringify(value)} ${problem}`);
      return;
    }
    const url = new URL(value);
    url.hash = '';
    const earlier = seen.get(url.href);
    if (earlier !== undefined) {
      diagnostics.push({
        kind: 'warning',
        code: 'duplicate-source',
        message: `${JSON.stringify(value)} is already listed at line ${earlier} of ${LINKS_FILE}, so this line is ignored. Remove one of the two lines.`,
        file,
        line,
      });
      return;
    }
    seen.set(url.href, line);
    links.push({ url: url.href, line });
  });
  return { links, diagnostics };
}

/** What is wrong with a line's text as a URL source, or undefined when nothing is. */
function linkProblem(value: string): string | undefined {
  if (/\s/.test(value)) {
    return 'holds more than one URL: each line of links.txt lists one URL (a comment starts with #). Put each URL on its own line.';
  }
  if (!URL.canParse(value)) {
    const guess = `https://${value}`;
    const hint = !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(value) && URL.canParse(guess) ? `; did you mean ${JSON.stringify(guess)}?` : '.';
    return `is not a URL, so it is not fetched. Write the address in full, with its scheme${hint}`;
  }
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `is a ${url.protocol} URL: only http:// and https:// sources are fetched. Give the page's https:// address, or remove the line.`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'holds a user name or password, which the site would publish with the URL. Remove them; Syllabus fetches only pages that need no login.';
  }
  if (isUnsafeName(sourceSlugOf(url.href).slug)) {
    return 'has a host name holding ", < or >, which would break the framing of what agents read. Remove the line.';
  }
  return undefined;
}

/** A topic's `links.txt`, read. */
export interface TopicLinks {
  /** Absolute path of the file. */
  file: string;
  links: SourceLink[];
  diagnostics: Diagnostic[];
}

/**
 * Reads `links.txt` at the top of a topic folder (`dir`), or returns undefined when there is none.
 * A `links.txt` whose real path leaves `bound` (a symlink out of the knowledge base) is not read
 * either: the walk of the folder warns about it, as about any such symlink. An unreadable one is a
 * warning.
 */
export function readTopicLinks(dir: string, bound: string): TopicLinks | undefined {
  const file = path.join(dir, LINKS_FILE);
  let real: string;
  try {
    real = fs.realpathSync(file);
  } catch {
    return undefined;
  }
  if (isOutside(bound, real)) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(real, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EISDIR') return undefined;
    const message = `Cannot read ${LINKS_FILE}: ${code ?? String(error)}. Its URLs are not sources until you fix its permissions.`;
    return { file, links: [], diagnostics: [{ kind: 'warning', code: 'unreadable', message, file }] };
  }
  return { file, ...parseLinksFile(text, file) };
}

/** The `links.txt` of one topic, for a host deciding what to fetch or read from its cache. */
export interface ListedTopicLinks extends TopicLinks {
  topic: string;
}

/**
 * The `links.txt` of every enabled folder topic of a config, in topic order (topics without one
 * left out). Hosts read it to know which URLs to fetch; the knowledge base reads the files again
 * when it opens a topic, and reports their warnings itself.
 */
export function listTopicLinks(config: Pick<SyllabusConfig, 'topics'>): ListedTopicLinks[] {
  const listed: ListedTopicLinks[] = [];
  for (const topic of config.topics) {
    if (!topic.enable || topic.kind !== 'folder') continue;
    let bound = topic.root;
    try {
      bound = fs.realpathSync(topic.root);
    } catch {
      // A root that does not resolve bounds nothing more than itself.
    }
    const links = readTopicLinks(topic.dir, bound);
    if (links) listed.push({ topic: topic.id, ...links });
  }
  return listed;
}
