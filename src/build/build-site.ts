/**
 * `syllabus build` as one pipeline of stages, each a function over explicit inputs:
 *
 *   config → sources → catalog (and summaries) → checks → changes → plan → render → pages →
 *   output → search → record
 *
 * Pagefind starts with the plan and takes each page as it is made; the site's other files are
 * written while the pages are made, or, when only some pages changed, listed and written after
 * them while Pagefind writes the index. The config is read once; the cache folder is laid out by
 * cache-folder.ts alone; the pages stage (Astro) is given to the pipeline by its host, which keeps
 * the pipeline free of any framework.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkContent, loadContentChecks } from '../kb/checks/content.ts';
import { type Diagnostic, displayPath, formatDiagnostic, plural, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import { applySeverities } from '../kb/checks/severity.ts';
import type { KnowledgeDiff } from '../kb/diff/schema.ts';
import { changesBySubject } from '../kb/diff/published-changes.ts';
import { normalizeBase } from '../kb/publish/site-urls.ts';
import { describeFetchedSources, fetchSources } from '../url-sources/fetch-sources.ts';
import { BuildError } from './build-error.ts';
import { cacheFolder, defaultCacheDir, type CacheFolder } from './cache-folder.ts';
import { loadCatalogMemo, saveCatalogMemo } from './catalog-memo.ts';
import { staticFilesOfAsync, type ListingOptions } from './endpoints.ts';
import { type KeptCatalogThread, startCatalogThread } from './catalog-thread.ts';
import { summarizeCatalog, summaryPhaseText, type SummaryReport } from './llm-summaries.ts';
import { lockFolder } from './folder-lock.ts';
import { applyChanges, buildOutputProblem, replaceFolder } from './output-folder.ts';
import {
  buildFileKeys,
  buildPageKeys,
  changedKeys,
  sameSource,
  codeFingerprint,
  digestPage,
  digestPages,
  findUnstablePages,
  holdsBuild,
  planBuild,
  readBuildRecord,
  recordBuild,
  recordedDigests,
  unmarkBuild,
  unstablePagesWarning,
  type BuildManifest,
  type BuildPlan,
} from './plan.ts';
import { configOrError, loadSiteConfig } from './read-config.ts';
import type { MarkdownRenderer } from './render/markdown-renderer.ts';
import { renderContextOf, renderingId, renderTopicDescriptions, startRenderSubjects, type SubjectRenderings } from './render/render-subjects.ts';
import { openRenderingCache, type SubjectRendering } from './render/rendering-cache.ts';
import { searchKeysOf, searchShardsOf, startSearchIndex, type SearchIndexing } from './search-index.ts';
import { openSearchDocumentMemo } from './search-terms-memo.ts';
import { openContentCheckMemos } from './stored-memo.ts';
import { recordPart, sitePartOf, type SitePart } from './site-parts.ts';
import { failOnContentErrors, failOnSiteErrors, prepareSiteData, type SiteData } from './site-data.ts';
import { type StaticFile, writeStaticFiles, writeStaticFilesAsync } from './static-file.ts';

/** What the pages stage is given: the site to show, and where to build its pages. */
export interface PagesInput {
  /** The site, as the pages read it (see src/astro/site-state.ts). */
  site: {
    site(): Promise<SiteData>;
    rendering(id: string): Promise<SubjectRendering | undefined>;
    topicDescription(id: string): Promise<string>;
    highlight(code: string, language: string): Promise<string>;
    /** Called by every page as it is made: the build counts them. */
    pageShown(): void;
    /**
     * Called with every page once it is made: its URL path (base included) and its bytes, as
     * written. A promise it returns is awaited before the next page is made (the search index
     * catching up).
     */
    pageBuilt(url: string, html: Uint8Array): Promise<void> | undefined;
    /**
     * The pages are made in increasing rank of their URL path (base included), pages of equal
     * rank in the routes' order: the search shards one after the other, so that each shard's
     * index is written while the next one's pages are made.
     */
    pageRank(url: string): number;
  };
  /**
   * Work to do in the output folder while the pages are made: started once the pages stage has
   * prepared the folder, and finished before the stage returns.
   */
  beside: () => Promise<void>;
  data: SiteData;
  /** The key of Syllabus's code (its modules and packages): the same code and settings make the same pages from the same input. */
  codeKey: string;
  /** The folder to build the pages into. */
  outDir: string;
  cache: CacheFolder;
}

/** Reports what a build does, as it does it. */
export interface BuildReporter {
  /** A finished phase: its name and what it did (`read`, `1 topic, 37 subjects`), and how long it took. */
  phase(name: string, text: string, ms: number): void;
  /** Progress inside a long phase (`pages`, `search`): how many of how many are done. */
  progress(name: string, done: number, total: number): void;
  /**
   * The warnings of the knowledge base, once, before the phase lines: the content checks' too,
   * with `[check]`'s severities, sorted (content/reference/cli/build.md, "What it prints").
   */
  warnings(warnings: readonly Diagnostic[]): void;
  /** A warning found later in the build (pages that are not deterministic), with its place and its fix. */
  warning(text: string): void;
  /** The build waits, before it reads anything, for another that holds its cache. */
  waiting?(text: string): void;
}

/** Options of {@link buildSite}. */
export interface BuildOptions {
  /** The config files, as given (relative to `cwd`); later ones merge over earlier ones. */
  configFiles: readonly string[];
  /** The folder relative paths are resolved from and messages name files from. */
  cwd: string;
  /** The output folder (absolute). */
  outDir: string;
  /** The build cache (absolute); default: `.syllabus-cache/` beside the first config file. */
  cacheDir?: string | undefined;
  /** The environment: the LLM summaries' API key is read from it. */
  env: Readonly<Record<string, string | undefined>>;
  /** The User-Agent of URL source fetches. */
  userAgent: (siteUrl: string | undefined) => string;
  /** A preview (`build --base`): what changed since the base, given this build's site. */
  compare?: ((data: SiteData) => Promise<{ diff: KnowledgeDiff; label: string }>) | undefined;
  /** Pages per search index shard (default 1000). */
  searchShardPages?: number | undefined;
  /** The catalog's thread kept from one build to the next (`build --watch`); default: one for this build. */
  catalogThread?: KeptCatalogThread | undefined;
  /** Characters of subject content up to which the catalog's work runs in a thread of its own (default catalog-thread.ts `CATALOG_THREAD_CHARACTERS`). */
  catalogThreadCharacters?: number | undefined;
  /**
   * Build one part of the site: the pages and files of these topics' subjects, and everything
   * that is not a subject's own (src/build/site-parts.ts). Default: the whole site.
   */
  part?: readonly string[] | undefined;
  /** The pages stage: builds the HTML pages of the site into `input.outDir` (Astro). */
  pages: (input: PagesInput) => Promise<void>;
  /**
   * Work of the pages stage that needs no content (Astro compiling the pages), started once the
   * config is read, while the knowledge base is read; the pages stage is called once it has
   * settled. Its failure is not the build's: the pages stage then does that work itself. The
   * signal aborts when the build stops before its pages (content errors).
   */
  preparePages?: ((input: PagesPreparation, signal: AbortSignal) => Promise<void>) | undefined;
  reporter: BuildReporter;
}

/** The subjects' rendering under way, and what the pages read of it. */
interface Rendering {
  renderer: MarkdownRenderer;
  subjects: SubjectRenderings;
  descriptions: ReturnType<typeof renderTopicDescriptions>;
}

/** What {@link BuildOptions.preparePages} is given: what the pages' compiled code depends on. */
export interface PagesPreparation {
  /** The key of Syllabus's code, as {@link PagesInput.codeKey}. */
  codeKey: string;
  /** The base path the site is served at, as the site data's routes will have it. */
  base: string;
  /** `[site] url`, when set. */
  siteUrl: string | undefined;
  cache: CacheFolder;
}

/** What a build did. */
export interface BuildResult {
  outDir: string;
  /** The topics of the part built (`BuildOptions.part`), in the knowledge base's order; undefined for a whole site. */
  part?: string[] | undefined;
  mode: BuildPlan['mode'];
  counts: { topics: number; subjects: number; hidden: number; disabled: number; skipped: number; pages: number; rendered: number; indexed: number };
  /** Each warning, as `<file>:<line>: <message>`. */
  warnings: string[];
  /** Each phase with what it did and how long it took (ms). */
  phases: { name: string; text: string; ms: number }[];
  ms: number;
}

/** Builds the site of a knowledge base; throws a {@link BuildError} for configuration and content errors and failed stages. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  let started = performance.now();
  const phases: BuildResult['phases'] = [];
  let lapStart = started;
  /** Ends a phase: reports it, timed since the last one, less `excluded` ms (a phase inside it with a line of its own). */
  const phase = (name: string, text: string, excluded = 0): void => {
    const now = performance.now();
    const ms = now - lapStart - excluded;
    lapStart = now;
    phases.push({ name, text, ms });
    options.reporter.phase(name, text, ms);
  };
  const shown = (file: string): string => displayPath(file, options.cwd);

  // Configuration errors stop the build before anything is read.
  const loaded = await loadSiteConfig(options.configFiles, options.cwd);
  const config = configOrError(loaded, options.cwd);
  const firstConfig = config.files[0]!;
  const cache = cacheFolder(options.cacheDir ?? defaultCacheDir(firstConfig));
  // Nothing but a build's own output is ever replaced (content/reference/cli/build.md, "The output folder").
  const outputProblem = buildOutputProblem(config, options.outDir, cache.dir, options.cwd, shown);
  if (outputProblem) throw new BuildError(outputProblem, [], 'config');
  // One build at a time with one cache: another waits for it, instead of the two writing and
  // removing each other's files (content/reference/cli/build.md, "The build cache").
  fs.mkdirSync(cache.dir, { recursive: true });
  const releaseCache = await lockFolder(cache.dir, {
    lockPath: cache.buildLock,
    waiting: () => options.reporter.waiting?.(`another build with the cache ${shown(cache.dir)}/ is under way; this one starts when it ends`),
  });
  // The build's own time, without the wait.
  started = lapStart = performance.now();

  // Astro compiles the pages while the knowledge base is read: that needs the code and the
  // settings only (content/reference/decisions.md, "Pages compiled while the content is read").
  const stopPreparing = new AbortController();
  // Stops the subjects' rendering and the catalog's thread when the build stops before its pages.
  const stopThreads = new AbortController();
  let preparing: Promise<unknown> | undefined;
  try {
    const codeKey = codeFingerprint();
    // One status line at a time: the rendering's while the pages stage waits for it, then the pages'.
    let renderShown = false;
    preparing = options.preparePages?.({ codeKey, base: normalizeBase(config.site.base), siteUrl: config.site.url, cache }, stopPreparing.signal).catch(() => undefined);
    // The catalog's thread loads its modules and counts tokens while the knowledge base is read.
    const catalogThread = options.catalogThread?.start(stopThreads.signal) ?? startCatalogThread(stopThreads.signal);
    const memo = loadCatalogMemo(cache.catalogMemo);
    // [kb.summaries]: the model's summaries replace the extractive ones before pages and files are made.
    let summaries: SummaryReport | undefined;
    // URL sources first: the knowledge base opens with the documents they brought
    // (content/reference/cli/build.md, "URL sources").
    const sources = await fetchSources(config, { dir: cache.sources, userAgent: options.userAgent(config.site.url) });
    const sourcesMs = performance.now() - lapStart;
    lapStart = performance.now();
    const data = await prepareSiteData(config, {
      configDiagnostics: loaded.diagnostics,
      memo,
      countTokens: catalogThread.count,
      sources: sources.documents,
      summarize: async (catalog) => {
        if (!config.kb.summaries) return catalog;
        const done = await summarizeCatalog(catalog, config.kb.summaries, { file: cache.llmSummaries, env: options.env, nameOf: shown });
        summaries = done.report;
        return done.catalog;
      },
    });
    failOnSiteErrors(data, options.cwd);
    // The content checks and the site's indexes and llms texts are made in a thread of their own
    // meanwhile (content/reference/decisions.md, "The catalog's work in a thread of its own").
    const catalogWork = catalogThread.work(
      data,
      {
        checks: { root: path.dirname(firstConfig), nearDuplicateCode: config.check.near_duplicate_code },
        memos: { searchTerms: cache.searchTerms, wordSets: cache.wordSets, outlines: cache.outlines, codeKey },
      },
      options.catalogThreadCharacters,
    );
    // What the catalog memo holds is right whether or not this build goes on: saved now, not at the end.
    saveCatalogMemo(cache.catalogMemo, memo);
    const record = readBuildRecord(cache);
    const previous = record && holdsBuild(options.outDir, record) ? record : undefined;
    const below = data.routes.base.length - 1;
    // Pages outside the search index first, then each shard's in turn; the subjects are rendered
    // in the same order, so that a page seldom waits for its subject.
    const rankBy =
      (shardOf: (url: string) => number | undefined) =>
      (url: string): number =>
        (shardOf(url.slice(below)) ?? -1) + 1;
    // A build of the whole site with no build of it in the output folder makes every page: its
    // subjects start rendering now, in worker threads, while the checks run and the site's other
    // files are listed (content/reference/decisions.md, "Rendering from the start").
    let early: Rendering | undefined;
    if (!previous && !options.part) {
      early = await startRendering(undefined, rankBy(searchShardsOf(searchKeysOf(data), options.searchShardPages)));
    }

    // The build reports what `check` reports, the content checks' warnings too, and its own
    // (content/reference/diagnostics.md); a warning [check] makes an error stops it.
    let contentChecks: Promise<Diagnostic[]>;
    if (catalogWork) contentChecks = catalogWork.checks;
    else {
      await loadContentChecks();
      const checkMemos = openContentCheckMemos(cache, codeKey);
      contentChecks = Promise.resolve(checkContent(data.catalog, data.site, path.dirname(firstConfig), config.check, checkMemos));
      checkMemos.save();
    }
    const own: Diagnostic[] = (summaries?.warnings ?? []).map((message) => ({ kind: 'warning', code: 'summary-failed', message }));
    // Without [site] url, links stay relative and there is no sitemap; the build says so
    // (content/reference/configuration.md, "[site]").
    if (!data.site.url)
      own.push({
        kind: 'warning',
        code: 'no-site-url',
        message: `[site] url is not set, so no sitemap.xml is written. Set it to the site's public address (e.g. url = "https://kb.example.com").`,
        file: firstConfig,
      });
    const counts = countSubjects(data);
    const warnings: string[] = [];
    let reported: Promise<void> | undefined;
    /**
     * Reports the diagnostics and the reading phases once the content checks are in, and stops the
     * build on content errors. Started at once, it reports them as soon as they are in; awaited
     * before the output folder changes, and before a preview's changes are compared (whose phase
     * comes after reading's) or a part is found.
     */
    const reportChecks = (): Promise<void> =>
      (reported ??= contentChecks.then((content) => {
        const checked = sortDiagnostics(applySeverities([...data.diagnostics, ...content, ...sources.diagnostics, ...own], config.check));
        failOnContentErrors(checked, options.cwd);
        options.reporter.warnings(checked);
        warnings.push(...checked.map((d) => formatDiagnostic(d, options.cwd)));
        if (sources.counts.urls > 0) {
          phases.push({ name: 'sources', text: describeFetchedSources(sources.counts), ms: sourcesMs });
          options.reporter.phase('sources', describeFetchedSources(sources.counts), sourcesMs);
        }
        phase('read', `${plural(counts.topics, 'topic')}, ${plural(counts.subjects, 'subject')}`, summaries?.ms ?? 0);
        if (summaries) {
          phases.push({ name: 'summaries', text: summaryPhaseText(summaries), ms: summaries.ms });
          options.reporter.phase('summaries', summaryPhaseText(summaries), summaries.ms);
        }
      }));
    // Content errors stop the rendering and the catalog's thread at once; the build stops where it next awaits the report.
    reportChecks().catch((error: unknown) => stopThreads.abort(error));

    if (options.compare) {
      await reportChecks();
      const { diff, label } = await options.compare(data);
      data.changes = { diff, bySubject: changesBySubject(diff) };
      const { summary } = diff;
      const evals = diff.evals;
      const questions = evals
        ? `; questions: hit@3 ${evals.totals.base.hitAt3.toFixed(2)} → ${evals.totals.head.hitAt3.toFixed(2)}, MRR ${evals.totals.base.mrr.toFixed(2)} → ${evals.totals.head.mrr.toFixed(2)}, ${evals.regressions.length === 0 ? 'none' : evals.regressions.length} regressed`
        : '';
      phase(
        'changes',
        `${diff.equal ? 'no changes' : `${summary.added} added, ${summary.removed} removed, ${summary.changed} changed, ${summary.moved} moved`} against ${label}${questions}`,
      );
    }

    let part: SitePart | undefined;
    if (options.part) {
      // A part that names unknown topics is refused after what was read is reported, as always.
      await reportChecks();
      const found = sitePartOf(data, options.part);
      if (!found.ok) throw new BuildError(found.message, [], 'config');
      part = found.part;
    }
    const pageKeys = buildPageKeys(data, codeKey);
    // A part's manifest and search hold its own subjects only: the rest is another part's.
    for (const url of part?.foreignPages ?? []) delete pageKeys.pages[url];
    // Pagefind (a process of its own) starts now on the unchanged pages of the shards to index
    // again, while this process goes on; it then takes each new page as it is made.
    const kept = previous && sameSource(previous.manifest, pageKeys) ? previous : undefined;
    const pagesChanged = kept ? changedKeys(kept.manifest.pages, pageKeys.pages) : undefined;
    let searchProgress = false;
    const indexing = await startSearchIndex({
      dir: options.outDir,
      keys: searchKeysOf(data, part?.foreignPages),
      shardPrefix: part?.shardPrefix,
      previous: kept?.search,
      pending: pagesChanged ? new Set([...pagesChanged].map((url) => url.slice(below))) : 'all',
      perShard: options.searchShardPages,
      staging: cache.searchStaging,
      onPage: (done, all) => {
        if (searchProgress) options.reporter.progress('search', done, all);
      },
    });
    const result: BuildResult = {
      outDir: options.outDir,
      part: part?.record.topics,
      mode: 'full',
      counts: { ...counts, pages: 0, rendered: 0, indexed: 0 },
      warnings,
      phases,
      ms: 0,
    };
    try {
      const pagesRemoved = kept ? Object.keys(kept.manifest.pages).filter((url) => !(url in pageKeys.pages)) : [];
      if (pagesChanged && pagesChanged.size + pagesRemoved.length > 0) {
        // Pages changed: the site's other files are listed once they are made, while Pagefind writes
        // the index (content/reference/decisions.md, "Files after the pages").
        result.mode = 'incremental';
        await buildPages({ mode: 'incremental', pages: pagesChanged, removedPages: pagesRemoved, files: new Set(), removedFiles: [] }, pageKeys, undefined);
      } else {
        await reportChecks();
        const staticFiles = await listFiles();
        const manifest: BuildManifest = { ...pageKeys, files: buildFileKeys(staticFiles) };
        const plan = planBuild(previous?.manifest, manifest);
        result.mode = plan.mode;
        if (plan.mode === 'none') {
          await indexing.abort();
          phase('pages', `nothing changed since the last build of ${shown(options.outDir)}/`);
        } else {
          await buildPages(plan, pageKeys, { staticFiles, manifest });
        }
      }
    } catch (error) {
      await indexing.abort();
      // Pages made before the build stopped (content errors found while they were made) go with it.
      fs.rmSync(cache.staging, { recursive: true, force: true });
      throw error;
    }

    /**
     * Starts rendering the subjects (the `needed` ones; default all) in the order of their pages'
     * rank, and the topics' descriptions. Its progress is shown once the pages stage has started,
     * until the first page is made.
     */
    async function startRendering(needed: ReadonlySet<string> | undefined, pageRank: (url: string) => number): Promise<Rendering> {
      const context = renderContextOf(data);
      // Loaded only by a build that renders: the renderer's modules (Sätteri, Shiki, KaTeX) are a
      // tenth of a second of a rebuild in which nothing changed.
      const { createMarkdownRenderer } = await import('./render/markdown-renderer.ts');
      const renderer = await createMarkdownRenderer(() => context);
      const subjectRank = new Map(data.routes.subjects.map((r) => [renderingId(r.subject), pageRank(r.url)]));
      const subjects = startRenderSubjects(data, {
        renderer,
        context,
        cache: openRenderingCache(cache.renderings),
        needed,
        rank: (subject) => subjectRank.get(renderingId(subject)) ?? 0,
        signal: stopThreads.signal,
        onRendered: (done, total) => {
          if (renderShown) options.reporter.progress('render', done, total);
        },
      });
      // Asked for by the pages; a failure meanwhile (the build stopping first) must not go unhandled.
      subjects.done.catch(() => undefined);
      const descriptions = renderTopicDescriptions(data, renderer);
      descriptions.catch(() => undefined);
      return { renderer, subjects, descriptions };
    }

    /**
     * The site's other files (the part's, when building a part), listed with the cache's memo of
     * search terms, which is saved once they are listed.
     */
    async function listFiles(made?: ListingOptions['made']): Promise<StaticFile[]> {
      const texts = await catalogWork?.texts;
      // The thread that made the texts used and saved the memo.
      const searchMemo = texts ? undefined : openSearchDocumentMemo(cache.searchTerms, codeKey);
      const files = await staticFilesOfAsync(data, { searchMemo, made, texts });
      searchMemo?.save();
      return part ? files.filter((f) => !part.foreignFiles.has(f.path)) : files;
    }

    /**
     * The pages stage and what follows it: the output folder, the search index, the build record.
     * `listed` holds the site's other files when they were listed to plan the build (they are then
     * written while the pages are made); else they are listed once the pages are made.
     */
    async function buildPages(
      plan: Exclude<BuildPlan, { mode: 'none' }>,
      pageKeys: Omit<BuildManifest, 'files'>,
      listed: { staticFiles: StaticFile[]; manifest: BuildManifest } | undefined,
    ): Promise<void> {
      if (plan.mode === 'incremental') data.only = { pages: plan.pages, files: plan.files };
      else if (part) data.only = { pages: new Set(Object.keys(pageKeys.pages)), files: new Set(Object.keys(listed!.manifest.files)) };
      const staging = cache.staging;
      fs.rmSync(staging, { recursive: true, force: true });

      const pageRank = rankBy((url) => indexing.shardOf(url));
      const needed = data.only ? new Set(data.routes.subjects.filter((r) => data.only!.pages.has(r.url)).map((r) => renderingId(r.subject))) : undefined;
      // The pages are made while the subjects are rendered: Astro starts, and each subject's page
      // waits for its own rendering only (content/reference/decisions.md, "Pages while subjects render").
      const { renderer, subjects, descriptions } = early ?? (await startRendering(needed, pageRank));
      renderShown = true;

      const total = plan.mode === 'incremental' ? plan.pages.size : countPages(data) - (part?.foreignPages.size ?? 0);
      let shownPages = 0;
      const digests: Record<string, string> = {};
      await preparing;
      const pagesMade = options.pages({
        site: {
          site: async () => data,
          rendering: (id) => subjects.get(id),
          topicDescription: async (id) => (await descriptions).get(id) ?? '',
          highlight: (code, language) => renderer.highlight(code, language),
          pageShown: () => {
            renderShown = false;
            options.reporter.progress('pages', Math.min(++shownPages, total), total);
          },
          pageBuilt: (url, html) => {
            if (url in pageKeys.pages) digests[url] = digestPage(html);
            return indexing.pageBuilt(url.slice(below), html);
          },
          pageRank,
        },
        data,
        codeKey,
        outDir: staging,
        cache,
        // The site's other files, when listed already, are written while the pages are made.
        beside: async () => {
          if (listed) await writeStaticFilesAsync(staging, data.only ? listed.staticFiles.filter((f) => data.only!.files.has(f.path)) : listed.staticFiles);
        },
      });
      const [rendered, paged, described] = await Promise.allSettled([subjects.done, pagesMade, descriptions]);
      // Content errors found meanwhile stop the build here, before its output folder changes.
      await reportChecks();
      // A subject or a description that failed to render fails the pages that wait for it: its own failure says more.
      if (rendered.status === 'rejected') throw rendered.reason;
      if (described.status === 'rejected') throw described.reason;
      if (paged.status === 'rejected') {
        const error: unknown = paged.reason;
        if (error instanceof BuildError) throw error;
        throw new BuildError(`the site build failed: ${(error as Error).message}`);
      }
      const stats = rendered.value;
      // The output folder changes from here on: first, it no longer claims to hold the last build.
      unmarkBuild(options.outDir);
      let manifest: BuildManifest;
      let removedFiles: string[];
      let searching: ReturnType<SearchIndexing['finish']> | undefined;
      if (listed) {
        manifest = listed.manifest;
        removedFiles = plan.mode === 'incremental' ? plan.removedFiles : [];
      } else {
        // Pagefind writes the index of the changed shards while the other files are listed and the
        // changed ones written (content/reference/decisions.md, "Files after the pages").
        searching = indexing.finish();
        // Awaited once the files are written; a failure meanwhile must not go unhandled.
        searching.catch(() => undefined);
        const last = kept!.manifest.files;
        // The texts made to key them are written as they are made, when they changed.
        const written = new Set<string>();
        const staticFiles = await listFiles((file, key, bytes) => {
          if (last[file] === key || part?.foreignFiles.has(file)) return;
          writeStaticFiles(staging, [{ path: file, body: { bytes } }]);
          written.add(file);
        });
        manifest = { ...pageKeys, files: buildFileKeys(staticFiles) };
        const changed = changedKeys(last, manifest.files);
        removedFiles = Object.keys(last).filter((file) => !(file in manifest.files));
        await writeStaticFilesAsync(
          staging,
          staticFiles.filter((f) => changed.has(f.path) && !written.has(f.path)),
        );
      }
      // A page made again from the input the cache recorded must come out the same (content/reference/decisions.md, "Deterministic builds").
      // Pages come to `pageBuilt` as they are made; any other is read from the folder.
      const madeUrls = plan.mode === 'incremental' ? plan.pages : Object.keys(pageKeys.pages);
      Object.assign(
        digests,
        digestPages(
          staging,
          data.routes.base,
          [...madeUrls].filter((url) => !(url in digests)),
        ),
      );
      const unstable = findUnstablePages(record, pageKeys, digests);
      const built =
        plan.mode === 'incremental'
          ? `${plan.pages.size} pages changed, ${plan.removedPages.length} removed`
          : `${total} pages${part ? ` of the part ${part.record.topics.join(', ')}` : ''}`;
      // Another part's subjects (one page each) are neither rendered nor unchanged here.
      phase('pages', `${built}; ${plural(stats.rendered, 'subject')} rendered, ${stats.unchanged - (part?.foreignPages.size ?? 0)} unchanged`);
      if (unstable.length > 0) {
        const warning = unstablePagesWarning(shown(options.outDir), unstable);
        warnings.push(warning);
        options.reporter.warning(warning);
      }
      result.counts.pages = total;
      result.counts.rendered = stats.rendered;

      let cleanup: Promise<void> = Promise.resolve();
      if (plan.mode === 'full') {
        unmarkBuild(staging);
        cleanup = replaceFolder(staging, options.outDir);
      } else applyChanges(staging, options.outDir, data.routes.base, plan.removedPages, removedFiles);
      searchProgress = true;
      const search = await (searching ?? indexing.finish());
      await Promise.all([cleanup, search.cleanup]);
      phase('search', `${search.pages} pages indexed, ${search.written} of ${plural(search.manifest.shards, 'shard')} written`);
      result.counts.indexed = search.pages;
      recordPart(options.outDir, part);
      recordBuild(cache, options.outDir, {
        manifest,
        search: search.manifest,
        pageDigests: recordedDigests(manifest, digests, plan.mode === 'incremental' ? previous : undefined),
      });
    }
    // The catalog's thread saves its memos before the build is done.
    await catalogWork?.ended;
    result.ms = performance.now() - started;
    return result;
  } finally {
    // A build that stops early (content errors) stops the compile and the rendering, and waits for the compile to be gone.
    stopPreparing.abort();
    stopThreads.abort();
    await preparing;
    await releaseCache();
  }
}

function countSubjects(data: SiteData): Pick<BuildResult['counts'], 'topics' | 'subjects' | 'hidden' | 'disabled' | 'skipped'> {
  const subjects = data.catalog.topics.flatMap((t) => t.subjects);
  return {
    topics: data.catalog.topics.length,
    subjects: subjects.length,
    hidden: subjects.filter((s) => s.hidden).length,
    disabled: data.kb.topics().reduce((sum, t) => sum + t.disabledCount, 0),
    skipped: subjects.filter((s) => s.skipped !== null).length,
  };
}

/** The HTML pages of a full build: home, search and 404, then the topics and the subjects. */
function countPages(data: SiteData): number {
  return 3 + data.routes.topics.length + data.routes.subjects.length;
}
