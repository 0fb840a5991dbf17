/**
 * The site's data, computed once per build from the knowledge base; `site-data-access.ts` shares
 * it with everything that runs in the build's process.
 */
import path from 'node:path';
import {
  buildCatalog,
  hasConfigErrors,
  hasContentErrors,
  loadConfig,
  openKnowledgeBase,
  readConfigFiles,
  sortDiagnostics,
  type Catalog,
  type CatalogMemo,
  type CatalogSubject,
  type Diagnostic,
  type KnowledgeBase,
  type KnowledgeDiff,
  type LinkTopic,
  type SiteConfig,
  type SourceDocuments,
  type SubjectChange,
  type SyllabusConfig,
} from '../kb/index.ts';
import { readCachedDocuments } from '../sources/local-sources.ts';
import { readFileHistory } from './git-history.ts';
import { buildSiteRoutes, type SiteRoutes } from './route-data.ts';
import type { StaticFile } from './static-file.ts';

/** What every page, the content loader and the markdown plugins read. */
export interface SiteData {
  site: SiteConfig;
  kb: KnowledgeBase;
  catalog: Catalog;
  routes: SiteRoutes;
  /** Every diagnostic of the knowledge base, sorted. */
  diagnostics: Diagnostic[];
  /** Topics as relative links resolve them. */
  linkTopics: LinkTopic[];
  /** Subjects by absolute file path. */
  byFile: Map<string, CatalogSubject>;
  /** The published file URL (`/raw/…`) of subjects shown as images or downloads, by absolute file path. */
  rawUrls: Map<string, string>;
  /** What the content loader did in this build (rendered anew, or kept from the cache). */
  renderStats: { rendered: number; unchanged: number; dropped: number };
  /** The site's non-page files, once listed (see `staticFilesOf`). */
  staticFiles?: StaticFile[];
  /** With `build --base`: what the preview changes of listed subjects, for the /changes/ page and the banners. */
  changes?: { diff: KnowledgeDiff; bySubject: Map<string, SubjectChange> };
  /** Files and folders besides the knowledge base whose change makes the dev server reload (see `PrepareOptions.watch`). */
  watch: string[];
  /** In an incremental build, the only page URLs and static file paths to build; else undefined. */
  only?: { pages: Set<string>; files: Set<string> };
}

/** Options of {@link prepareSiteData}. */
export interface PrepareOptions {
  /**
   * Replaces the catalog's summaries (LLM summaries, `[kb.summaries]`) before anything is computed
   * from them: routes, page descriptions, endpoints. Not called when the knowledge base has
   * content errors (the build stops anyway).
   */
  summarize?: (catalog: Catalog, config: SyllabusConfig) => Promise<Catalog>;
  /**
   * The documents of URL sources, as the build fetched them. Default: the copies the last build
   * left in the cache beside the first config file (`syllabus dev`, `astro dev`); nothing is fetched.
   */
  sources?: SourceDocuments;
  /** Files and folders of a build cache the data was read from: the dev server reloads when a build rewrites them. */
  watch?: string[];
}

/**
 * Computes the site data of the knowledge base named by `configFiles` (absolute paths); `memo`
 * gives the catalog what it computed for unchanged contents before.
 */
export async function prepareSiteData(configFiles: string[], memo?: CatalogMemo, options: PrepareOptions = {}): Promise<SiteData> {
  const read = readConfigFiles(configFiles, process.cwd());
  const loaded = loadConfig(read.sources);
  const configDiagnostics = [...read.diagnostics, ...loaded.diagnostics];
  if (!loaded.config || hasConfigErrors(configDiagnostics)) {
    throw new Error(`Syllabus: the configuration has errors; run "syllabus check" to see them (${configFiles.join(', ')}).`);
  }
  const kb = openKnowledgeBase(loaded.config, { sources: options.sources ?? readCachedDocuments(loaded.config).documents });
  const built = await buildCatalog(kb, { memo });
  const all = sortDiagnostics([...configDiagnostics, ...kb.diagnostics(), ...built.diagnostics]);
  const catalog = options.summarize && !hasContentErrors(all) ? await options.summarize(built.catalog, loaded.config) : built.catalog;
  const sourceRoot = path.dirname(configFiles[0]!);
  const history = readFileHistory(sourceRoot, catalog.topics.map((t) => t.dir));
  const routes = buildSiteRoutes(catalog, loaded.config.site, history, sourceRoot);
  const byFile = new Map(catalog.topics.flatMap((t) => t.subjects.map((s) => [s.file, s] as const)));
  return {
    site: loaded.config.site,
    kb,
    catalog,
    routes,
    diagnostics: all,
    linkTopics: catalog.topics.map((t) => ({ id: t.id, dir: t.dir })),
    byFile,
    rawUrls: new Map(routes.subjects.filter((r) => r.rawUrl !== null).map((r) => [r.subject.file, r.rawUrl!])),
    watch: options.watch ?? [],
    renderStats: { rendered: 0, unchanged: 0, dropped: 0 },
  };
}
