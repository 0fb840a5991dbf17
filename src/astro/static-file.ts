/**
 * One file of the site that is not an HTML page, and reading its bytes. Kept apart from
 * `static-files.ts`, which lists them from the whole core: the integration writes and serves
 * files listed before Astro runs (see site-data-access.ts).
 */
import fs from 'node:fs';

/** One file of the site: its path below the site's base (no leading `/`) and its bytes. */
export interface StaticFile {
  path: string;
  /**
   * Text (written as UTF-8), text made only when the file is written or served (`make`), or the
   * absolute path of a file to copy.
   */
  body: { text: string } | { make: () => string } | { copy: string };
  /**
   * What the bytes are made from, when it is known without making them: equal keys mean equal
   * bytes. Without it, the build's manifest hashes the bytes.
   */
  key?: string;
}

/** Reads a static file's bytes. */
export function readStaticFile(file: StaticFile): Buffer {
  if ('copy' in file.body) return fs.readFileSync(file.body.copy);
  return Buffer.from(staticText(file.body), 'utf8');
}

/** The text of a static file that is not a copy. */
export function staticText(body: { text: string } | { make: () => string }): string {
  return 'text' in body ? body.text : body.make();
}
