/** One file of the site that is not an HTML page: its bytes, its content type, writing it. */
import fs from 'node:fs';
import path from 'node:path';

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

/** Content types by file extension, as a static host serves the site's files. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** The content type of a file of the site, by its extension; `application/octet-stream` when unknown. */
export function contentTypeOf(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** Writes `files` below `dir`, creating folders as needed. */
export function writeStaticFiles(dir: string, files: readonly StaticFile[]): void {
  const made = new Set<string>();
  for (const file of files) {
    const target = path.join(dir, file.path);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    if ('copy' in file.body) fs.copyFileSync(file.body.copy, target);
    else fs.writeFileSync(target, staticText(file.body));
  }
}
