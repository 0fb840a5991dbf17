/**
 * A memo on disk (a file of the build cache): values by what they are made of, read by the code
 * that wrote them only (their rules are code), keeping what one run used. The search terms
 * (search-terms-memo.ts), the near-duplicate check's word sets and the markdown outlines the
 * other checks read are kept this way.
 */
import type { ContentCheckMemos } from '../kb/checks/content.ts';
import { isMarkdownOutline, type MarkdownOutline } from '../kb/checks/markdown-facts.ts';
import { readCacheEntries, writeCacheEntries } from '../kb/files/cache-file.ts';

/** A memo read from a cache file; {@link StoredMemo.save} keeps the entries this run set (a value taken from it is set again to be kept). */
export interface StoredMemo<T> {
  get(key: string): T | undefined;
  set(key: string, value: T): void;
  /**
   * Writes the entries this run used (when they differ from the file's), then forgets every
   * entry, so that the memo does not stay in memory after its work; later `set`s are ignored.
   */
  save(): void;
}

/** Reads the memo file `file`, written by the code of key `codeKey`, with the entries `isEntry` accepts; any other file gives an empty memo. */
export function openStoredMemo<T>(file: string, codeKey: string, isEntry: (value: unknown) => value is T): StoredMemo<T> {
  const known = readCacheEntries(file, codeKey, isEntry);
  const used = new Map<string, T>();
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

/** The markdown outlines the content checks read, kept in the cache file `file` by their content's sha256 (kb/checks/markdown-facts.ts). */
function openOutlineMemo(file: string, codeKey: string): StoredMemo<MarkdownOutline> {
  return openStoredMemo(file, codeKey, isMarkdownOutline);
}

/** The near-duplicate check's word sets kept in the cache file `file` (kb/checks/near-duplicates.ts `wordSetKey`). */
function openWordSetMemo(file: string, codeKey: string): StoredMemo<readonly string[]> {
  return openStoredMemo(file, codeKey, (value): value is string[] => Array.isArray(value) && value.every((word) => typeof word === 'string'));
}

/**
 * The memos the content checks keep in the cache (the word sets and the outlines, in the files
 * `files` names), for the code of key `codeKey`; `save` writes both (see {@link StoredMemo.save}).
 */
export function openContentCheckMemos(
  files: { wordSets: string; outlines: string },
  codeKey: string,
): ContentCheckMemos & { wordSets: StoredMemo<readonly string[]>; outlines: StoredMemo<MarkdownOutline>; save(): void } {
  const wordSets = openWordSetMemo(files.wordSets, codeKey);
  const outlines = openOutlineMemo(files.outlines, codeKey);
  return {
    wordSets,
    outlines,
    save() {
      wordSets.save();
      outlines.save();
    },
  };
}
