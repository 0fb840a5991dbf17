/**
 * Opening a knowledge base on this machine with its URL sources as the last build left them in the
 * cache (content/reference/configuration.md, "Everywhere else: the cache only"): every host but the
 * build (learn, prompt, schema, find, check, mcp, diff of a kb.toml, dev) opens it here, and none
 * of them goes to the network.
 */
import path from 'node:path';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import type { Diagnostic } from '../kb/diagnostics/diagnostics.ts';
import { type KnowledgeBase, openKnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { listTopicLinks } from '../kb/url-sources/links-file.ts';
import type { SourceDocument } from '../kb/url-sources/document.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { documentOf, readCachedSource } from './source-cache.ts';

/** The cached documents of every URL the config's `links.txt` files list, and the URLs with no copy yet. */
export interface CachedDocuments {
  documents: Map<string, SourceDocument>;
  /** A `source-not-fetched` warning for every listing of a URL that has no cached copy. */
  unfetched: Diagnostic[];
}

/**
 * Reads the cached copy of every URL listed by the enabled topics of `config`, from the sources
 * folder `dir` (default: that of the knowledge base's own build cache).
 */
export function readCachedDocuments(config: SyllabusConfig, dir: string = sourcesFolderOf(config)): CachedDocuments {
  const documents = new Map<string, SourceDocument>();
  const unfetched: Diagnostic[] = [];
  for (const listed of listTopicLinks(config)) {
    for (const link of listed.links) {
      const known = documents.get(link.url);
      const entry = known ? undefined : readCachedSource(dir, link.url);
      if (entry) documents.set(link.url, documentOf(entry));
      else if (!known) {
        unfetched.push({
          kind: 'warning',
          code: 'source-not-fetched',
          message: `${link.url} has not been fetched yet, so topic "${listed.topic}" has no subject for it. Run syllabus build: it fetches URL sources into ${path.dirname(dir)}, where every other command reads them.`,
          file: listed.file,
          line: link.line,
        });
      }
    }
  }
  return { documents, unfetched };
}

/** A knowledge base opened with its cached URL sources, and the URLs that have no copy yet. */
export interface LocalKnowledgeBase {
  kb: KnowledgeBase;
  unfetched: Diagnostic[];
}

/**
 * Opens the knowledge base of `config` with the URL sources cached in the sources folder `dir`
 * (default: that of the knowledge base's own build cache), without any network access.
 */
export function openLocalKnowledgeBase(config: SyllabusConfig, dir?: string): LocalKnowledgeBase {
  const { documents, unfetched } = readCachedDocuments(config, dir);
  return { kb: openKnowledgeBase(config, { sources: documents }), unfetched };
}

/** The sources folder of the build cache a knowledge base uses by default (beside its first config file). */
export function sourcesFolderOf(config: Pick<SyllabusConfig, 'files'>): string {
  return cacheFolder(defaultCacheDir(config.files[0]!)).sources;
}
