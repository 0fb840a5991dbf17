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
