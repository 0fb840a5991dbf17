/**
 * The cache of URL sources (content/reference/configuration.md, "Caching and revalidation"): one
 * JSON file per URL in the build cache's sources folder (see src/build/cache-folder.ts), named by
 * the sha256 of the URL. The build writes it; every other command reads it and never fetches.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeCacheFile } from '../kb/files/cache-file.ts';
import type { SourceDocument, SourceFormat } from '../kb/url-sources/document.ts';

/** The version of a cached copy's shape; a copy of another version is not read. */
const CACHE_VERSION = 1;

/** What the cache keeps of one URL. */
export interface CachedSource {
  version: typeof CACHE_VERSION;
  /** The URL as listed (the key). */
  url: string;
  /** The address the content came from, after redirects. */
  finalUrl: string;
  /** When the content was fetched (ISO 8601); a fetch that brings the same content keeps it. */
  fetchedAt: string;
  etag: string | undefined;
  lastModified: string | undefined;
  contentType: string | undefined;
  /** The conversion that made `content` (`SOURCE_CONVERSION_VERSION`). */
  conversion: number;
  format: SourceFormat;
  content: string;
}

/** The file of the sources folder `dir` that holds the cached copy of `url`. */
export function sourceCacheFile(dir: string, url: string): string {
  // Loaded when first needed: most commands on most knowledge bases never read a URL source.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return path.join(dir, `${createHash('sha256').update(url).digest('hex')}.json`);
}

/** The cached copy of `url` in the sources folder `dir`, or undefined when there is none (or it is damaged, or of another shape). */
export function readCachedSource(dir: string, url: string): CachedSource | undefined {
  try {
    const entry = JSON.parse(fs.readFileSync(sourceCacheFile(dir, url), 'utf8')) as Partial<CachedSource>;
    const valid =
      entry.version === CACHE_VERSION &&
      entry.url === url &&
      typeof entry.content === 'string' &&
      typeof entry.fetchedAt === 'string' &&
      (entry.format === 'markdown' || entry.format === 'text');
    return valid ? (entry as CachedSource) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes a cached copy in one rename, so a reader never sees half of it; returns it as stored. */
export function writeCachedSource(dir: string, fields: Omit<CachedSource, 'version'>): CachedSource {
  const entry: CachedSource = { version: CACHE_VERSION, ...fields };
  writeCacheFile(sourceCacheFile(dir, entry.url), JSON.stringify(entry, null, 1));
  return entry;
}

/** The document the knowledge base gets from a cached copy. */
export function documentOf(entry: CachedSource): SourceDocument {
  return { content: entry.content, format: entry.format, fetchedAt: entry.fetchedAt };
}
