/** Reading a built site the way the visibility tests look at it. */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/**
 * Every file of the built site `dist` by its `/`-separated path, as text (latin1, so that any
 * byte is kept); Pagefind's gzipped files decompressed, so the search index counts too.
 */
export function readDistFiles(dist: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(dist, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(dist, name);
    if (!fs.statSync(full).isFile()) continue;
    let bytes = fs.readFileSync(full);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
    files.set(name.split(path.sep).join('/'), bytes.toString('latin1'));
  }
  return files;
}
