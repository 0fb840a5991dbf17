/** Writing the files of a build cache. */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a cache file whole: to a temporary file beside it (folders created as needed), then
 * renamed over it, so a reader never sees half of one. Not flushed to disk: every cache reader
 * takes a damaged file for an absent one, and its contents are made again.
 */
export function writeCacheFile(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, file);
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  }
}
