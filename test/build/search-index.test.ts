/**
 * The search index takes pages as the build makes them, and holds the build back while Pagefind
 * has PAGES_IN_FLIGHT pages still to take (content/reference/decisions.md, "Memory of a large
 * build"), so that what waits for Pagefind does not grow with the site.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGES_IN_FLIGHT, startSearchIndex } from '../../src/build/search-index.ts';
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
});
