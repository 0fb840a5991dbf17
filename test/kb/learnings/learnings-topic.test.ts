/**
 * A topic whose subjects come from a learnings store (`learnings = "…"`,
 * content/reference/cli/learnings.md): configuration, the store on disk, subjects and patterns,
 * the catalog, and the checks that read subjects.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildCatalog,
  checkContent,
  findEntriesOf,
  loadConfig,
  loadMarkdownParser,
  openKnowledgeBase,
  rankSubjects,
  type Diagnostic,
  type Learning,
} from '../../../src/kb/index.ts';
import { makeTree } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { learnLocally } from '../../helpers/local-learn.ts';

function learning(fields: Partial<Learning> = {}): Learning {
  return {
    id: 'learn-1',
    taskId: 'task-1',
    category: 'pattern',
    content: 'This project uses Zod schemas for all API validation',
    keywords: ['zod'],
    confidence: 0.75,
    usedCount: 5,
    successCount: 4,
    createdAt: '2024-01-10T08:00:00.000Z',
    ...fields,
  };
}

/** A store's text, one entry per line from line 4. */
function storeText(entries: unknown[]): string {
  return `{\n"version": "1.0",\n"learnings": [\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

const TOML = `[kb.topic.team]
title = "Team Learnings"
learnings = "notes/knowledge.json"
learned = ["preference/*"]
disabled = ["fact/secret"]

[kb.topic.notes]
subjects = "notes"
`;

const STORE = storeText([
  learning(),
  learning({ id: 'learn-2', category: 'preference', content: 'Always use execFileSync over execSync for git commands', confidence: 0.5, usedCount: 0, successCount: 0 }),
  learning({ id: 'secret', category: 'fact', content: 'Disabled learning canary', confidence: 0.2 }),
  learning({ id: 'bad', confidence: 7 }),
]);

describe('a learnings topic', () => {
  const { root, kb } = openTree(TOML, { 'notes/knowledge.json': STORE, 'notes/readme.md': '# Notes\n' });
  const store = path.join(root, 'notes', 'knowledge.json');

  it('has one subject per valid, enabled learning, with learned and disabled patterns applied to their slugs', () => {
    const team = kb.topic('team')!;
    expect(team.config).toMatchObject({ kind: 'learnings', subjects: 'notes/knowledge.json', dir: store, line: 3 });
    expect(team.subjects.map((s) => s.slug)).toEqual(['pattern/learn-1', 'preference/learn-2']);
    expect(team.disabledSubjects.map((s) => s.slug)).toEqual(['fact/secret']);
    expect(team.learned).toEqual(['preference/learn-2']);
  });

  it('never lists the store as a subject of a topic whose folder holds it', () => {
    expect(kb.topic('notes')!.subjects.map((s) => s.path)).toEqual(['readme.md']);
  });

  it('reports the invalid entry at its line and goes on', () => {
    kb.topics();
    expect(kb.diagnostics()).toEqual([
      {
        kind: 'warning',
        code: 'invalid-learning',
        message: 'learnings[3] (id "bad") is not a valid learning: confidence is 7, expected a number from 0 to 1. It is left out of topic "team" until the entry is fixed.',
        file: store,
        line: 7,
      },
    ]);
  });

  it('answers learn with the rendered learning, by exact slug, even before the topic is listed', async () => {
    const fresh = openTree(TOML, { 'notes/knowledge.json': STORE }).kb;
    expect(fresh.findExact('team', 'pattern/learn-1')?.slug).toBe('pattern/learn-1');
    expect(fresh.findExact('team', 'fact/secret')).toBeUndefined();
    expect(await learnLocally(fresh, { topic: 'team', patterns: ['pattern/learn-1'] })).toEqual({
      ok: true,
      text: '# This project uses Zod schemas for all API validation\n\n- Confidence: 0.75\n- Used: 5 times, 4 successful\n- Created: 2024-01-10T08:00:00.000Z\n- Keywords: zod',
    });
    expect(await learnLocally(fresh, { topic: 'team', patterns: ['fact/secret'] })).toEqual({
      ok: false,
      message: 'No subjects in topic "team" match "fact/secret". Call learn with only the topic to list its subjects.',
    });
  });

  it("gives the catalog each learning's confidence, entry line, title, summary and content", async () => {
    const { catalog } = await buildCatalog(kb);
    const subjects = catalog.topics[0]!.subjects;
    expect(
      subjects.map((s) => ({
        slug: s.slug,
        path: s.path,
        file: s.file,
        confidence: s.confidence,
        learning: s.learning,
        title: s.title,
        summary: s.summary,
        learned: s.learned,
        format: s.format,
        language: s.language,
        bytes: s.bytes,
      })),
    ).toEqual([
      {
        slug: 'pattern/learn-1',
        path: 'knowledge.json#learn-1',
        file: store,
        confidence: 0.75,
        learning: { id: 'learn-1', line: 4 },
        title: 'This project uses Zod schemas for all API validation',
        summary: 'This project uses Zod schemas for all API validation',
        learned: false,
        format: 'markdown',
        language: null,
        bytes: Buffer.byteLength(subjects[0]!.content),
      },
      {
        slug: 'preference/learn-2',
        path: 'knowledge.json#learn-2',
        file: store,
        confidence: 0.5,
        learning: { id: 'learn-2', line: 5 },
        title: 'Always use execFileSync over execSync for git commands',
        summary: 'Always use execFileSync over execSync for git commands',
        learned: true,
        format: 'markdown',
        language: null,
        bytes: Buffer.byteLength(subjects[1]!.content),
      },
    ]);
    expect(catalog.topics[1]!.subjects.map((s) => ({ slug: s.slug, confidence: s.confidence, learning: s.learning }))).toEqual([{ slug: 'readme', confidence: 1, learning: null }]);
    expect(catalog.knowledge.prompt).toContain(
      '<subject "preference/learn-2">\n# Always use execFileSync over execSync for git commands\n\n- Confidence: 0.5\n- Used: never\n- Created: 2024-01-10T08:00:00.000Z\n- Keywords: zod\n</subject>',
    );
  });

  it('ranks a learning for find by its stored keywords too, after its title and summary', async () => {
    const opened = openTree(TOML, { 'notes/knowledge.json': storeText([learning({ keywords: ['schema', 'zod', 'Input-Checks'] })]) });
    const { catalog } = await buildCatalog(opened.kb);
    const subject = catalog.topics[0]!.subjects[0]!;
    expect(subject.keywords).toEqual(['project', 'uses', 'zod', 'schemas', 'api', 'validation', 'schema', 'inputchecks']);
    // "schema" is in none of the learning's words, only in its stored keywords.
    expect(rankSubjects(findEntriesOf(catalog), 'schema', { limit: 5 }).map((r) => [r.slug, r.score])).toEqual([['pattern/learn-1', 0.2376]]);
  });

  it('summarises a multi-line learning by its first paragraph', async () => {
    const content = 'Releases need a changeset,\nwritten before the PR.\n\nOtherwise CI fails.';
    const opened = openTree(TOML, { 'notes/knowledge.json': storeText([learning({ content })]) });
    const { catalog } = await buildCatalog(opened.kb);
    expect(catalog.topics[0]!.subjects.map((s) => [s.title, s.summary])).toEqual([['Releases need a changeset,', 'Releases need a changeset, written before the PR.']]);
  });
});

describe('a learnings topic: the store on disk', () => {
  const diagnosticsOf = (toml: string, entries: Record<string, string | { symlink: string }>): Diagnostic[] => {
    const { kb } = openTree(toml, entries);
    kb.topics();
    return kb.diagnostics();
  };

  it('a missing store is a content error at the learnings key; the topic has no subjects', () => {
    const { root, kb } = openTree('[kb.topic.team]\nlearnings = "gone.json"\n', {});
    expect(kb.topic('team')!.subjects).toEqual([]);
    expect(kb.diagnostics()).toEqual([
      {
        kind: 'content-error',
        code: 'missing-store',
        message: `kb.topic.team.learnings: the file "gone.json" does not exist (${path.join(root, 'gone.json')}). Create it (syllabus learnings add creates it), or point learnings at an existing store.`,
        file: path.join(root, 'kb.toml'),
        line: 2,
      },
    ]);
  });

  it('a folder is a content error', () => {
    const root = makeTree({ 'kb.toml': '[kb.topic.team]\nlearnings = "store"\n', 'store/a.md': 'x' });
    const { config } = loadConfig([{ file: path.join(root, 'kb.toml'), text: fs.readFileSync(path.join(root, 'kb.toml'), 'utf8') }]);
    expect(openKnowledgeBase(config!).diagnostics()).toEqual([
      {
        kind: 'content-error',
        code: 'missing-store',
        message: 'kb.topic.team.learnings: "store" is a folder, not a file. Point learnings at the store\'s JSON file, or use subjects = "store" for a folder of subjects.',
        file: path.join(root, 'kb.toml'),
        line: 2,
      },
    ]);
  });

  it('a store that is not JSON is a content error at the store, with its line and column; the topic has no subjects', () => {
    const { root, kb } = openTree('[kb.topic.team]\nlearnings = "k.json"\n', { 'k.json': '{\n  "learnings": [],\n}\n' });
    expect(kb.topic('team')!.subjects).toEqual([]);
    expect(kb.diagnostics()).toEqual([
      {
        kind: 'content-error',
        code: 'invalid-store',
        message: 'The learnings store of topic "team" is not valid JSON (Expected double-quoted property name), so the topic has no subjects. Fix the JSON at line 3, column 1.',
        file: path.join(root, 'k.json'),
        line: 3,
        column: 1,
      },
    ]);
  });

  it('a store without a learnings array is a content error', () => {
    expect(diagnosticsOf('[kb.topic.team]\nlearnings = "k.json"\n', { 'k.json': '[]' }).map((d) => [d.kind, d.code, d.message])).toEqual([
      [
        'content-error',
        'invalid-store',
        'The learnings store of topic "team" is an array, not a learnings store object, so the topic has no subjects. A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.',
      ],
    ]);
  });

  it("a store reached through a symlink that leaves the config file's folder is a configuration error", () => {
    const outside = makeTree({ 'k.json': STORE });
    const diagnostics = diagnosticsOf('[kb.topic.team]\nlearnings = "k.json"\n', { 'k.json': { symlink: path.join(outside, 'k.json') } });
    expect(diagnostics.map((d) => [d.kind, d.code, d.line])).toEqual([['config-error', 'escaping-subjects', 2]]);
    expect(diagnostics[0]!.message).toMatch(
      /^kb\.topic\.team\.learnings: "k\.json" is a symlink to .*, outside the folder of the config file \(.*\)\. Learnings stores must lie inside it/,
    );
  });

  it("a store behind a symlinked folder inside the config file's folder is read", () => {
    const { kb } = openTree('[kb.topic.team]\nlearnings = "link/k.json"\n', { 'real/k.json': STORE, link: { symlink: 'real' } });
    expect(kb.topic('team')!.subjects.map((s) => s.slug)).toEqual(['fact/secret', 'pattern/learn-1', 'preference/learn-2']);
  });

  it('the store of a disabled topic is not a subject of a topic folder either', () => {
    const { kb } = openTree('[kb.topic.team]\nenable = false\nlearnings = "notes/k.json"\n\n[kb.topic.notes]\nsubjects = "notes"\n', { 'notes/k.json': STORE, 'notes/a.md': 'a' });
    expect(kb.topic('notes')!.subjects.map((s) => s.path)).toEqual(['a.md']);
    expect(kb.findExact('notes', 'k')).toBeUndefined();
  });
});

describe('a learnings topic: configuration', () => {
  const FILE = '/kb/kb.toml';
  const load = (text: string) => loadConfig([{ file: FILE, text }]);

  it.each([
    [
      '[kb.topic.team]\nsubjects = "team"\nlearnings = "k.json"\n',
      {
        kind: 'config-error',
        code: 'subjects-and-learnings',
        message:
          'kb.topic.team: both subjects and learnings are set. A topic reads either a folder (subjects = "<folder>") or a learnings store (learnings = "<file>.json"); remove one of them.',
        file: FILE,
        line: 3,
        column: 1,
      },
    ],
    [
      '[kb.topic.team]\ntitle = "T"\n',
      {
        kind: 'config-error',
        code: 'missing-subjects',
        message:
          'kb.topic.team.subjects: missing. Every topic needs subjects = "<folder>", a folder relative to the config file that names it (or learnings = "<file>.json", a learnings store).',
        file: FILE,
        line: 1,
        column: 1,
      },
    ],
    [
      '[kb.topic.team]\nlearnings = "../k.json"\n',
      {
        kind: 'config-error',
        code: 'escaping-subjects',
        message:
          'kb.topic.team.learnings: "../k.json" leaves the folder of the config file. Learnings stores must lie inside the folder of the config file (/kb), because PR previews build configs from untrusted branches; move the file there and use a relative path.',
        file: FILE,
        line: 2,
        column: 1,
      },
    ],
    [
      '[kb.topic.team]\nlearnings = "/etc/k.json"\n',
      {
        kind: 'config-error',
        code: 'escaping-subjects',
        message:
          'kb.topic.team.learnings: "/etc/k.json" is an absolute path. Learnings stores must lie inside the folder of the config file (/kb), because PR previews build configs from untrusted branches; move the file there and use a relative path.',
        file: FILE,
        line: 2,
        column: 1,
      },
    ],
    [
      '[kb.topic.team]\nlearnings = 3\n',
      {
        kind: 'config-error',
        code: 'wrong-type',
        message: 'kb.topic.team.learnings: expected a string (in quotes), got the integer 3. Change the value.',
        file: FILE,
        line: 2,
        column: 1,
      },
    ],
  ])('%j is a configuration error', (text, error) => {
    const result = load(text);
    expect(result.config).toBeUndefined();
    expect(result.diagnostics).toEqual([error]);
  });

  it("takes the store relative to the config file's folder", () => {
    expect(load('[kb.topic.team]\nlearnings = "learnings/knowledge.json"\n').config!.topics).toEqual([
      expect.objectContaining({ id: 'team', kind: 'learnings', subjects: 'learnings/knowledge.json', dir: '/kb/learnings/knowledge.json', root: '/kb', file: FILE, line: 2 }),
    ]);
  });

  it('lets a later config file move a topic from a folder to a store, and back', () => {
    const merged = loadConfig([
      { file: '/kb/kb.toml', text: '[kb.topic.a]\nsubjects = "a"\n\n[kb.topic.b]\nlearnings = "b.json"\n' },
      { file: '/kb/more/kb.toml', text: '[kb.topic.a]\nlearnings = "a.json"\n\n[kb.topic.b]\nsubjects = "b"\n' },
    ]).config!.topics;
    expect(merged.map((t) => [t.id, t.kind, t.dir])).toEqual([
      ['a', 'learnings', '/kb/more/a.json'],
      ['b', 'folder', '/kb/more/b'],
    ]);
  });
});

describe('a learnings topic: check', () => {
  it("reports near-duplicate learnings by store and id at the first one's line, comparing their own words only", async () => {
    const store = storeText([
      learning({ id: 'a', content: 'Run the integration tests with the staging database' }),
      learning({ id: 'b', content: 'Run integration tests with the staging database!' }),
      learning({ id: 'c', content: 'Use zod' }),
      learning({ id: 'd', content: 'Use yup' }),
    ]);
    const { root, kb } = openTree('[kb.topic.team]\nlearnings = "k.json"\n', { 'k.json': store });
    const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
    expect(checkContent(catalog, kb.config.site, root, kb.config.check)).toEqual([
      {
        kind: 'warning',
        code: 'near-duplicate',
        message:
          'k.json (learning "a") and k.json (learning "b") are near-duplicates: they share 5 of the 5 words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.',
        file: path.join(root, 'k.json'),
        line: 4,
      },
    ]);
  });

  it("resolves a learning's relative links from the store's folder, and reports a broken one at its entry's line", async () => {
    const store = storeText([learning({ id: 'a', content: 'Read [the notes](notes/readme.md) first.' }), learning({ id: 'b', content: 'See [gone](notes/gone.md).' })]);
    const { root, kb } = openTree('[kb.topic.team]\nlearnings = "k.json"\n\n[kb.topic.notes]\nsubjects = "notes"\n', { 'k.json': store, 'notes/readme.md': '# Notes\n' });
    const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
    expect(checkContent(catalog, kb.config.site, root, kb.config.check)).toEqual([
      {
        kind: 'warning',
        code: 'broken-link',
        message: 'Broken link "notes/gone.md": topic "notes" has no subject "gone" (it is missing or disabled). Fix the link, or add the subject.',
        file: path.join(root, 'k.json'),
        line: 5,
      },
    ]);
  });

  it("reports a broken mention in a learning at its entry's line", async () => {
    const store = storeText([learning({ id: 'a', content: 'Fine' }), learning({ id: 'b', content: 'See `team/pattern/nope` first.' })]);
    const { root, kb } = openTree('[kb.topic.team]\nlearnings = "k.json"\n', { 'k.json': store });
    const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
    expect(checkContent(catalog, kb.config.site, root, kb.config.check).map((d) => [d.code, d.file, d.line, d.column])).toEqual([
      ['broken-mention', path.join(root, 'k.json'), 5, undefined],
    ]);
  });
});
