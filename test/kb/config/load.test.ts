import { describe, expect, it } from 'vitest';
import { loadConfig, type Diagnostic } from '../../../src/kb/index.ts';

const FILE = '/kb/kb.toml';
const load = (text: string) => loadConfig([{ file: FILE, text }]);

/** The configuration errors of a config text. */
function errorsOf(text: string): Diagnostic[] {
  const result = load(text);
  expect(result.config).toBeUndefined();
  const errors = result.diagnostics.filter((d) => d.kind === 'config-error');
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error.file).toBe(FILE);
  return errors;
}

/** The one configuration error of a config text. */
function errorOf(text: string): Diagnostic {
  const errors = errorsOf(text);
  expect(errors).toHaveLength(1);
  return errors[0]!;
}

describe('loadConfig: defaults (content/reference/configuration.md)', () => {
  it('applies every default', () => {
    const { config, diagnostics } = load('[kb.topic.project]\nsubjects = "project"\n');
    expect(diagnostics).toEqual([]);
    expect(config!.site).toEqual({
      title: 'Knowledge',
      description: undefined,
      url: undefined,
      base: '/',
      repository: undefined,
      branch: 'main',
      allow_html: false,
      logo: undefined,
      favicon: undefined,
    });
    expect(config!.kb).toEqual({
      max_subject_bytes: 1048576,
      warn_subject_tokens: 20000,
      knowledge_budget_tokens: 8000,
      summaries: undefined,
      sources: { timeout_seconds: 10, max_bytes: 2097152, concurrency: 4, allow_private: false },
      prompt: { index: false, index_budget_tokens: 2000 },
    });
    expect(config!.topics).toEqual([
      {
        id: 'project',
        enable: true,
        title: undefined,
        introduction: undefined,
        description: undefined,
        kind: 'folder',
        subjects: 'project',
        dir: '/kb/project',
        root: '/kb',
        file: FILE,
        line: 2,
        learned: [],
        disabled: [],
        learnedFrom: [],
        disabledFrom: [],
      },
    ]);
    expect(config!.profiles).toEqual(new Map());
  });

  it('counts empty strings as absent and removes trailing line breaks', () => {
    const { config } = load(`[site]
title = ""
description = """
Two lines.
Second.

"""
url = "https://kb.example.com\\n"
[kb.topic.p]
subjects = "p"
title = "\\n"
introduction = "One line.\\r\\n"
`);
    expect(config!.site.title).toBe('Knowledge');
    expect(config!.site.description).toBe('Two lines.\nSecond.');
    expect(config!.site.url).toBe('https://kb.example.com');
    expect(config!.topics[0]!.title).toBeUndefined();
    expect(config!.topics[0]!.introduction).toBe('One line.');
  });

  it('keeps topics in table order, enabled or not', () => {
    const { config } = load('[kb.topic.b]\nsubjects = "b"\nenable = false\n[kb.topic.a]\nsubjects = "a"\n[kb.topic.c]\nsubjects = "c"\n');
    expect(config!.topics.map((t) => [t.id, t.enable])).toEqual([
      ['b', false],
      ['a', true],
      ['c', true],
    ]);
  });
});

describe('loadConfig: configuration errors (content/reference/configuration.md)', () => {
  it('reports TOML syntax with line and column', () => {
    const error = errorOf('[site]\ntitle = "a"\nurl = \n');
    expect(error).toMatchObject({ code: 'toml-syntax', file: FILE, line: 3 });
    expect(error.column).toBeGreaterThan(0);
    expect(error.message).toContain('line 3');
    const header = errorOf('[site]\ntitle = "a"\n[site\n');
    expect(header).toMatchObject({ line: 3 });
    expect(header.column).toBeGreaterThan(0);
  });

  it.each([
    ['[kb.topic.x]\nsubjects = "x"\nintroducton = "hi"\n', 'kb.topic.x.introducton', 'introduction', 3],
    ['[site]\ntitel = "a"\n', 'site.titel', 'title', 2],
    ['[kb]\nmax_subject_byte = 1\n', 'kb.max_subject_byte', 'max_subject_bytes', 2],
    ['[kb.sources]\nallow_privat = true\n', 'kb.sources.allow_privat', 'allow_private', 2],
    ['[kb.summaries]\nmodle = "m"\n', 'kb.summaries.modle', 'model', 2],
    ['[kb.topic.x]\nsubjects = "x"\n[profile.reviewer]\nknowlege = ["x"]\n', 'profile.reviewer.knowlege', 'knowledge', 4],
    ['[kb.topic.x]\nsubject = "x"\n', 'kb.topic.x.subject', 'subjects', 2],
  ])('unknown key: %j → %s, did you mean %s', (text, dotted, suggestion, line) => {
    const errors = errorsOf(text).filter((e) => e.code === 'unknown-key');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.line).toBe(line);
    expect(errors[0]!.message).toContain(dotted);
    expect(errors[0]!.message).toMatch(new RegExp(`did you mean .${suggestion}.\\?`, 'i'));
  });

  it.each([
    ['[site]\ntitle = 1\n', 'site.title'],
    ['[site]\nallow_html = "yes"\n', 'site.allow_html'],
    ['[kb]\nmax_subject_bytes = "big"\n', 'kb.max_subject_bytes'],
    ['[kb]\nwarn_subject_tokens = 1.5\n', 'kb.warn_subject_tokens'],
    ['[kb.topic.x]\nsubjects = 3\n', 'kb.topic.x.subjects'],
    ['[kb.topic.x]\nsubjects = "x"\nenable = "no"\n', 'kb.topic.x.enable'],
    ['[kb.topic.x]\nsubjects = "x"\nlearned = "a/*"\n', 'kb.topic.x.learned'],
    ['[kb.topic.x]\nsubjects = "x"\ndisabled = [1]\n', 'kb.topic.x.disabled'],
    ['[kb.topic.x]\nsubjects = "x"\n[profile.r]\nknowledge = "x"\n', 'profile.r.knowledge'],
    ['site = "x"\n', 'site'],
  ])('wrong type: %j names %s', (text, dotted) => {
    const error = errorOf(text);
    expect(error.code).toBe('wrong-type');
    expect(error.message).toContain(dotted);
  });

  it.each([['[kb.topic.x]\ntitle = "X"\n'], ['[kb.topic.x]\nsubjects = ""\n'], ['[kb.topic.x]\nsubjects = "\\n"\n']])('missing subjects: %j', (text) => {
    const error = errorOf(text);
    expect(error.code).toBe('missing-subjects');
    expect(error.message).toContain('kb.topic.x.subjects');
  });

  it.each([['1abc'], ['my topic'], ['-x'], ['é']])('bad topic id %j', (id) => {
    const error = errorOf(`[kb.topic.${JSON.stringify(id)}]\nsubjects = "x"\n`);
    expect(error.code).toBe('bad-topic-id');
    expect(error.message).toContain(JSON.stringify(id));
    expect(error.line).toBe(1);
  });

  it.each([['kb'], ['pagefind'], ['search'], ['changes'], ['raw'], ['assets'], ['_astro']])('reserved topic id %j', (id) => {
    const error = errorOf(`[kb.topic.${id}]\nsubjects = "x"\n`);
    expect(error.code).toBe('reserved-topic-id');
    expect(error.message).toContain(`kb.topic.${id}`);
  });

  it('accepts ids with letters, digits, - and _', () => {
    expect(load('[kb.topic.a-B_9]\nsubjects = "x"\n').config!.topics[0]!.id).toBe('a-B_9');
  });

  it.each([['../x'], ['x/../../y'], ['/etc'], ['/kb/inside-but-absolute']])('escaping subjects %j', (subjects) => {
    const error = errorOf(`[kb.topic.x]\nsubjects = ${JSON.stringify(subjects)}\n`);
    expect(error.code).toBe('escaping-subjects');
    expect(error.message).toContain('kb.topic.x.subjects');
    expect(error.line).toBe(2);
  });

  it('accepts subjects folders that stay inside, including "."', () => {
    const { config } = load('[kb.topic.a]\nsubjects = "."\n[kb.topic.b]\nsubjects = "x/../y"\n');
    expect(config!.topics.map((t) => t.dir)).toEqual(['/kb', '/kb/y']);
  });

  it('reports an uncompilable learned or disabled pattern, naming the entry', () => {
    const long = 'a'.repeat(70000);
    const error = errorOf(`[kb.topic.x]\nsubjects = "x"\ndisabled = ["ok", "${long}"]\n`);
    expect(error.message).toContain('kb.topic.x.disabled[1]');
  });
});

describe('loadConfig: other tables (content/reference/configuration.md)', () => {
  it('warns about a top-level table close to a known one', () => {
    const { config, diagnostics } = load('[stie]\ntitle = "a"\n[kb.topic.x]\nsubjects = "x"\n');
    expect(config).toBeDefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ kind: 'warning', file: FILE, line: 1 });
    expect(diagnostics[0]!.message).toContain('[site]');
  });

  it('ignores a JP config’s own tables silently', () => {
    const { config, diagnostics } = load('[assistant]\nname = "jp"\n[conversation]\nx = 1\n[kb.topic.x]\nsubjects = "x"\n');
    expect(config).toBeDefined();
    expect(diagnostics).toEqual([]);
  });
});

describe('loadConfig: merging files (content/reference/configuration.md)', () => {
  const first = {
    file: '/kb/kb.toml',
    text: `[site]
title = "First"
branch = "dev"
[kb]
max_subject_bytes = 100
[kb.topic.b]
title = "B1"
introduction = "Intro B."
subjects = "b"
learned = ["one"]
disabled = ["d1"]
[kb.topic.a]
subjects = "a"
[profile.reviewer]
knowledge = ["a/x"]
`,
  };
  const second = {
    file: '/kb/more/extra.toml',
    text: `[site]
title = "Second"
[kb.topic.c]
subjects = "c"
[kb.topic.b]
title = "B2"
learned = ["two"]
disabled = ["d2"]
[kb.topic.a]
subjects = "a2"
[profile.reviewer]
knowledge = ["b/y"]
[profile.other]
knowledge = ["c"]
`,
  };

  it('replaces scalars, appends lists, merges topics and profiles by id, keeps topic order', () => {
    const { config, diagnostics } = loadConfig([first, second]);
    expect(diagnostics).toEqual([]);
    expect(config!.files).toEqual(['/kb/kb.toml', '/kb/more/extra.toml']);
    expect(config!.site.title).toBe('Second');
    expect(config!.site.branch).toBe('dev');
    expect(config!.kb.max_subject_bytes).toBe(100);
    expect(config!.topics.map((t) => t.id)).toEqual(['b', 'a', 'c']);
    const [b, a, c] = config!.topics;
    expect(b).toMatchObject({ title: 'B2', introduction: 'Intro B.', learned: ['one', 'two'], disabled: ['d1', 'd2'], dir: '/kb/b', root: '/kb', file: '/kb/kb.toml' });
    expect(a).toMatchObject({ subjects: 'a2', dir: '/kb/more/a2', root: '/kb/more', file: '/kb/more/extra.toml' });
    expect(c).toMatchObject({ dir: '/kb/more/c', root: '/kb/more' });
    expect([...config!.profiles]).toEqual([
      ['reviewer', ['a/x', 'b/y']],
      ['other', ['c']],
    ]);
  });

  it('lets a later file supply the subjects of a topic named earlier', () => {
    const { config } = loadConfig([
      { file: '/kb/kb.toml', text: '[kb.topic.x]\ntitle = "X"\n' },
      { file: '/kb/sub/more.toml', text: '[kb.topic.x]\nsubjects = "x"\n' },
    ]);
    expect(config!.topics[0]).toMatchObject({ title: 'X', dir: '/kb/sub/x', root: '/kb/sub' });
  });

  it('judges a subjects path against the folder of the file that names it', () => {
    const result = loadConfig([
      { file: '/kb/kb.toml', text: '[kb.topic.x]\nsubjects = "x"\n' },
      { file: '/kb/sub/more.toml', text: '[kb.topic.x]\nsubjects = "../x"\n' },
    ]);
    expect(result.config).toBeUndefined();
    expect(result.diagnostics.filter((d) => d.kind === 'config-error')).toMatchObject([{ code: 'escaping-subjects', file: '/kb/sub/more.toml' }]);
  });

  it('reports an error in any file by that file', () => {
    const result = loadConfig([
      { file: '/kb/kb.toml', text: '[kb.topic.x]\nsubjects = "x"\n' },
      { file: '/kb/b.toml', text: '[kb.topic.x]\nintroducton = "x"\n' },
    ]);
    expect(result.config).toBeUndefined();
    expect(result.diagnostics).toMatchObject([{ kind: 'config-error', code: 'unknown-key', file: '/kb/b.toml', line: 2 }]);
  });
});

describe('loadConfig: [eval] (content/reference/configuration.md)', () => {
  it('has no question set and no thresholds by default', () => {
    expect(load('[kb.topic.t]\nsubjects = "t"\n').config!.eval).toEqual({ questions: undefined, min_hit_at_3: undefined, min_mrr: undefined });
  });

  it('resolves questions from the folder of the file that sets it; a later file replaces it and each threshold', () => {
    const { config } = loadConfig([
      { file: '/kb/kb.toml', text: '[kb.topic.t]\nsubjects = "t"\n\n[eval]\nquestions = "evals.toml"\nmin_hit_at_3 = 0.8\nmin_mrr = 0.5\n' },
      { file: '/ci/strict.toml', text: '[eval]\nquestions = "more/evals.toml"\nmin_mrr = 0.9\n' },
    ]);
    expect(config!.eval).toEqual({ questions: '/ci/more/evals.toml', min_hit_at_3: 0.8, min_mrr: 0.9 });
  });

  it('refuses unknown keys, and thresholds outside 0..1', () => {
    expect(errorsOf('[eval]\nquestions = "evals.toml"\nmin_hit_at_1 = 0.5\nmin_mrr = 1.5\n').map((d) => [d.code, d.line, d.message])).toEqual([
      ['wrong-type', 4, 'eval.min_mrr: expected a number from 0 to 1, like 0.8, got the number 1.5. Change the value.'],
      ['unknown-key', 3, 'eval.min_hit_at_1: unknown key. Did you mean "min_hit_at_3"?'],
    ]);
  });
});
