/** One file of the site that is not an HTML page: its bytes, its content type, writing it. */
import fs from 'node:fs';
import path from 'node:path';
import { lookup } from 'mrmime';
import { fileWriterFor } from './file-writer.ts';

/** One file of the site: its path below the site's base (no leading `/`) and its bytes. */
export interface StaticFile {
  path: string;
  /**
   * Text (written as UTF-8), text made only when the file is written or served (`make`), bytes
   * made at listing (an archive), or the absolute path of a file to copy.
   */
  body: { text: string } | { make: () => string } | { bytes: Uint8Array } | { copy: string };
  /**
   * What the bytes are made from, when it is known without making them: equal keys mean equal
   * bytes. Without it, the build's manifest hashes the bytes.
   */
  key?: string;
}

/** Reads a static file's bytes. */
export function readStaticFile(file: StaticFile): Buffer {
  const source = sourceOf(file);
  return 'copy' in source ? fs.readFileSync(source.copy) : Buffer.from(source.data);
}

/** Where a static file's bytes come from: a file to copy, or bytes or text (written as UTF-8), made now. */
function sourceOf(file: StaticFile): { copy: string } | { data: Uint8Array | string } {
  if ('copy' in file.body) return file.body;
  return { data: 'bytes' in file.body ? file.body.bytes : staticText(file.body) };
}

/** The text of a static file that is not a copy. */
export function staticText(body: { text: string } | { make: () => string }): string {
  return 'text' in body ? body.text : body.make();
}

/**
 * Where the site is served differently from mrmime's table (the one sirv and other static hosts
 * use): the types the site's own sitemap and icons have always been served with.
 */
const OWN_TYPES: Readonly<Record<string, string>> = { xml: 'application/xml', ico: 'image/x-icon' };

/**
 * The content type of a file of the site, by its extension, as a static host serves it: mrmime's
 * type, with `; charset=utf-8` on text (the site writes all its text as UTF-8);
 * `application/octet-stream` when the extension is unknown.
 */
export function contentTypeOf(file: string): string {
  const extension = path.extname(file).slice(1).toLowerCase();
  const type = OWN_TYPES[extension] ?? lookup(extension) ?? 'application/octet-stream';
  return /^(?:text\/|application\/(?:json|xml)$)/.test(type) ? `${type}; charset=utf-8` : type;
}

/** How many files {@link writeStaticFilesAsync} has in the writer thread's hands at once: what it holds does not grow with the site. */
const WRITES_AT_ONCE = 64;

/**
 * Writes `files` below `dir` as {@link writeStaticFiles} does, through the build's writer thread
 * when they are many (file-writer.ts): the calling thread stays free for other work (the build makes its pages
 * meanwhile). Texts made when written (`make`) are made and written one at a time: some grow with
 * the site (llms-full.txt, the indexes), and all of them at once would be held together.
 */
export async function writeStaticFilesAsync(dir: string, files: readonly StaticFile[]): Promise<void> {
  const writer = fileWriterFor(files.length);
  let making: Promise<unknown> = Promise.resolve();
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (next < files.length && !failed) {
      const file = files[next++]!;
      const target = path.join(dir, file.path);
      try {
        if ('make' in file.body) {
          const body = file.body;
          const written = making.then(() => writer.write(target, body.make()));
          making = written.catch(() => undefined);
          await written;
          continue;
        }
        const source = sourceOf(file);
        await ('copy' in source ? writer.copy(source.copy, target) : writer.write(target, source.data));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITES_AT_ONCE }, lane));
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
    const source = sourceOf(file);
    if ('copy' in source) fs.copyFileSync(source.copy, target);
    else fs.writeFileSync(target, source.data);
  }
}
