/** The content types the preview and development servers send for the files of a site (src/build/static-file.ts). */
import { describe, expect, it } from 'vitest';
import { contentTypeOf } from '../../src/build/static-file.ts';

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
