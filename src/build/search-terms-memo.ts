/**
 * The search terms memo on disk (the cache's `searchTerms` file): each subject's encoded search
 * document (kb/view/search-terms.ts) by what it is made of, so that a build counts the terms of
 * changed subjects only when it makes `/kb/keywords.json`. A memo is read by the code that wrote
 * it only: the terms' rules are code.
 */
import type { SearchDocumentMemo } from '../kb/view/search-terms.ts';
import { openStoredMemo, type StoredMemo } from './stored-memo.ts';

/**
 * A search terms memo read from a cache file. Its `save` forgets every entry: a text made again
 * when it is written (a large site's `kb/keywords.json`) counts its terms again rather than keep
 * the memo in memory through the pages (content/reference/decisions.md, "Search documents kept").
 */
export type StoredSearchDocumentMemo = StoredMemo<string> & SearchDocumentMemo;

/** Reads the memo file `file`, written by the code of key `codeKey`; any other file gives an empty memo. */
export function openSearchDocumentMemo(file: string, codeKey: string): StoredSearchDocumentMemo {
  return openStoredMemo(file, codeKey, (value): value is string => typeof value === 'string');
}
