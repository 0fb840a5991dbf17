/**
 * The search index takes pages as the build makes them, and holds the build back while Pagefind
 * has PAGES_IN_FLIGHT pages still to take (content/reference/decisions.md, "Memory of a large
 * build"), so that what waits for Pagefind does not grow with the site; with a staging folder,
 * each shard's index is written as soon as its last page is taken.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES_IN_FLIGHT, startSearchIndex, type SearchIndexOptions } from '../../src/build/search-index.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const pageOf = (n: number) =>
  new TextEncoder().encode(`<!DOCTYPE html><html lang="en"><body><article data-pagefind-body><h1>Page ${n}</h1><p>word${n}</p></article></body></html>`);

describe('the search index', () => {
  it('holds the build back once Pagefind has PAGES_IN_FLIGHT pages to take, and indexes every page', async () => {
    const dir = makeTree({});
    const count = PAGES_IN_FLIGHT + 20;
    const urls = Array.from({ length: count }, (_, n) => `/t/p-${n}/`);
    const indexing = await startSearchIndex({ dir, keys: Object.fromEntries(urls.map((url) => [url, 'k'])), pending: 'all' });
    const held: number[] = [];
    for (const [n, url] of urls.entries()) {
      const wait = indexing.pageBuilt(url, pageOf(n));
      if (wait) {
        held.push(n);
        await wait;
      }
    }
    // Pagefind answers no page before the build yields: the first wait comes with the page that fills the window.
    expect(held[0]).toBe(PAGES_IN_FLIGHT - 1);
    const done = await indexing.finish();
    await done.cleanup;
    expect({ pages: done.pages, written: done.written, shards: done.manifest.shards }).toEqual({ pages: count, written: 1, shards: 1 });
    expect(fs.readdirSync(path.join(dir, 'pagefind')).sort()).toEqual(['0', 'shards.json']);
  });

  it('writes the index of a shard once its last page is taken, before finish, and the same index as finish writes', async () => {
    const urls = Array.from({ length: 12 }, (_, n) => `/t/p-${n}/`);
    const keys = Object.fromEntries(urls.map((url) => [url, 'k']));
    /** Indexes every page in shards of 4 and returns the index's files, path → bytes; `early` sees the staging folder once the first shard is fed. */
    const indexAll = async (options: Pick<SearchIndexOptions, 'staging'>, early?: (first: number) => Promise<void>): Promise<Map<string, string>> => {
      const dir = makeTree({});
      const indexing = await startSearchIndex({ dir, keys, pending: 'all', perShard: 4, ...options });
      const first = indexing.shardOf(urls[0]!)!;
      const inFirst = urls.filter((url) => indexing.shardOf(url) === first);
      for (const url of inFirst) await indexing.pageBuilt(url, pageOf(urls.indexOf(url)));
      await early?.(first);
      for (const url of urls.filter((u) => !inFirst.includes(u))) await indexing.pageBuilt(url, pageOf(urls.indexOf(url)));
      await (
        await indexing.finish()
      ).cleanup;
      const root = path.join(dir, 'pagefind');
      const files = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      return new Map(files.map((e) => [path.relative(root, path.join(e.parentPath, e.name)), fs.readFileSync(path.join(e.parentPath, e.name)).toString('base64')]));
    };
    const staging = path.join(makeTree({}), 'search-staging');
    let seen: string[] = [];
    const staged = await indexAll({ staging }, async (first) => {
      // Written while the other shards still wait for pages.
      while (!fs.existsSync(staging) || fs.readdirSync(staging).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      seen = fs.readdirSync(staging);
      expect(seen).toEqual([`${first}.new-${process.pid}`]);
    });
    expect(seen).toHaveLength(1);
    expect(fs.existsSync(staging)).toBe(false);
    const atFinish = await indexAll({});
    expect([...staged.keys()].filter((f) => f.endsWith('.pf_fragment')).length).toBe(12);
    expect(staged).toEqual(atFinish);
  });
});
