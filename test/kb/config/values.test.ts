/**
 * The rules for the config's string values (content/reference/configuration.md, "Values"): every
 * path, URL, base, name, text and pattern a config gives is checked before it reaches the file
 * system or a page. (The CLI's view of the same errors is in test/fixtures/config-errors/.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, type Diagnostic } from '../../../src/kb/index.ts';

const FILE = '/kb/kb.toml';
const TOPIC = '[kb.topic.x]\nsubjects = "x"\n';
const ENDPOINT = '[kb.summaries]\nendpoint = "http://127.0.0.1:11434/v1/chat/completions"\nmodel = "m"\n';
const BASE_FIX = 'A base is the path the site is served under: letters, digits, "-", "_", "." and "~" between single slashes, e.g. "/docs/" ("/" is the domain root).';

/** The codes of the rules for values (`invalid-pattern` and `bad-summaries-endpoint` are older codes they share). */
const VALUE_CODES = ['bad-path', 'bad-url', 'bad-base', 'bad-text', 'bad-name'];

/** Every diagnostic of a config text, as [line, code, message]. */
function diagnosticsOf(text: string): [number | undefined, string, string][] {
  const result = loadConfig([{ file: FILE, text }]);
  return result.diagnostics.map((d: Diagnostic) => {
    expect({ kind: d.kind, file: d.file, config: result.config }).toEqual({ kind: 'config-error', file: FILE, config: undefined });
    return [d.line, d.code, d.message];
  });
}

describe('paths: subjects and learnings', () => {
  it.each([
    ['subjects = "t\\u0000"', 'kb.topic.x.subjects: "t\\u0000" contains a control character (U+0000). Remove it.'],
    ['subjects = "a\\tb"', 'kb.topic.x.subjects: "a\\tb" contains a control character (U+0009). Remove it.'],
    ['subjects = "a\\u0085"', 'kb.topic.x.subjects: "a\\u0085" contains a control character (U+0085). Remove it.'],
    ['subjects = "docs\\\\guide\\\\setup"', 'kb.topic.x.subjects: "docs\\\\guide\\\\setup" contains a backslash. Separate folders with "/": subjects = "docs/guide/setup".'],
    ['learnings = "store\\\\k.json"', 'kb.topic.x.learnings: "store\\\\k.json" contains a backslash. Separate folders with "/": learnings = "store/k.json".'],
    [`subjects = "${'ab/'.repeat(341)}ab"`, 'kb.topic.x.subjects: the path is 1025 characters long, over the limit of 1024. Use a shorter path.'],
    [`subjects = "x/${'é'.repeat(128)}"`, 'kb.topic.x.subjects: a name in the path is 256 bytes long, and file systems allow at most 255. Shorten it.'],
  ])('%s', (line, message) => {
    expect(diagnosticsOf(`[kb.topic.x]\n${line}\n`)).toEqual([[2, 'bad-path', message]]);
  });

  it('accepts relative paths within the limits, "." and names of 255 bytes', () => {
    const text = `[kb.topic.a]\nsubjects = "."\n[kb.topic.b]\nsubjects = "x/${'é'.repeat(127)}a"\n[kb.topic.c]\nlearnings = "learnings/knowledge.json"\n[kb.topic.d]\nsubjects = "${'ab/'.repeat(341)}a"\n`;
    expect(loadConfig([{ file: FILE, text }]).diagnostics).toEqual([]);
  });

  it('keeps judging absolute paths and escapes after merging, as escaping-subjects', () => {
    expect(diagnosticsOf('[kb.topic.x]\nlearnings = "/etc/k.json"\n').map(([line, code]) => [line, code])).toEqual([[2, 'escaping-subjects']]);
  });
});

describe('URLs', () => {
  const site = 'Give the site\'s public address, e.g. "https://kb.example.com".';
  const repository = 'Give the repository\'s web address, e.g. "https://github.com/acme/knowledge".';
  const endpoint = 'Give the whole chat completions URL, e.g. "https://api.openai.com/v1/chat/completions".';
  it.each([
    ['url = "not a url"', 'bad-url', `site.url: "not a url" is not an http(s) URL. ${site}`],
    ['url = "javascript:alert(1)"', 'bad-url', `site.url: "javascript:alert(1)" is not an http(s) URL. ${site}`],
    ['url = "ftp://x"', 'bad-url', `site.url: "ftp://x" is not an http(s) URL. ${site}`],
    ['url = "https:kb.example.com"', 'bad-url', `site.url: "https:kb.example.com" is not an http(s) URL. ${site}`],
    ['url = "https://"', 'bad-url', `site.url: "https://" is not an http(s) URL. ${site}`],
    ['url = "https://kb.example.com\\\\@evil.example"', 'bad-url', 'site.url: "https://kb.example.com\\\\@evil.example" contains a backslash. Write "/" instead.'],
    ['url = "https://kb.example.com/\\u0000"', 'bad-url', 'site.url: "https://kb.example.com/\\u0000" contains a control character (U+0000). Remove it.'],
    ['url = "https://kb.example.com/\\rX-Injected: 1"', 'bad-url', 'site.url: "https://kb.example.com/\\rX-Injected: 1" contains a control character (U+000D). Remove it.'],
    [
      'url = "https://bücher.example/wiki/ä"',
      'bad-url',
      'site.url: "https://bücher.example/wiki/ä" contains "ü", which is not ASCII. Write the URL in ASCII: "https://xn--bcher-kva.example/wiki/%C3%A4".',
    ],
    [
      'repository = "https://git.example/é"',
      'bad-url',
      'site.repository: "https://git.example/é" contains "é", which is not ASCII. Write the URL in ASCII: "https://git.example/%C3%A9".',
    ],
    ['url = "https://kb.example.com/a b"', 'bad-url', 'site.url: "https://kb.example.com/a b" contains a space. Write it as %20.'],
    [
      'url = "https://me@kb.example.com/docs/"',
      'bad-url',
      'site.url: the URL holds a user name or password ("https://…@kb.example.com/docs/"), which every page would publish. Remove it: "https://kb.example.com/docs/".',
    ],
    ['url = "https://kb.example.com?x"', 'bad-url', 'site.url: "https://kb.example.com?x" has a query or a fragment. Remove it: "https://kb.example.com".'],
    ['url = "https://kb.example.com/#"', 'bad-url', 'site.url: "https://kb.example.com/#" has a query or a fragment. Remove it: "https://kb.example.com/".'],
    ['repository = "git@github.com:acme/knowledge.git"', 'bad-url', `site.repository: "git@github.com:acme/knowledge.git" is not an http(s) URL. ${repository}`],
    ['repository = "javascript:alert(1)//"', 'bad-url', `site.repository: "javascript:alert(1)//" is not an http(s) URL. ${repository}`],
    [
      'repository = "https://github.com/acme/knowledge#readme"',
      'bad-url',
      'site.repository: "https://github.com/acme/knowledge#readme" has a query or a fragment. Remove it: "https://github.com/acme/knowledge".',
    ],
  ])('[site] %s', (line, code, message) => {
    expect(diagnosticsOf(`[site]\n${line}\n${TOPIC}`)).toEqual([[2, code, message]]);
  });

  it.each([
    ['endpoint = "ftp://llm/v1"', `kb.summaries.endpoint: "ftp://llm/v1" is not an http(s) URL. ${endpoint}`],
    ['endpoint = "file:///etc/passwd"', `kb.summaries.endpoint: "file:///etc/passwd" is not an http(s) URL. ${endpoint}`],
    [
      'endpoint = "http://u:p@127.0.0.1:11434/v1"',
      'kb.summaries.endpoint: the URL holds a user name or password ("http://…@127.0.0.1:11434/v1"), which requests cannot carry. Remove it: "http://127.0.0.1:11434/v1"; the API key goes in the environment variable that api_key_env names.',
    ],
  ])('[kb.summaries] %s', (line, message) => {
    expect(diagnosticsOf(`[kb.summaries]\nmodel = "m"\n${line}\n${TOPIC}`)).toEqual([[3, 'bad-summaries-endpoint', message]]);
  });

  it('accepts http and https addresses, a path in url and repository, and a query in the endpoint', () => {
    const text = `[site]
url = "http://KB.example.com:8080/docs/"
repository = "https://git.example.com/acme/knowledge/"
[kb.summaries]
endpoint = "https://acme.openai.azure.com/openai/deployments/m/chat/completions?api-version=2024-06-01"
model = "m"
${TOPIC}`;
    const { config, diagnostics } = loadConfig([{ file: FILE, text }]);
    expect(diagnostics).toEqual([]);
    expect([config!.site.url, config!.site.repository, config!.kb.summaries!.endpoint]).toEqual([
      'http://KB.example.com:8080/docs/',
      'https://git.example.com/acme/knowledge/',
      'https://acme.openai.azure.com/openai/deployments/m/chat/completions?api-version=2024-06-01',
    ]);
  });
});

describe('[site] base', () => {
  it.each([
    ['javascript:alert(1)//', 'contains ":"'],
    ['//evil.com', 'contains "//"'],
    ['/a//b/', 'contains "//"'],
    ['/a/../b', 'has a "." or ".." segment'],
    ['..', 'has a "." or ".." segment'],
    ['/./', 'has a "." or ".." segment'],
    ['/a\\\\b', 'contains a backslash'],
    ['/a\\u0000', 'contains a control character (U+0000)'],
    ['/a b/', 'contains " "'],
    ['/docs?x', 'contains "?"'],
    ['/%2e%2e/', 'contains "%"'],
    ['/wissen/é', 'contains "é"'],
  ])('%j', (base, problem) => {
    const shown = JSON.stringify(base.replaceAll('\\\\', '\\').replaceAll('\\u0000', '\u0000'));
    expect(diagnosticsOf(`[site]\nbase = "${base}"\n${TOPIC}`)).toEqual([[2, 'bad-base', `site.base: ${shown} ${problem}. ${BASE_FIX}`]]);
  });

  it.each([
    ['/', '/'],
    ['/docs/', '/docs/'],
    ['docs', 'docs'],
    ['/a.b/c~d/e_f-g', '/a.b/c~d/e_f-g'],
  ])('accepts %j', (base, kept) => {
    const { config, diagnostics } = loadConfig([{ file: FILE, text: `[site]\nbase = "${base}"\n${TOPIC}` }]);
    expect({ diagnostics, base: config!.site.base }).toEqual({ diagnostics: [], base: kept });
  });
});

describe('text, names and patterns', () => {
  it.each([
    ['[site]\ntitle = "A\\nB"\n', 2, 'bad-text', 'site.title: "A\\nB" contains a line break. Write it on one line.'],
    ['[site]\ntitle = "A\\u001b]0;owned\\u0007"\n', 2, 'bad-text', 'site.title: "A\\u001b]0;owned\\u0007" contains a control character (U+001B). Remove it.'],
    ['[site]\ndescription = "One.\\rTwo."\n', 2, 'bad-text', 'site.description: "One.\\rTwo." contains a control character (U+000D). Remove it.'],
    ['[site]\nbranch = "release 1"\n', 2, 'bad-name', 'site.branch: "release 1" contains white space, which a branch name cannot hold. Give the branch\'s name, e.g. "main".'],
    ['[site]\nbranch = "a\\u0000"\n', 2, 'bad-name', 'site.branch: "a\\u0000" contains a control character (U+0000). Remove it.'],
    ['[kb.topic.y]\nsubjects = "y"\nintroduction = "One\\nTwo"\n', 3, 'bad-text', 'kb.topic.y.introduction: "One\\nTwo" contains a line break. Write it on one line.'],
    ['[kb.topic.y]\nsubjects = "y"\ndescription = "A\\u0000"\n', 3, 'bad-text', 'kb.topic.y.description: "A\\u0000" contains a control character (U+0000). Remove it.'],
    [`${ENDPOINT}prompt = "P\\u0008"\n`, 4, 'bad-text', 'kb.summaries.prompt: "P\\b" contains a control character (U+0008). Remove it.'],
    [
      `${ENDPOINT}api_key_env = "1KEY"\n`,
      4,
      'bad-name',
      'kb.summaries.api_key_env: "1KEY" is not an environment variable name. Use letters, digits and "_", not starting with a digit, e.g. "SYLLABUS_LLM_KEY".',
    ],
    [
      `${ENDPOINT}api_key_env = "KEY=x"\n`,
      4,
      'bad-name',
      'kb.summaries.api_key_env: "KEY=x" is not an environment variable name. Use letters, digits and "_", not starting with a digit, e.g. "SYLLABUS_LLM_KEY".',
    ],
    ['[kb.topic.y]\nsubjects = "y"\ndisabled = ["a\\nb"]\n', 3, 'invalid-pattern', 'kb.topic.y.disabled[0]: "a\\nb" contains a control character (U+000A). Remove it.'],
    ['[profile.r]\nknowledge = ["x", "x/\\u009b31m"]\n', 2, 'invalid-pattern', 'profile.r.knowledge[1]: "x/\\u009b31m" contains a control character (U+009B). Remove it.'],
  ])('%j', (text, line, code, message) => {
    expect(diagnosticsOf(`${text}${TOPIC}`)).toEqual([[line, code, message]]);
  });

  it('reports a profile name with a control character, or an empty one', () => {
    expect(diagnosticsOf(`${TOPIC}[profile."a\\u0085b"]\nknowledge = ["x"]\n[profile.""]\nknowledge = ["x"]\n`)).toEqual([
      [undefined, 'bad-name', 'profile."a\\u0085b": the profile name "a\\u0085b" contains a control character (U+0085). Rename the table, e.g. [profile.ab].'],
      [5, 'bad-name', 'profile."": the profile name is empty. Name the table, e.g. [profile.reviewer].'],
    ]);
  });

  it('accepts tabs in text, line breaks in descriptions and the prompt, and any other names', () => {
    const text = `[site]
title = "Team\\tKnowledge"
description = "One.\\n\\nTwo."
branch = "release/1.x"
[kb.summaries]
endpoint = "http://127.0.0.1:11434/v1/chat/completions"
prompt = """
Summarise.
Briefly."""
api_key_env = "_MY_KEY_2"
model = "org/model name:latest"
[kb.topic.y]
subjects = "y"
description = "A.\\n\\n\\tB."
learned = ["a b/*"]
[profile."code review"]
knowledge = ["y/a b"]
`;
    const { config, diagnostics } = loadConfig([{ file: FILE, text }]);
    expect(diagnostics).toEqual([]);
    expect([...config!.profiles.keys()]).toEqual(['code review']);
  });
});

describe('messages never print a raw control character', () => {
  it('quotes a key that is not bare in the dotted path, escaping controls and line separators', () => {
    expect(diagnosticsOf(`[site]\n"ti\\u001btle" = "a"\n"\\u2028" = "b"\n${TOPIC}`).map(([, code, message]) => [code, message])).toEqual([
      ['unknown-key', 'site."ti\\u001btle": unknown key. Did you mean "title"?'],
      ['unknown-key', 'site."\\u2028": unknown key. Remove it; valid keys here: title, description, url, base, repository, branch, allow_html, logo, favicon.'],
    ]);
  });

  it('quotes a wrong-typed value with DEL and C1 controls escaped', () => {
    expect(diagnosticsOf(`[site]\nallow_html = "y\\u007f\\u009b"\n${TOPIC}`)).toEqual([
      [2, 'wrong-type', 'site.allow_html: expected true or false, got the string "y\\u007f\\u009b". Change the value.'],
    ]);
  });

  it('quotes an unknown table that looks like a known one', () => {
    const { diagnostics } = loadConfig([{ file: FILE, text: `["sit\\u001b"]\nx = 1\n${TOPIC}` }]);
    expect(diagnostics.map((d) => d.message)).toEqual(['["sit\\u001b"] is not a Syllabus table and is ignored. Did you mean [site]?']);
  });
});

describe('the configs of this repository', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const configs = [
    ...fs.globSync('content/**/*.toml', { cwd: root }),
    ...fs.globSync('test/fixtures/**/*.toml', { cwd: root }).filter((file) => !file.startsWith(path.join('test', 'fixtures', 'config-errors') + path.sep)),
  ];

  it('finds them', () => {
    expect(configs).toContain(path.join('content', 'kb.toml'));
    expect(configs).toContain(path.join('content', 'reference', 'examples', 'configs', 'full.toml'));
  });

  it('break none of the rules for values', () => {
    const broken = configs.flatMap((file) => {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      return loadConfig([{ file: path.join(root, file), text }])
        .diagnostics.filter((d) => VALUE_CODES.includes(d.code))
        .map((d) => `${file}: ${d.message}`);
    });
    expect(broken).toEqual([]);
  });
});
