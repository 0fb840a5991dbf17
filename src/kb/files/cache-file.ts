/** Writing the files of a build cache. */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from './atomic-write.ts';

/**
 * Writes a cache file whole, with `writeFileAtomically` (folders created as needed), so a reader
 * never sees half of one. Not flushed to disk: every cache reader takes a damaged file for an
 * absent one, and its contents are made again.
 */
export function writeCacheFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomically(file, text, { flush: false });
}

/**
 * The entries of a cache file written by {@link writeCacheEntries}, by key, those `isEntry`
 * accepts; an absent, damaged or other-version file gives none (its contents are made again).
 */
export function readCacheEntries<T>(file: string, version: number | string, isEntry: (value: unknown) => value is T): Map<string, T> {
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown; entries?: unknown };
    if (stored.version !== version || typeof stored.entries !== 'object' || stored.entries === null) return new Map();
    return new Map(Object.entries(stored.entries).filter((entry): entry is [string, T] => isEntry(entry[1])));
  } catch {
    return new Map();
  }
}

/** Writes `entries` as the cache file `file` of format `version`, replacing it in one rename. */
export function writeCacheEntries(file: string, version: number | string, entries: ReadonlyMap<string, unknown>): void {
  writeCacheFile(file, JSON.stringify({ version, entries: Object.fromEntries(entries) }));
}
