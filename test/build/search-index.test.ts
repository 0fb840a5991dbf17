/**
 * The search index takes pages as the build makes them, and holds the build back while Pagefind
 * has PAGES_IN_FLIGHT pages still to take (content/reference/decisions.md, "Memory of a large
 * build"), so that what waits for Pagefind does not grow with the site; with a staging folder,
 * each shard's index is written as soon as its last page is taken; a shard indexed again changes
 * only the files of its folder that differ. A large site's shards grow instead of multiplying:
 * a reader's search fetches a chunk of every shard (content/reference/decisions.md, "The search index").
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_SHARD_PAGES, MAX_SHARDS, PAGES_IN_FLIGHT, shardCount, startSearchIndex, type SearchIndexOptions } from '../../src/build/search-index.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const pageOf = (n: number) =>
  new TextEncoder().encode(`<!DOCTYPE html><html lang="en"><body><article data-pagefind-body><h1>Page ${n}</h1><p>word${n}</p></article></body></html>`);

describe('the number of shards', () => {
  it('is one per 1,000 pages, at most 16 unless a shard would then hold over 25,000 pages', () => {
    expect([0, 1, 1000, 1001, 7424, 16_000, 16_001, 29_700, 100_000, 400_000, 400_001, 1_000_000].map((pages) => shardCount(pages))).toEqual([
      1, 1, 1, 2, 8, 16, 16, 16, 16, 16, 17, 40,
    ]);
    expect([MAX_SHARDS, MAX_SHARD_PAGES]).toEqual([16, 25_000]);
    // A build that asks for smaller shards (the tests' 10 pages) gets them, up to the same limit.
    expect([40, 160, 161, 5000].map((pages) => shardCount(pages, 10))).toEqual([4, 16, 16, 16]);
  });
});

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

  it('indexes a changed shard again by changing only the files that differ in its folder: the same index as a fresh one', async () => {
    const urls = Array.from({ length: 12 }, (_, n) => `/t/p-${n}/`);
    const before = (n: number) => pageOf(n);
    const after = (n: number) =>
      n === 5 ? new TextEncoder().encode('<html lang="en"><body><article data-pagefind-body><h1>Page 5</h1><p>changed</p></article></body></html>') : pageOf(n);
    const keysOf = (changed: boolean) => Object.fromEntries(urls.map((url, n) => [url, changed && n === 5 ? 'k2' : 'k']));
    /** A full index of `page`'s pages in shards of 4, in a new folder that also holds the pages. */
    const indexAll = async (page: (n: number) => Uint8Array, keys: Record<string, string>) => {
      const dir = makeTree(Object.fromEntries(urls.map((url, n) => [`${url.slice(1)}index.html`, new TextDecoder().decode(page(n))])));
      const indexing = await startSearchIndex({ dir, keys, pending: 'all', perShard: 4 });
      for (const [n, url] of urls.entries()) await indexing.pageBuilt(url, page(n));
      const done = await indexing.finish();
      await done.cleanup;
      return { dir, manifest: done.manifest };
    };
    const filesOf = (dir: string) => {
      const root = path.join(dir, 'pagefind');
      const entries = fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      return new Map(entries.map((e) => [path.relative(root, path.join(e.parentPath, e.name)), fs.statSync(path.join(e.parentPath, e.name)).ino]));
    };
    const bytesOf = (dir: string) => new Map([...filesOf(dir).keys()].map((file) => [file, fs.readFileSync(path.join(dir, 'pagefind', file)).toString('base64')]));

    const { dir, manifest } = await indexAll(before, keysOf(false));
    const old = filesOf(dir);
    fs.writeFileSync(path.join(dir, 't/p-5/index.html'), after(5));
    const indexing = await startSearchIndex({ dir, keys: keysOf(true), previous: manifest, pending: new Set(['/t/p-5/']), perShard: 4 });
    await indexing.pageBuilt('/t/p-5/', after(5));
    const done = await indexing.finish();
    await done.cleanup;
    expect(done.written).toBe(1);

    const fresh = await indexAll(after, keysOf(true));
    expect(bytesOf(dir)).toEqual(bytesOf(fresh.dir));
    const now = filesOf(dir);
    const shard = indexing.shardOf('/t/p-5/')!;
    const kept = [...now].filter(([file, inode]) => old.get(file) === inode).map(([file]) => file);
    const rewritten = [...now.keys()].filter((file) => !kept.includes(file));
    // Every file of the other shards, and most of the changed shard's, is the file that was there.
    expect(kept.filter((file) => !file.startsWith(`${shard}/`)).length).toBe([...old.keys()].filter((file) => !file.startsWith(`${shard}/`)).length);
    expect(kept.some((file) => file.startsWith(`${shard}/fragment/`))).toBe(true);
    // The changed page's fragment, the shard's meta and entry, and the index chunks that changed; the shard list is written by every build.
    expect(rewritten.every((file) => file === 'shards.json' || (file.startsWith(`${shard}/`) && /(fragment|index)\/|pf_meta$|pagefind-entry\.json$/.test(file)))).toBe(true);
    expect(rewritten).toContain(`${shard}/pagefind-entry.json`);
    expect(rewritten.filter((file) => file.startsWith(`${shard}/fragment/`))).toHaveLength(1);
    // The old fragment of the page is gone.
    expect([...old.keys()].filter((file) => !now.has(file)).filter((file) => file.startsWith(`${shard}/fragment/`))).toHaveLength(1);
  });
});
