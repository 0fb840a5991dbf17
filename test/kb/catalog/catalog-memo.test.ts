/**
 * The catalog's memo: an unchanged content is never tokenized or summarised again, nor an unchanged
 * `<knowledge>` section counted again; a changed one always is, and the catalog is the same either way.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogMemoEntry } from '../../../src/kb/index.ts';
import { memoKey, sectionMemoKey } from '../../../src/kb/catalog/catalog.ts';
import { loadCatalogMemo, saveCatalogMemo } from '../../../src/build/catalog-memo.ts';
import { makeTree } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { recordingMemo } from '../../helpers/recording-memo.ts';

const TOML = '[kb.topic.t]\nsubjects = "t"\n';
const FILES = { 't/a.md': '# A\n\nFirst paragraph of a.\n\n## Usage\n\nText.\n', 't/b.md': '# B\n\nFirst paragraph of b.\n', 't/c.toml': '# Settings\nx = 1\n' };

describe('buildCatalog with a memo', () => {
  it('computes each content and the <knowledge> section once, and gives the same catalog from the memo, counting nothing', async () => {
    const { kb } = openTree(TOML, FILES);
    const memo = recordingMemo<CatalogMemoEntry>();
    const first = (await buildCatalog(kb, { memo })).catalog;
    expect(memo.sets).toHaveLength(4);
    expect(memo.sets[3]).toBe(sectionMemoKey(createHash('sha256').update(first.knowledge.prompt!).digest('hex')));
    memo.sets.length = 0;
    const counted: string[] = [];
    const countTokens = async (text: string): Promise<number> => {
      counted.push(text);
      return 0;
    };
    const again = (await buildCatalog(openTree(TOML, FILES).kb, { memo, countTokens })).catalog;
    expect(memo.sets).toEqual([]);
    // A host that counts in another thread need not even load its tokenizer.
    expect(counted).toEqual([]);
    expect(again.knowledge.tokens).toBe(first.knowledge.tokens);
    const view = (catalog: typeof first) => catalog.topics[0]!.subjects.map((s) => [s.slug, s.tokens, s.summary, s.sha256, s.headings, s.keywords]);
    expect(view(again)).toEqual(view(first));
    expect(view(first).map(([slug, , summary, , headings]) => [slug, summary, headings])).toEqual([
      ['a', 'First paragraph of a.', ['A', 'Usage']],
      ['b', 'First paragraph of b.', ['B']],
      ['c', 'Settings', []],
    ]);
  });

  it('computes a changed content again, and only that one', async () => {
    const memo = recordingMemo<CatalogMemoEntry>();
    await buildCatalog(openTree(TOML, FILES).kb, { memo });
    memo.sets.length = 0;
    const { kb } = openTree(TOML, { ...FILES, 't/b.md': '# B\n\nA new first paragraph.\n' });
    const catalog = (await buildCatalog(kb, { memo })).catalog;
    const b = catalog.topics[0]!.subjects.find((s) => s.slug === 'b')!;
    expect(memo.sets).toEqual([memoKey('markdown', b.sha256)]);
    expect(b.summary).toBe('A new first paragraph.');
  });

  it('keys by format too: the same text as markdown and as plain text is summarised apart', () => {
    expect(memoKey('markdown', 'abc')).not.toBe(memoKey('text', 'abc'));
  });
});

describe('buildCatalog with a token counter of the host', () => {
  it('asks it once per new content, all before awaiting any, and takes its counts; a content met twice is counted once', async () => {
    const files = { ...FILES, 't/copy.md': FILES['t/a.md'] };
    // Each ask notes how many answers had come: a catalog that awaited a count before reading on would ask the next one after an answer.
    const asked: { text: string; answered: number }[] = [];
    let answered = 0;
    const countTokens = (text: string): Promise<number> => {
      asked.push({ text, answered });
      return new Promise((resolve) =>
        setImmediate(() => {
          answered++;
          resolve(1000 + text.length);
        }),
      );
    };
    const memo = recordingMemo<CatalogMemoEntry>();
    const { catalog } = await buildCatalog(openTree(TOML, files).kb, { memo, countTokens });
    const [a, b, c, copy] = catalog.topics[0]!.subjects;
    // The contents as learn returns them, then the <knowledge> section, once they are counted.
    expect(asked.slice(0, 3)).toEqual([a!, b!, c!].map((s) => ({ text: s.content, answered: 0 })));
    expect(asked.slice(3).map((ask) => ask.answered)).toEqual([3]);
    expect([a, b, c, copy].map((s) => [s!.slug, s!.tokens])).toEqual([
      ['a', 1000 + a!.content.length],
      ['b', 1000 + b!.content.length],
      ['c', 1000 + c!.content.length],
      ['copy', 1000 + a!.content.length],
    ]);
    expect(memo.sets).toHaveLength(4);
  });

  it('reports a subject over the token limit in its place among the warnings of the subjects around it', async () => {
    const files = { 't/a.png': '\u0000binary', 't/b.md': '# B\n\nLong.\n', 't/c.png': '\u0000binary' };
    const toml = `${TOML}\n[kb]\nwarn_subject_tokens = 500\n`;
    const { diagnostics } = await buildCatalog(openTree(toml, files).kb, { countTokens: async (text) => (text.startsWith('#') ? 501 : 1) });
    expect(diagnostics.map((d) => [path.basename(d.file!), d.code])).toEqual([
      ['a.png', 'binary'],
      ['b.md', 'subject-tokens'],
      ['c.png', 'binary'],
    ]);
  });
});

describe('the memo on disk', () => {
  it('keeps what a build used, and starts empty after a version change or damage', () => {
    const cache = path.join(makeTree({}), 'catalog-memo.json');
    const memo = loadCatalogMemo(cache);
    memo.set('markdown:1', { tokens: 3, summary: 'One.', headings: ['One'] });
    saveCatalogMemo(cache, memo);
    const reloaded = loadCatalogMemo(cache);
    expect(reloaded.get('markdown:1')).toEqual({ tokens: 3, summary: 'One.', headings: ['One'] });
    expect(reloaded.get('markdown:2')).toBeUndefined();
    expect(reloaded.stats).toEqual({ reused: 1, computed: 0 });

    const file = cache;
    fs.writeFileSync(file, JSON.stringify({ version: 'an older one', entries: { 'markdown:1': { tokens: 3, summary: 'One.' } } }));
    expect(loadCatalogMemo(cache).get('markdown:1')).toBeUndefined();
    fs.writeFileSync(file, '{"version": "cut off');
    expect(loadCatalogMemo(cache).get('markdown:1')).toBeUndefined();
  });

  it('drops what the last build did not use', () => {
    const cache = path.join(makeTree({}), 'catalog-memo.json');
    const memo = loadCatalogMemo(cache);
    memo.set('markdown:old', { tokens: 1, summary: '', headings: [] });
    saveCatalogMemo(cache, memo);
    const next = loadCatalogMemo(cache);
    next.set('markdown:new', { tokens: 2, summary: '', headings: [] });
    saveCatalogMemo(cache, next);
    expect(Object.keys(JSON.parse(fs.readFileSync(cache, 'utf8')).entries)).toEqual(['markdown:new']);
  });
});
