/**
 * The site's data: the catalog of the knowledge base and every page's data, computed once per
 * build from a loaded config. The pages, the endpoints, the search index and the incremental
 * build plan all read it.
 */
import path from 'node:path';
import { type Catalog, type CatalogMemo, type CatalogSubject, buildCatalog } from '../kb/catalog/catalog.ts';
import type { TokenCounter } from '../kb/catalog/tokens.ts';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import type { SiteConfig } from '../kb/config/schema.ts';
import { resolveSiteFiles, type SiteFile } from '../kb/config/site-files.ts';
import { type Diagnostic, formatDiagnostic, hasConfigErrors, hasContentErrors, plural, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import { applySeverities } from '../kb/checks/severity.ts';
import type { KnowledgeDiff } from '../kb/diff/schema.ts';
import { type KnowledgeBase, openKnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import type { LinkTopic } from '../kb/subjects/relative-links.ts';
import type { SubjectChange } from '../kb/diff/published-changes.ts';
import { normalizeBase, siteUrl } from '../kb/publish/site-urls.ts';
import type { SourceDocuments } from '../kb/url-sources/document.ts';
import { readCachedDocuments } from '../url-sources/local-sources.ts';
import { CLIENT_SCRIPTS, clientScripts } from './client-scripts.ts';
import { contentAssetPaths, type ContentAssetPaths } from './content-assets.ts';
import { readFileHistory } from './git-history.ts';
import { BuildError } from './build-error.ts';
import { configOrError, loadSiteConfig } from './read-config.ts';
import { buildSiteRoutes, type SiteRoutes } from './route-data.ts';
import type { StaticFile } from './static-file.ts';

/** What every page and every file of the site is made from. */
export interface SiteData {
  /** `[site]`, with `base` as the site is served (a host site's integration may set another). */
  site: SiteConfig;
  kb: KnowledgeBase;
  catalog: Catalog;
  routes: SiteRoutes;
  /** Every diagnostic of the knowledge base, sorted, with `[check]`'s severities: the config's, the walk's and the catalog's. */
  diagnostics: Diagnostic[];
  /** Topics as relative links resolve them. */
  linkTopics: LinkTopic[];
  /** Subjects by absolute file path. */
  byFile: Map<string, CatalogSubject>;
  /** The published file URL (`/raw/…`) of subjects shown as images or downloads, by absolute file path. */
  rawUrls: Map<string, string>;
  /** `[site] logo` and `favicon`, checked: copied into the site at their `sitePath`. */
  siteFiles: SiteFile[];
  /** The URLs of the site's browser scripts (see client-scripts.ts). */
  scripts: Record<keyof typeof CLIENT_SCRIPTS, string>;
  /** The URLs of the libraries pages with math or diagrams load (see content-assets.ts). */
  assets: ContentAssetPaths;
  /** The site's non-page files, once listed (see `staticFilesOf`). */
  staticFiles?: StaticFile[];
  /** With `build --base`: what the preview changes of listed subjects, for the /changes/ page and the banners. */
  changes?: { diff: KnowledgeDiff; bySubject: Map<string, SubjectChange> };
  /** In an incremental build, the only page URLs and static file paths to build; else undefined. */
  only?: { pages: Set<string>; files: Set<string> };
}

/** Options of {@link prepareSiteData}. */
export interface PrepareOptions {
  /** Warnings found while loading the config: kept with the knowledge base's own. */
  configDiagnostics?: readonly Diagnostic[];
  /** Tokens, summaries and headings computed before, by content (the cache's memo). */
  memo?: CatalogMemo;
  /** Counts tokens, maybe in another thread (the catalog's, catalog-thread.ts). Default: in this one. */
  countTokens?: TokenCounter;
  /**
   * The documents of URL sources, as the build fetched them. Default: the copies the last build
   * left in the knowledge base's cache; nothing is fetched.
   */
  sources?: SourceDocuments;
  /**
   * Replaces the catalog's summaries (LLM summaries, `[kb.summaries]`) before anything is computed
   * from them: routes, page descriptions, endpoints. Not called when the knowledge base has
   * content errors (the build stops anyway).
   */
  summarize?: (catalog: Catalog, config: SyllabusConfig) => Promise<Catalog>;
  /** The base path the site is served at, instead of `[site] base` (a host site's integration). */
  base?: string | undefined;
}

/** Computes the site data of the knowledge base of `config`. */
export async function prepareSiteData(config: SyllabusConfig, options: PrepareOptions = {}): Promise<SiteData> {
  const site: SiteConfig = options.base === undefined ? config.site : { ...config.site, base: normalizeBase(options.base) };
  const kb = openKnowledgeBase(config, { sources: options.sources ?? readCachedDocuments(config).documents });
  const built = await buildCatalog(kb, { memo: options.memo, countTokens: options.countTokens });
  const siteFiles = resolveSiteFiles(config);
  const diagnostics = sortDiagnostics(applySeverities([...(options.configDiagnostics ?? []), ...siteFiles.diagnostics, ...kb.diagnostics(), ...built.diagnostics], config.check));
  const catalog = options.summarize && !hasContentErrors(diagnostics) ? await options.summarize(built.catalog, config) : built.catalog;
  const sourceRoot = path.dirname(path.resolve(config.files[0]!));
  const history = readFileHistory(
    sourceRoot,
    catalog.topics.map((t) => t.dir),
  );
  const routes = buildSiteRoutes(catalog, site, history, sourceRoot);
  const byFile = new Map(catalog.topics.flatMap((t) => t.subjects.map((s) => [s.file, s] as const)));
  return {
    site,
    kb,
    catalog,
    routes,
    diagnostics,
    linkTopics: catalog.topics.map((t) => ({ id: t.id, dir: t.dir })),
    byFile,
    siteFiles: siteFiles.files,
    rawUrls: new Map(routes.subjects.filter((r) => r.rawUrl !== null).map((r) => [r.subject.file, r.rawUrl!])),
    scripts: Object.fromEntries(Object.entries(clientScripts()).map(([name, script]) => [name, siteUrl(routes.base, script.path)])) as SiteData['scripts'],
    assets: { katexStylesheet: siteUrl(routes.base, contentAssetPaths().katexStylesheet), mermaid: siteUrl(routes.base, contentAssetPaths().mermaid) },
  };
}

/**
 * The site data of the knowledge base whose config files are `configFiles` (relative to `cwd`),
 * its URL sources as last cached; configuration errors throw a `BuildError`.
 */
export async function readSiteData(configFiles: readonly string[], cwd: string): Promise<SiteData> {
  const loaded = await loadSiteConfig(configFiles, cwd);
  return prepareSiteData(configOrError(loaded, cwd), { configDiagnostics: loaded.diagnostics });
}

/**
 * Throws the `BuildError` of what stops a site: a configuration error found while opening the
 * knowledge base (a topic folder that leaves its config's folder), or content errors, each with
 * its file and line relative to `cwd`.
 */
export function failOnSiteErrors(data: SiteData, cwd: string): void {
  if (hasConfigErrors(data.diagnostics)) configOrError({ config: undefined, diagnostics: data.diagnostics }, cwd);
  failOnContentErrors(data.diagnostics, cwd);
}

/**
 * Throws the `BuildError` of content errors among `diagnostics`, each with its file and line
 * relative to `cwd`: those of the files, and warnings `[check]` makes errors.
 */
export function failOnContentErrors(diagnostics: readonly Diagnostic[], cwd: string): void {
  if (!hasContentErrors(diagnostics)) return;
  const errors = diagnostics.filter((d) => d.kind === 'content-error').map((d) => formatDiagnostic(d, cwd));
  throw new BuildError(`the knowledge base has ${plural(errors.length, 'content error')}; nothing was built.`, errors, 'content');
}
