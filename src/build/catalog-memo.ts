/**
 * The catalog's memo on disk (the cache's `catalogMemo` file): tokens, summaries and headings by
 * content, so that a build reads every subject but tokenizes and parses only new contents.
 */
import fs from 'node:fs';
import { writeCacheFile } from '../kb/files/cache-file.ts';
import { CATALOG_MEMO_VERSION, type CatalogMemo, type CatalogMemoEntry as Entry } from '../kb/catalog/catalog.ts';

/** A memo loaded from a cache folder; {@link saveCatalogMemo} keeps what this run used. */
export interface StoredCatalogMemo extends CatalogMemo {
  /** How many contents came from the memo, and how many were computed. */
  readonly stats: { reused: number; computed: number };
  /** The entries this run asked for (the others are dropped when saving). */
  readonly used: Map<string, Entry>;
}

/** Loads the memo file `file`; an absent, unreadable or other-version memo starts empty. */
export function loadCatalogMemo(file: string): StoredCatalogMemo {
  let known = new Map<string, Entry>();
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown; entries?: Record<string, Entry> };
    if (stored.version === CATALOG_MEMO_VERSION && stored.entries) known = new Map(Object.entries(stored.entries));
  } catch {
    // No memo yet, or a damaged one: everything is computed again.
  }
  const used = new Map<string, Entry>();
  const stats = { reused: 0, computed: 0 };
  return {
    stats,
    used,
    get(key) {
      const entry = known.get(key);
      if (entry && typeof entry.tokens === 'number' && typeof entry.summary === 'string' && Array.isArray(entry.headings)) {
        stats.reused++;
        used.set(key, entry);
        return entry;
      }
      return undefined;
    },
    set(key, value) {
      stats.computed++;
      used.set(key, value);
    },
  };
}

/** Writes the entries this run used to `file`, replacing it in one rename. */
export function saveCatalogMemo(file: string, memo: StoredCatalogMemo): void {
  writeCacheFile(file, JSON.stringify({ version: CATALOG_MEMO_VERSION, entries: Object.fromEntries(memo.used) }));
}
