/**
 * Opening a knowledge base on this machine with its URL sources as the last build left them in
 * the cache (SPEC 8): every host but the build (learn, prompt, schema, find, check, mcp, diff of
 * a kb.toml, dev) opens it here, and none of them goes to the network.
 */
import path from 'node:path';
import { listTopicLinks, openKnowledgeBase, type Diagnostic, type KnowledgeBase, type SourceDocument, type SyllabusConfig } from '../kb/index.ts';
import { documentOf, readCachedSource } from './source-cache.ts';

/** The build cache a knowledge base uses by default: `.syllabus-cache/` beside its first config file (SPEC 5). */
export function defaultCacheDir(config: Pick<SyllabusConfig, 'files'>): string {
  return path.join(path.dirname(path.resolve(config.files[0]!)), '.syllabus-cache');
}

/** The cached documents of every URL the config's `links.txt` files list, and the URLs with no copy yet. */
export interface CachedDocuments {
  documents: Map<string, SourceDocument>;
  /** A `source-not-fetched` warning for every listing of a URL that has no cached copy. */
  unfetched: Diagnostic[];
}

/** Reads the cached copy of every URL listed by the enabled topics of `config`, from `cacheDir`. */
export function readCachedDocuments(config: SyllabusConfig, cacheDir: string = defaultCacheDir(config)): CachedDocuments {
  const documents = new Map<string, SourceDocument>();
  const unfetched: Diagnostic[] = [];
  for (const listed of listTopicLinks(config)) {
    for (const link of listed.links) {
      const known = documents.get(link.url);
      const entry = known ? undefined : readCachedSource(cacheDir, link.url);
      if (entry) documents.set(link.url, documentOf(entry));
      else if (!known) {
        unfetched.push({
          kind: 'warning',
          code: 'source-not-fetched',
          message: `${link.url} has not been fetched yet, so topic "${listed.topic}" has no subject for it. Run syllabus build: it fetches URL sources into ${cacheDir}, where every other command reads them.`,
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
 * Opens the knowledge base of `config` with the URL sources cached in `cacheDir` (default: the
 * knowledge base's own build cache), without any network access.
 */
export function openLocalKnowledgeBase(config: SyllabusConfig, cacheDir?: string): LocalKnowledgeBase {
  const { documents, unfetched } = readCachedDocuments(config, cacheDir);
  return { kb: openKnowledgeBase(config, { sources: documents }), unfetched };
}
