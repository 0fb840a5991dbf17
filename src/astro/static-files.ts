/**
 * Files of the site that are not HTML pages: each subject's markdown twin and JSON, and the
 * stored files of subjects shown as images or downloads. Written after Astro's page build (and
 * served by the dev server) rather than rendered in Astro's page loop: they are plain data.
 */
import fs from 'node:fs';
import type { SiteData } from './site-data.ts';

/** One file of the site: its path below the site's base (no leading `/`) and its bytes. */
export interface StaticFile {
  path: string;
  /** Text (written as UTF-8), or the absolute path of a file to copy. */
  body: { text: string } | { copy: string };
}

/** Every non-page file of the site, for every enabled subject (hidden ones at their own addresses). */
export function listStaticFiles(data: SiteData): StaticFile[] {
  const files: StaticFile[] = [];
  const base = data.routes.base;
  const local = (url: string): string => decodeURIComponent(url.slice(base.length));
  for (const route of data.routes.subjects) {
    const s = route.subject;
    files.push({ path: local(route.markdownUrl), body: { text: s.content } });
    const json = {
      topic: s.topic,
      slug: s.slug,
      title: s.title,
      path: s.path,
      format: s.format,
      language: s.language,
      hidden: s.hidden,
      learned: s.learned,
      skipped: s.skipped,
      bytes: s.bytes,
      tokens: s.tokens,
      sha256: s.sha256,
      url: route.url,
      markdown: route.markdownUrl,
      content: s.content,
    };
    files.push({ path: local(route.jsonUrl), body: { text: `${JSON.stringify(json, null, 2)}\n` } });
    if (route.rawUrl) files.push({ path: local(route.rawUrl), body: { copy: s.file } });
  }
  const sitemap = renderSitemap(data);
  if (sitemap !== null) files.push({ path: 'sitemap.xml', body: { text: sitemap } });
  return files;
}

/**
 * The sitemap of the listed pages (home, topics, subjects that are not hidden), or null when
 * `[site] url` is not set: a sitemap needs absolute URLs.
 */
export function renderSitemap(data: SiteData): string | null {
  if (!data.site.url) return null;
  const origin = data.site.url.replace(/\/+$/, '');
  const urls = [data.routes.base, ...data.routes.topics.map((t) => t.url), ...data.routes.subjects.filter((r) => !r.subject.hidden).map((r) => r.url)];
  const entries = urls.map((url) => `  <url><loc>${escapeXml(new URL(url, `${origin}/`).href)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * The static files of `data`, listed once per build: kept on the site data itself, which the
 * CLI and Astro's bundle share (their modules are separate instances).
 */
export function staticFilesOf(data: SiteData): StaticFile[] {
  data.staticFiles ??= listStaticFiles(data);
  return data.staticFiles;
}

/** Reads a static file's bytes. */
export function readStaticFile(file: StaticFile): Buffer {
  return 'text' in file.body ? Buffer.from(file.body.text, 'utf8') : fs.readFileSync(file.body.copy);
}
