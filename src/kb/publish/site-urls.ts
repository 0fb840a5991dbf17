/** Every URL of the site, below `[site] base` (content/reference/site-addresses.md). */
import { addressOf } from '../subjects/address.ts';

/** `[site] base` as a path that starts and ends with `/`. */
export function normalizeBase(base: string): string {
  const trimmed = base.trim().replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '/' : `/${trimmed}/`;
}

/** A path inside the site (`path` has no leading `/`). */
export function siteUrl(base: string, path = ''): string {
  return `${base}${path}`;
}

/** A topic's page. */
export function topicUrl(base: string, topic: string): string {
  return `${base}${topic}/`;
}

/** A subject's page, `/<topic>/<address>/`. */
export function subjectUrl(base: string, topic: string, address: string): string {
  return `${base}${topic}/${address}/`;
}

/** A subject's markdown twin, `/<topic>/<address>.md`. */
export function markdownUrl(base: string, topic: string, address: string): string {
  return `${base}${topic}/${address}.md`;
}

/** A subject's JSON, `/kb/subjects/<topic>/<address>.json`. */
export function subjectJsonUrl(base: string, topic: string, address: string): string {
  return `${base}kb/subjects/${topic}/${address}.json`;
}

/** The file of a subject as stored, `/raw/<topic>/<address>/<file name>`: its name keeps its extension. */
export function rawUrl(base: string, topic: string, address: string, fileName: string): string {
  return `${base}raw/${topic}/${address}/${encodeURIComponent(fileName)}`;
}

/** The anchor of a folder on its topic page. */
export function folderAnchor(folderSlug: string): string {
  return folderSlug === '' ? 'subjects' : `folder-${addressOf(folderSlug)}`;
}

/** A folder of a topic: its place on the topic page. */
export function folderUrl(base: string, topic: string, folderSlug: string): string {
  return `${topicUrl(base, topic)}#${folderAnchor(folderSlug)}`;
}

/** The anchor of a subject's entry on the changes page (`/changes/`). */
export function changeAnchor(topic: string, slug: string): string {
  return `change-${topic}-${addressOf(slug).replaceAll('/', '--')}`;
}
