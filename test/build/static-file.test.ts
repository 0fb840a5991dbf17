/** The content types the preview and development servers send for the files of a site, and how a build writes them (src/build/static-file.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentTypeOf, type StaticFile, writeStaticFilesAsync } from '../../src/build/static-file.ts';
import { makeTree } from '../helpers/temp-tree.ts';

describe('writeStaticFilesAsync', () => {
  it('makes a text made when written only once the one before it is written, and writes every file', async () => {
    const dir = makeTree({});
    const source = path.join(makeTree({ 'logo.png': 'png' }), 'logo.png');
    const seen: string[] = [];
    const made = (n: number): StaticFile => ({
      path: `kb/made-${n}.txt`,
      body: {
        make: () => {
          // What is on disk of the text made before this one, when this one is made.
          if (n > 0) seen.push(fs.existsSync(path.join(dir, `kb/made-${n - 1}.txt`)) ? fs.readFileSync(path.join(dir, `kb/made-${n - 1}.txt`), 'utf8') : 'missing');
          return `text ${n}\n`.repeat(1000);
        },
      },
    });
    const files: StaticFile[] = [made(0), made(1), { path: 'a.txt', body: { text: 'a' } }, made(2), { path: 'raw/logo.png', body: { copy: source } }, made(3)];
    await writeStaticFilesAsync(dir, files);
    expect(seen).toEqual([0, 1, 2].map((n) => `text ${n}\n`.repeat(1000)));
    expect(fs.readdirSync(dir, { recursive: true }).map(String).sort()).toEqual([
      'a.txt',
      'kb',
      'kb/made-0.txt',
      'kb/made-1.txt',
      'kb/made-2.txt',
      'kb/made-3.txt',
      'raw',
      'raw/logo.png',
    ]);
    expect(fs.readFileSync(path.join(dir, 'raw/logo.png'), 'utf8')).toBe('png');
  });
});

describe('contentTypeOf', () => {
  it('gives every kind of file a built site holds its type, text with its charset, and a published subject file the type a static host gives it', () => {
    const files = [
      'index.html',
      '_astro/site.CmJ8Q2.css',
      '_syllabus/search.js',
      'pagefind/pagefind.mjs',
      'kb/index.json',
      'guide/intro.md',
      'llms.txt',
      'sitemap.xml',
      'favicon.svg',
      'raw/guide/img/logo.png',
      'raw/guide/img/photo.JPG',
      'raw/guide/img/photo.jpeg',
      'raw/guide/img/anim.gif',
      'raw/guide/img/shot.webp',
      'raw/guide/img/shot.avif',
      'favicon.ico',
      'pagefind/fonts/a.woff2',
      'pagefind/wasm.unknown.pagefind',
      'pagefind/pagefind.wasm',
      'pagefind/fragment/en_1a2b.pf_fragment',
      'pagefind/index/en_1a2b.pf_index',
      'raw/handbook/files/archive.bin',
      '.syllabus-build',
      'raw/notes/README',
      'raw/docs/spec.pdf',
      'raw/data/large.csv',
    ];
    expect(Object.fromEntries(files.map((file) => [file, contentTypeOf(file)]))).toEqual({
      'index.html': 'text/html; charset=utf-8',
      '_astro/site.CmJ8Q2.css': 'text/css; charset=utf-8',
      '_syllabus/search.js': 'text/javascript; charset=utf-8',
      'pagefind/pagefind.mjs': 'text/javascript; charset=utf-8',
      'kb/index.json': 'application/json; charset=utf-8',
      'guide/intro.md': 'text/markdown; charset=utf-8',
      'llms.txt': 'text/plain; charset=utf-8',
      'sitemap.xml': 'application/xml; charset=utf-8',
      'favicon.svg': 'image/svg+xml',
      'raw/guide/img/logo.png': 'image/png',
      'raw/guide/img/photo.JPG': 'image/jpeg',
      'raw/guide/img/photo.jpeg': 'image/jpeg',
      'raw/guide/img/anim.gif': 'image/gif',
      'raw/guide/img/shot.webp': 'image/webp',
      'raw/guide/img/shot.avif': 'image/avif',
      'favicon.ico': 'image/x-icon',
      'pagefind/fonts/a.woff2': 'font/woff2',
      'pagefind/wasm.unknown.pagefind': 'application/octet-stream',
      'pagefind/pagefind.wasm': 'application/wasm',
      'pagefind/fragment/en_1a2b.pf_fragment': 'application/octet-stream',
      'pagefind/index/en_1a2b.pf_index': 'application/octet-stream',
      'raw/handbook/files/archive.bin': 'application/octet-stream',
      '.syllabus-build': 'application/octet-stream',
      'raw/notes/README': 'application/octet-stream',
      'raw/docs/spec.pdf': 'application/pdf',
      'raw/data/large.csv': 'text/csv; charset=utf-8',
    });
  });
});
