/**
 * The search terms memo on disk (the cache's `searchTerms` file): each subject's encoded search
 * document (kb/view/search-terms.ts) by what it is made of, so that a build counts the terms of
 * changed subjects only when it makes `/kb/keywords.json`. A memo is read by the code that wrote
 * it only: the terms' rules are code.
 */
import { readCacheEntries, writeCacheEntries } from '../kb/files/cache-file.ts';
import type { SearchDocumentMemo } from '../kb/view/search-terms.ts';

/** A memo read from a cache file; {@link StoredSearchDocumentMemo.save} keeps the entries this run used. */
export interface StoredSearchDocumentMemo extends SearchDocumentMemo {
  /**
   * Writes the entries this run used, then forgets every entry: a text made again when it is
   * written (a large site's `kb/keywords.json`) counts its terms again rather than keep the memo
   * in memory through the pages (content/reference/decisions.md, "Search documents kept").
   */
  save(): void;
}

/** Reads the memo file `file`, written by the code of key `codeKey`; any other file gives an empty memo. */
export function openSearchDocumentMemo(file: string, codeKey: string): StoredSearchDocumentMemo {
  const known = readCacheEntries(file, codeKey, (value): value is string => typeof value === 'string');
  const used = new Map<string, string>();
  let changed = false;
  let saved = false;
  return {
    get: (key) => known.get(key),
    set(key, value) {
      if (saved) return;
      if (known.get(key) !== value) changed = true;
      used.set(key, value);
    },
    save() {
      if (saved) return;
      if (changed || used.size !== known.size) writeCacheEntries(file, codeKey, used);
      saved = true;
      known.clear();
      used.clear();
    },
  };
}
