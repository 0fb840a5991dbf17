/**
 * URL sources in the core (content/reference/subject-formats.md, "URL sources"): links.txt parsing,
 * slugs from host and path, and the subjects the knowledge base makes of the documents a host
 * passes in (collisions, hidden, disabled,
 * learned, exact lookups, content, index.txt).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, listTopicLinks, loadConfig, openKnowledgeBase, renderIndexText, type SourceDocument, type SyllabusConfig } from '../../../src/kb/index.ts';
import { parseLinksFile } from '../../../src/kb/url-sources/links-file.ts';
import { sourceSlugOf } from '../../../src/kb/url-sources/slug.ts';
import { makeTree, type TreeEntry } from '../../helpers/temp-tree.ts';
import { learnLocally } from '../../helpers/local-learn.ts';

describe('parseLinksFile', () => {
  it('reads one URL per line, skipping blank lines and # comments, with line numbers', () => {
    const text =
      '\uFEFF# Sources of the team\r\n\r\nhttps://example.com/docs/intro.html\n  http://Example.COM:80/a/./b/../c   # trailing comment\nhttps://example.com/page#section\n\n';
    expect(parseLinksFile(text, '/kb/t/links.txt')).toEqual({
      links: [
        { url: 'https://example.com/docs/intro.html', line: 3 },
        { url: 'http://example.com/a/c', line: 4 },
        { url: 'https://example.com/page', line: 5 },
      ],
      diagnostics: [],
    });
  });

  it('warns about every line it leaves out, naming the file and line, what happened and how to fix it', () => {
    const text = [
      'https://example.com/a',
      'example.com/b',
      'ftp://example.com/file.txt',
      'file:///etc/passwd',
      'https://user:secret@example.com/private',
      'https://example.com/a#again',
      'https://example.com/c https://example.com/d',
      'not a url at all',
      '::',
    ].join('\n');
    const file = '/kb/t/links.txt';
    expect(parseLinksFile(text, file)).toEqual({
      links: [{ url: 'https://example.com/a', line: 1 }],
      diagnostics: [
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 2,
          message: '"example.com/b" is not a URL, so it is not fetched. Write the address in full, with its scheme; did you mean "https://example.com/b"?',
        },
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 3,
          message: '"ftp://example.com/file.txt" is a ftp: URL: only http:// and https:// sources are fetched. Give the page\'s https:// address, or remove the line.',
        },
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 4,
          message: '"file:///etc/passwd" is a file: URL: only http:// and https:// sources are fetched. Give the page\'s https:// address, or remove the line.',
        },
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 5,
          message:
            '"https://user:secret@example.com/private" holds a user name or password, which the site would publish with the URL. Remove them; Syllabus fetches only pages that need no login.',
        },
        {
          kind: 'warning',
          code: 'duplicate-source',
          file,
          line: 6,
          message: '"https://example.com/a#again" is already listed at line 1 of links.txt, so this line is ignored. Remove one of the two lines.',
        },
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 7,
          message:
            '"https://example.com/c https://example.com/d" holds more than one URL: each line of links.txt lists one URL (a comment starts with #). Put each URL on its own line.',
        },
        {
          kind: 'warning',
          code: 'invalid-source',
          file,
          line: 8,
          message: '"not a url at all" holds more than one URL: each line of links.txt lists one URL (a comment starts with #). Put each URL on its own line.',
        },
        { kind: 'warning', code: 'invalid-source', file, line: 9, message: '"::" is not a URL, so it is not fetched. Write the address in full, with its scheme.' },
      ],
    });
  });
});

describe('sourceSlugOf', () => {
  it.each([
    ['https://example.com/docs/intro.html', 'example.com/docs/intro', false],
    ['https://example.com/docs/Intro.HTM', 'example.com/docs/Intro', false],
    ['https://example.com/docs/', 'example.com/docs/index', false],
    ['https://example.com', 'example.com/index', false],
    ['https://EXAMPLE.com/Docs/Guide', 'example.com/Docs/Guide', false],
    ['http://example.com:8080/a.md', 'example.com:8080/a', false],
    ['https://example.com:443/a', 'example.com/a', false],
    ['https://example.com/releases/v1.2', 'example.com/releases/v1.2', false],
    ['https://example.com/notes.v2.txt', 'example.com/notes.v2', false],
    ['https://example.com/list?page=2&sort=a/b', 'example.com/list?page=2&sort=a%2Fb', false],
    ['https://example.com/?q=1', 'example.com/index?q=1', false],
    ['https://example.com/a//b', 'example.com/a/b', false],
    ['https://example.com/caf%C3%A9/a%2Fb', 'example.com/café/a%2Fb', false],
    ['https://xn--caf-dma.example/x', 'café.example/x', false],
    ['https://example.com/.notes/a.html', 'example.com/notes/a', true],
    ['https://example.com/.html', 'example.com/html', true],
    ['http://127.0.0.1:4000/page', '127.0.0.1:4000/page', false],
    ['http://[::1]:4000/page', '[::1]:4000/page', false],
  ])('%s → %s', (url, slug, hidden) => {
    expect(sourceSlugOf(url)).toEqual({ slug, hidden });
  });
});

const DATE = '2026-11-20T10:00:00.000Z';

function doc(content: string, format: SourceDocument['format'] = 'markdown'): SourceDocument {
  return { content, format, fetchedAt: DATE };
}

function open(toml: string, entries: Record<string, TreeEntry>, documents: Record<string, SourceDocument>) {
  const root = makeTree({ 'kb.toml': toml, ...entries });
  const { config } = loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]);
  const kb = openKnowledgeBase(config!, { sources: new Map(Object.entries(documents)) });
  return { root, config: config as SyllabusConfig, kb };
}

const TOML = `[kb.topic.web]
subjects = "web"
learned = ["example.com/team"]
disabled = ["example.com/drafts/**"]
`;

const LINKS = `# What the team reads
https://example.com/guide.html
https://example.com/team
https://example.com/drafts/next
https://example.com/.internal/runbook
https://example.com/not-fetched
not-a-url
`;

const DOCUMENTS = {
  'https://example.com/guide.html': doc('# The guide\r\n\r\nHow the product works.\n\n'),
  'https://example.com/team': doc('Ana and Ben.', 'text'),
  'https://example.com/drafts/next': doc('# Next\n\nDISABLED-CANARY'),
  'https://example.com/.internal/runbook': doc('# Runbook\n\nHidden steps.'),
};

describe('URL sources in the knowledge base', () => {
  it('makes a subject of every fetched URL, beside the files, and reports the bad lines', () => {
    const { root, kb } = open(TOML, { 'web/links.txt': LINKS, 'web/readme.md': '# Readme\n' }, DOCUMENTS);
    const topic = kb.topic('web')!;
    expect(topic.subjects.map((s) => ({ slug: s.slug, path: s.path, hidden: s.hidden, format: s.format, line: s.source?.line }))).toEqual([
      { slug: 'example.com/guide', path: 'https://example.com/guide.html', hidden: false, format: 'markdown', line: 2 },
      { slug: 'example.com/internal/runbook', path: 'https://example.com/.internal/runbook', hidden: true, format: 'markdown', line: 5 },
      { slug: 'example.com/team', path: 'https://example.com/team', hidden: false, format: 'text', line: 3 },
      { slug: 'readme', path: 'readme.md', hidden: false, format: 'markdown', line: undefined },
    ]);
    expect(topic.disabledSubjects.map((s) => s.slug)).toEqual(['example.com/drafts/next']);
    expect(topic.learned).toEqual(['example.com/team']);
    expect(kb.diagnostics()).toEqual([
      {
        kind: 'warning',
        code: 'invalid-source',
        file: path.join(root, 'web', 'links.txt'),
        line: 7,
        message: '"not-a-url" is not a URL, so it is not fetched. Write the address in full, with its scheme; did you mean "https://not-a-url"?',
      },
    ]);
  });

  it('gives learn the stored content, by exact slug before any walk, hidden ones included, disabled ones never', async () => {
    const { kb } = open(TOML, { 'web/links.txt': LINKS }, DOCUMENTS);
    expect(await learnLocally(kb, { topic: 'web', patterns: ['example.com/guide'] })).toEqual({ ok: true, text: '# The guide\n\nHow the product works.' });
    expect(await learnLocally(kb, { topic: 'web', patterns: ['example.com/.internal/runbook'] })).toEqual({ ok: true, text: '# Runbook\n\nHidden steps.' });
    expect(await learnLocally(kb, { topic: 'web', patterns: ['example.com/drafts/next'] })).toEqual({
      ok: false,
      message: 'No subjects in topic "web" match "example.com/drafts/next". Call learn with only the topic to list its subjects.',
    });
    expect((await learnLocally(kb, { topic: 'web', patterns: ['example.com/not-fetched'] })).ok).toBe(false);
    expect(await learnLocally(kb, { topic: 'web', patterns: [] })).toEqual({
      ok: true,
      text: '# Topic: web\n\n## Available subjects:\n\n- example.com/guide\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- example.com/team',
    });
  });

  it('puts URL sources in the catalog with their URL and fetch date, and in index.txt as kb:<url>', async () => {
    const { root, kb } = open(TOML, { 'web/links.txt': LINKS, 'web/readme.md': '# Readme\n\nThe readme.\n' }, DOCUMENTS);
    const { catalog } = await buildCatalog(kb);
    const guide = catalog.topics[0]!.subjects[0]!;
    expect({ slug: guide.slug, file: guide.file, title: guide.title, source: guide.source, content: guide.content, bytes: guide.bytes }).toEqual({
      slug: 'example.com/guide',
      file: path.join(root, 'web', 'links.txt'),
      title: 'The guide',
      source: { url: 'https://example.com/guide.html', line: 2, fetchedAt: DATE },
      content: '# The guide\n\nHow the product works.',
      bytes: 35,
    });
    expect(renderIndexText(catalog)).toBe(
      'kb:https://example.com/guide.html\nHow the product works.\n\nkb:https://example.com/team\nAna and Ben.\n\nkb:web/readme.md\nThe readme.\n',
    );
  });

  it('settles a slug shared with a file, or by two URLs, with the duplicate-slug rule: the file first, then the earlier line', () => {
    const links = 'https://example.com/a.html\nhttps://example.com/a\nhttps://example.com/b\n';
    const { root, kb } = open(
      '[kb.topic.web]\nsubjects = "web"\n',
      { 'web/links.txt': links, 'web/example.com/b.md': '# File b\n' },
      {
        'https://example.com/a.html': doc('# A from html'),
        'https://example.com/a': doc('# A bare'),
        'https://example.com/b': doc('# B from the web'),
      },
    );
    const topic = kb.topic('web')!;
    expect(topic.subjects.map((s) => [s.slug, s.path])).toEqual([
      ['example.com/a', 'https://example.com/a.html'],
      ['example.com/b', 'example.com/b.md'],
    ]);
    const file = path.join(root, 'web', 'links.txt');
    expect(kb.diagnostics()).toEqual([
      {
        kind: 'content-error',
        code: 'duplicate-slug',
        message:
          'Duplicate slug "example.com/a" in topic "web": links.txt line 1 (https://example.com/a.html), links.txt line 2 (https://example.com/a) all have it; links.txt line 1 (https://example.com/a.html) is used. Rename or remove the others.',
        file,
        line: 1,
      },
      {
        kind: 'content-error',
        code: 'duplicate-slug',
        message:
          'Duplicate slug "example.com/b" in topic "web": example.com/b.md, links.txt line 3 (https://example.com/b) all have it; example.com/b.md is used. Rename or remove the others.',
        file,
        line: 3,
      },
    ]);
    // The exact lookup, before any walk, settles it the same way.
    const fresh = open(
      '[kb.topic.web]\nsubjects = "web"\n',
      { 'web/links.txt': links, 'web/example.com/b.md': '# File b\n' },
      { 'https://example.com/b': doc('# B from the web') },
    ).kb;
    expect(fresh.findExact('web', 'example.com/b')?.path).toBe('example.com/b.md');
  });

  it('never reads a links.txt that is a symlink out of the knowledge base (the walk warns about the link)', () => {
    const outside = makeTree({ 'links.txt': 'https://example.com/secret\n' });
    const { root, config, kb } = open(
      '[kb.topic.web]\nsubjects = "web"\n',
      { 'web/links.txt': { symlink: path.join(outside, 'links.txt') } },
      { 'https://example.com/secret': doc('# Secret') },
    );
    expect(kb.topic('web')!.subjects).toEqual([]);
    expect(kb.diagnostics().map((d) => [d.code, d.file])).toEqual([['skipped-symlink', path.join(root, 'web', 'links.txt')]]);
    expect(listTopicLinks(config)).toEqual([]);
  });

  it('lists the links of every enabled folder topic for the host, and none of a disabled topic', () => {
    const toml = '[kb.topic.web]\nsubjects = "web"\n\n[kb.topic.off]\nenable = false\nsubjects = "off"\n\n[kb.topic.plain]\nsubjects = "plain"\n';
    const { root, config } = open(toml, { 'web/links.txt': 'https://example.com/a\n', 'off/links.txt': 'https://example.com/off\n', 'plain/a.md': 'a' }, {});
    expect(listTopicLinks(config)).toEqual([{ topic: 'web', file: path.join(root, 'web', 'links.txt'), links: [{ url: 'https://example.com/a', line: 1 }], diagnostics: [] }]);
  });
});
