/**
 * Incremental builds: a key per output (page or file) from everything it shows, compared with the
 * previous build's keys, decides what to build again; the build records its keys in the cache and
 * marks the output folder as the build they describe. The record also keeps a digest of each page
 * as built, so that a build that makes a page again from the same input notices when its bytes
 * changed (content/reference/decisions.md, "Deterministic builds").
 */
import { createHash, hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_MARKER } from './output-folder.ts';
import { outputPackageVersions, packageRoot } from './package-info.ts';
import type { CacheFolder } from './cache-folder.ts';
import type { SearchManifest } from './search-index.ts';
import type { SiteData } from './site-data.ts';
import { staticText, type StaticFile } from './static-file.ts';
import { staticFilesOf } from './endpoints.ts';

/** Keys of one build: `source` covers the code and settings that shape every output. */
export interface BuildManifest {
  /** Format of this file; another value means a full build. */
  version: 1;
  source: string;
  /** Page URL → key. */
  pages: Record<string, string>;
  /** Static file path → key. */
  files: Record<string, string>;
}

/** What a build does. */
export type BuildPlan = { mode: 'full' } | { mode: 'none' } | { mode: 'incremental'; pages: Set<string>; removedPages: string[]; files: Set<string>; removedFiles: string[] };

function hashValue(value: unknown): string {
  return hash('sha1', typeof value === 'string' ? value : JSON.stringify(value));
}

/** The keys of the outputs of `data`, given the key of the code and settings (`source`). */
export function buildManifest(data: SiteData, source: string, staticFiles: StaticFile[] = staticFilesOf(data)): BuildManifest {
  return { ...buildPageKeys(data, source), files: buildFileKeys(staticFiles) };
}

/** The manifest's key of the code and settings, and the keys of the pages of `data` (no files: see {@link buildFileKeys}). */
export function buildPageKeys(data: SiteData, source: string): Omit<BuildManifest, 'files'> {
  const pages: Record<string, string> = {};
  // Every page's header lists the topics (the topic switcher): a topic's new title shows on every page.
  const switcher = data.routes.topics.map((t) => [t.url, t.title]);
  for (const route of data.routes.subjects) {
    // The content is covered by its sha256; the absolute file path is not shown.
    const { content: _content, file: _file, ...subject } = route.subject;
    pages[route.url] = hashValue({ ...route, subject, switcher });
  }
  const descriptions = data.catalog.topics.map((t) => t.description ?? '');
  data.routes.topics.forEach((route, i) => {
    const { subjects: _subjects, ...topic } = route.topic;
    pages[route.url] = hashValue({ title: route.title, count: route.count, tree: route.tree, topic, description: descriptions[i], switcher });
  });
  // Pages render images from the set of published files: a change there rebuilds everything.
  const raw = [...data.rawUrls.values()].sort();
  // A preview's changes show on the /changes/ page and in a banner on each changed page.
  const changes = data.changes ? data.changes.diff : null;
  return { version: 1, source: hashValue({ source, site: data.site, topics: data.linkTopics, raw, changes }), pages };
}

/** The manifest's keys of the site's other files. */
export function buildFileKeys(staticFiles: readonly StaticFile[]): Record<string, string> {
  const files: Record<string, string> = {};
  // Copied files (images, downloads) are keyed by their bytes: an edit that keeps the size shows.
  for (const file of staticFiles) {
    const { body } = file;
    files[file.path] = file.key ?? ('copy' in body ? hashFile(body.copy) : 'bytes' in body ? hash('sha1', body.bytes) : hashValue(staticText(body)));
  }
  return files;
}

/** Decides what to build, given the manifest of the build now in the output folder (if any). */
export function planBuild(previous: BuildManifest | undefined, current: BuildManifest): BuildPlan {
  if (!sameSource(previous, current)) return { mode: 'full' };
  const pages = changedKeys(previous.pages, current.pages);
  const files = changedKeys(previous.files, current.files);
  const removedPages = Object.keys(previous.pages).filter((url) => !(url in current.pages));
  const removedFiles = Object.keys(previous.files).filter((p) => !(p in current.files));
  if (pages.size === 0 && files.size === 0 && removedPages.length === 0 && removedFiles.length === 0) return { mode: 'none' };
  return { mode: 'incremental', pages, removedPages, files, removedFiles };
}

function hashFile(file: string): string {
  try {
    return hash('sha1', fs.readFileSync(file));
  } catch {
    return 'unreadable';
  }
}

/**
 * Whether the manifest `previous` was made by the same code and settings as `current` (the same
 * format and source key): only then can a build keep any of the previous output.
 */
export function sameSource(previous: Pick<BuildManifest, 'version' | 'source'> | undefined, current: Pick<BuildManifest, 'version' | 'source'>): previous is BuildManifest {
  return previous !== undefined && previous.version === current.version && previous.source === current.source;
}

/** The keys of `current` whose value is not the one in `previous`. */
export function changedKeys(previous: Readonly<Record<string, string>>, current: Readonly<Record<string, string>>): Set<string> {
  const changed = new Set<string>();
  for (const [key, value] of Object.entries(current)) if (previous[key] !== value) changed.add(key);
  return changed;
}

/** What the cache remembers of the last build. */
export interface PreviousBuild {
  manifest: BuildManifest;
  search: SearchManifest;
  /** Page URL → digest of the page as the build wrote it (see {@link digestPages}). */
  pageDigests: Record<string, string>;
}

function manifestId(manifest: BuildManifest): string {
  return hashValue(manifest);
}

/** The last build the cache recorded, whichever output folder it was written to. */
export function readBuildRecord(cache: CacheFolder): PreviousBuild | undefined {
  try {
    const record = JSON.parse(fs.readFileSync(cache.siteManifest, 'utf8')) as Partial<PreviousBuild>;
    if (!record.manifest || !record.search) return undefined;
    return { manifest: record.manifest, search: record.search, pageDigests: record.pageDigests ?? {} };
  } catch {
    return undefined;
  }
}

/** Whether the output folder `outDir` still holds the build `record` describes (else a build cannot be incremental). */
export function holdsBuild(outDir: string, record: PreviousBuild): boolean {
  try {
    return fs.readFileSync(path.join(outDir, BUILD_MARKER), 'utf8') === manifestId(record.manifest);
  } catch {
    return false;
  }
}

/** The digest of a page's bytes, as the build record keeps it. */
export function digestPage(bytes: Uint8Array): string {
  return hash('sha1', bytes);
}

/**
 * The digest of each page of `urls` built in the site folder `dir` (whose pages are below the
 * site's `base`): SHA-1 of its `index.html`. A page that is not there has none.
 */
export function digestPages(dir: string, base: string, urls: Iterable<string>): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const url of urls) {
    try {
      digests[url] = digestPage(fs.readFileSync(path.join(dir, decodeURIComponent(url.slice(base.length)), 'index.html')));
    } catch {
      // Not built: nothing to compare.
    }
  }
  return digests;
}

/**
 * The pages of `digests` that `record`'s build made from the very same input (the same code and
 * settings, the same key) and that came out different this time, in URL order.
 */
export function findUnstablePages(record: PreviousBuild | undefined, manifest: Omit<BuildManifest, 'files'>, digests: Readonly<Record<string, string>>): string[] {
  if (!record || !sameSource(record.manifest, manifest)) return [];
  return Object.keys(digests)
    .filter((url) => {
      const before = record.pageDigests[url];
      return before !== undefined && before !== digests[url] && record.manifest.pages[url] === manifest.pages[url];
    })
    .sort();
}

/** The warning of a build whose pages of {@link findUnstablePages} are `urls`, built into `outDir` (as shown). */
export function unstablePagesWarning(outDir: string, urls: readonly string[]): string {
  const named = urls.length > 3 ? `${urls.slice(0, 3).join(', ')} and ${urls.length - 3} more` : urls.join(', ');
  const pages = urls.length === 1 ? '1 page was' : `${urls.length} pages were`;
  return `${outDir}/: the build is not deterministic: ${pages} built from the same input as in the last build (the same subjects, settings and Syllabus) with different bytes (${named}). This is a bug in Syllabus; please report it with these pages and the files they show.`;
}

/**
 * The page digests to record for a build that wrote `built` (digests of the pages it built) over
 * `previous` (the record of the build in the output folder, for an incremental build): the pages
 * it did not build keep theirs, pages that are gone lose theirs.
 */
export function recordedDigests(manifest: Omit<BuildManifest, 'files'>, built: Readonly<Record<string, string>>, previous: PreviousBuild | undefined): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const url of Object.keys(manifest.pages)) {
    const digest = built[url] ?? previous?.pageDigests[url];
    if (digest !== undefined) digests[url] = digest;
  }
  return digests;
}

/**
 * Forgets which build `outDir` holds: called before it changes, so that a build stopped halfway is
 * never taken for a finished one. The folder stays marked as a build's output (an empty marker).
 */
export function unmarkBuild(outDir: string): void {
  if (fs.existsSync(outDir)) fs.writeFileSync(path.join(outDir, BUILD_MARKER), '');
}

/** Records a finished build: its manifests in the cache, and the marker in `outDir`. */
export function recordBuild(cache: CacheFolder, outDir: string, build: PreviousBuild): void {
  fs.mkdirSync(cache.dir, { recursive: true });
  fs.writeFileSync(cache.siteManifest, JSON.stringify(build));
  fs.writeFileSync(path.join(outDir, BUILD_MARKER), manifestId(build.manifest));
}

/**
 * The key of Syllabus's own code and dependencies, which shape every output: the modules it runs
 * from (`src/` or the compiled `lib/`), its package.json and lockfile, and the installed versions of
 * the packages that shape pages and search (`outputPackageVersions`).
 */
export function codeFingerprint(): string {
  const modules = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const root = packageRoot();
  const digest = createHash('sha1');
  const add = (file: string): void => {
    digest.update(path.relative(modules, file)).update('\0');
    try {
      digest.update(fs.readFileSync(file)).update('\0');
    } catch {
      digest.update('missing\0');
    }
  };
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else add(full);
    }
  };
  walk(modules);
  for (const file of ['package.json', 'package-lock.json']) add(path.join(root, file));
  // As installed: a range a dependent allows may bring another version without any package.json here changing.
  digest.update(outputPackageVersions());
  return digest.digest('hex');
}
