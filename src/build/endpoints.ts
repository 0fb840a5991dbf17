/**
 * Files of the site that are not HTML pages: the machine endpoints, the JSON Schema of kb.toml,
 * each subject's markdown twin and JSON, the stored files of subjects shown as images or
 * downloads, the sitemap and the icon.
 * Written after Astro's page build (and served by the development server) rather than rendered
 * in Astro's page loop: they are plain data.
 */
import { hash } from 'node:crypto';
import fs from 'node:fs';
import { CONFIG_SCHEMA_SITE_PATH } from '../kb/config/published-schema.ts';
import { renderConfigSchema } from '../kb/config/schema.ts';
import { type SubjectFile, renderEndpointSchemas } from '../kb/publish/endpoint-schemas.ts';
import type { SearchDocumentMemo } from '../kb/view/search-terms.ts';
import { buildSubjectFile, serializeEndpoint } from '../kb/publish/endpoints.ts';
import { SKILLS_FOLDER, buildSkillsIndex, listAgentSkills, makeSkillArtifact } from '../kb/publish/agent-skills.ts';
import { clientScripts } from './client-scripts.ts';
import { listContentAssets } from './content-assets.ts';
import type { SiteData } from './site-data.ts';
import { type KeyedText, keyText, siteTextsOf } from './site-texts.ts';
import type { StaticFile } from './static-file.ts';

/** The site's icon. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#6f42c1"/><path d="M9 8h9a5 5 0 0 1 5 5v11H14a5 5 0 0 1-5-5z" fill="#fff"/></svg>\n';

/**
 * Every non-page file of the site: the machine endpoints (content/agents/endpoints.md), the JSON
 * Schema of kb.toml, the Agent Skills discovery index and artifacts (content/agents/agent-skills.md)
 * and, for every enabled subject (hidden ones at their own addresses only), its markdown twin, its
 * JSON and its stored file; the site's scripts and the libraries its pages load for math and
 * diagrams (content-assets.ts).
 */
export function listStaticFiles(data: SiteData): StaticFile[] {
  return [...eachStaticFile(data, {})];
}

/** Options of {@link staticFilesOfAsync}. */
export interface ListingOptions {
  /** Subjects' search documents kept between builds (`/kb/keywords.json`). */
  searchMemo?: SearchDocumentMemo | undefined;
  /**
   * Called with each text made to key it (an index, llms-full.txt) as soon as it is made: an
   * incremental build writes the changed ones then, rather than make them again to write them.
   */
  made?: ((path: string, key: string, bytes: Uint8Array) => void) | undefined;
  /** The texts of {@link siteTextsOf}, made and keyed already (in a thread of their own), by path. */
  texts?: ReadonlyMap<string, KeyedText> | undefined;
}

/**
 * {@link listStaticFiles}, letting other work of this process run every few milliseconds: an
 * incremental build lists the files while Pagefind, a process of its own, writes the index
 * (content/reference/decisions.md, "Files after the pages").
 */
async function listStaticFilesAsync(data: SiteData, options: ListingOptions = {}): Promise<StaticFile[]> {
  const files: StaticFile[] = [];
  let since = performance.now();
  for (const file of eachStaticFile(data, options)) {
    files.push(file);
    if (performance.now() - since < YIELD_AFTER_MS) continue;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  }
  return files;
}

/** How long {@link listStaticFilesAsync} keeps the thread before it lets other work run. */
const YIELD_AFTER_MS = 10;

/** The files of {@link listStaticFiles}, each made as it is taken. */
function* eachStaticFile(data: SiteData, { searchMemo, made, texts }: ListingOptions): Generator<StaticFile> {
  const { catalog } = data;
  const base = data.routes.base;
  const local = (url: string): string => decodeURIComponent(url.slice(base.length));
  const text = (path: string, body: string): StaticFile => ({ path, body: { text: body } });
  const budget = { bytes: KEPT_TEXT_BYTES };
  for (const { path, make } of siteTextsOf({ catalog, site: data.site, base }, searchMemo)) yield keptText(path, make, budget, texts?.get(path) ?? keyText(make()), made);
  for (const [name, schema] of Object.entries(renderEndpointSchemas())) yield text(`kb/schema/${name}`, serializeEndpoint(schema));
  yield text(CONFIG_SCHEMA_SITE_PATH, serializeEndpoint(renderConfigSchema()));
  const skills = listAgentSkills(catalog);
  const artifacts = skills.map((skill) => makeSkillArtifact(skill, (subject) => fs.readFileSync(subject.file)));
  // A knowledge base without skills publishes no discovery index at all.
  if (skills.length > 0) yield text(`${SKILLS_FOLDER}/index.json`, serializeEndpoint(buildSkillsIndex(skills, artifacts, base)));
  for (const artifact of artifacts) yield { path: artifact.path, body: { bytes: artifact.bytes }, key: artifact.digest };
  // A subject's two files are keyed without being made: a build writes only those that changed,
  // and making and hashing every subject's JSON cost more than the rest of an incremental build's reading.
  for (const route of data.routes.subjects) {
    const { subject } = route;
    yield { path: local(route.markdownUrl), body: { text: subject.content }, key: `sha256:${subject.sha256}` };
    const json = (): SubjectFile => buildSubjectFile(subject, base);
    yield { path: local(route.jsonUrl), body: { make: () => serializeEndpoint(json()) }, key: subjectFileKey(json()) };
    if (route.rawUrl) yield { path: local(route.rawUrl), body: { copy: route.subject.file } };
  }
  for (const file of data.siteFiles) yield { path: file.sitePath, body: { copy: file.file } };
  if (!data.siteFiles.some((f) => f.key === 'favicon')) yield text('favicon.svg', FAVICON);
  for (const script of Object.values(clientScripts())) yield { path: script.path, body: { copy: script.file } };
  yield* listContentAssets();
  const sitemap = renderSitemap(data);
  if (sitemap !== null) yield keptText('sitemap.xml', () => renderSitemap(data)!, budget, keyText(sitemap), made);
}

/** Bytes of the texts {@link keptText} keeps from listing to writing, at most, per listing. */
const KEPT_TEXT_BYTES = 16 * 1024 * 1024;

/**
 * A file whose text grows with the site (an index, llms-full.txt), made once to key it: its
 * bytes are shown to `made` and kept while the listing's `budget` lasts (a small site's), else
 * made again when it is written or served, so that a large build does not hold every such text
 * while it makes its pages (content/reference/decisions.md, "Memory of a large build").
 */
function keptText(path: string, make: () => string, budget: { bytes: number }, { key, bytes }: KeyedText, made: ListingOptions['made']): StaticFile {
  made?.(path, key, bytes);
  if (bytes.length > budget.bytes) return { path, body: { make }, key };
  budget.bytes -= bytes.length;
  return { path, body: { bytes }, key };
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

/** {@link staticFilesOf}, listed by {@link listStaticFilesAsync} when not listed yet. */
export async function staticFilesOfAsync(data: SiteData, options: ListingOptions = {}): Promise<StaticFile[]> {
  data.staticFiles ??= await listStaticFilesAsync(data, options);
  return data.staticFiles;
}

/** The key of a subject's JSON file: the file with its content replaced by the content's sha256. */
function subjectFileKey(file: SubjectFile): string {
  return `json:${hash('sha1', JSON.stringify({ ...file, content: file.sha256 }))}`;
}
