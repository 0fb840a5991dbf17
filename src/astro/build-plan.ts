/**
 * Incremental builds: a key per output (page or file) from everything it shows, compared with the
 * previous build's keys, decides what to build again. Pure functions over route data.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { SiteData } from './site-data.ts';
import { staticText, type StaticFile } from './static-file.ts';
import { staticFilesOf } from './static-files.ts';

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
export type BuildPlan =
  | { mode: 'full' }
  | { mode: 'none' }
  | { mode: 'incremental'; pages: Set<string>; removedPages: string[]; files: Set<string>; removedFiles: string[] };

function hash(value: unknown): string {
  return createHash('sha1').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('hex');
}

/** The keys of the outputs of `data`, given the key of the code and settings (`source`). */
export function buildManifest(data: SiteData, source: string, staticFiles: StaticFile[] = staticFilesOf(data)): BuildManifest {
  const pages: Record<string, string> = {};
  for (const route of data.routes.subjects) {
    // The content is covered by its sha256; the absolute file path is not shown.
    const { content: _content, file: _file, ...subject } = route.subject;
    pages[route.url] = hash({ ...route, subject });
  }
  const descriptions = data.catalog.topics.map((t) => t.description ?? '');
  data.routes.topics.forEach((route, i) => {
    const { subjects: _subjects, ...topic } = route.topic;
    pages[route.url] = hash({ title: route.title, count: route.count, tree: route.tree, topic, description: descriptions[i] });
  });
  const files: Record<string, string> = {};
  // Copied files (images, downloads) are keyed by their bytes: an edit that keeps the size shows.
  for (const file of staticFiles) files[file.path] = file.key ?? ('copy' in file.body ? hashFile(file.body.copy) : hash(staticText(file.body)));
  // Pages render images from the set of published files: a change there rebuilds everything.
  const raw = [...data.rawUrls.values()].sort();
  // A preview's changes show on the /changes/ page and in a banner on each changed page.
  const changes = data.changes ? data.changes.diff : null;
  return { version: 1, source: hash({ source, site: data.site, topics: data.linkTopics, raw, changes }), pages, files };
}

/** Decides what to build, given the manifest of the build now in the output folder (if any). */
export function planBuild(previous: BuildManifest | undefined, current: BuildManifest): BuildPlan {
  if (!previous || previous.version !== current.version || previous.source !== current.source) return { mode: 'full' };
  const pages = changedKeys(previous.pages, current.pages);
  const files = changedKeys(previous.files, current.files);
  const removedPages = Object.keys(previous.pages).filter((url) => !(url in current.pages));
  const removedFiles = Object.keys(previous.files).filter((p) => !(p in current.files));
  if (pages.size === 0 && files.size === 0 && removedPages.length === 0 && removedFiles.length === 0) return { mode: 'none' };
  return { mode: 'incremental', pages, removedPages, files, removedFiles };
}

function hashFile(file: string): string {
  try {
    return createHash('sha1').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return 'unreadable';
  }
}

function changedKeys(previous: Record<string, string>, current: Record<string, string>): Set<string> {
  const changed = new Set<string>();
  for (const [key, value] of Object.entries(current)) if (previous[key] !== value) changed.add(key);
  return changed;
}
