/**
 * A site read on demand, for the development server and a host site's integration: the knowledge
 * base is read once, before the first page is served ({@link LiveSite.site}), and again as soon as
 * one of its files changes ({@link LiveSite.reread}); each subject is rendered when its page is
 * first shown. A read keeps the build cache's memo of tokens, summaries and headings by content
 * (as a build does), so that after an edit only the changed contents are tokenized and parsed
 * again, and a server started after a build or an earlier server reads little more than the files
 * (content/reference/cli/dev-and-preview.md). URL sources and LLM summaries come from the build
 * cache only: serving pages never goes to the network.
 */
import path from 'node:path';
import type { CatalogMemo, CatalogMemoEntry, CatalogSubject } from '../kb/catalog/catalog.ts';
import { readCachedDocuments } from '../url-sources/local-sources.ts';
import type { CacheFolder } from './cache-folder.ts';
import { loadCatalogMemo, saveCatalogMemo, type StoredCatalogMemo } from './catalog-memo.ts';
import { withCachedSummaries } from './llm-summaries.ts';
import { configOrError, loadSiteConfig } from './read-config.ts';
import type { RenderContext } from './render/markdown-plugins.ts';
import { createMarkdownRenderer, type MarkdownRenderer } from './render/markdown-renderer.ts';
import { renderContextOf, renderingDigest, renderingId, renderSubject, sharedDigestInput } from './render/render-subjects.ts';
import type { SubjectRendering } from './render/rendering-cache.ts';
import { failOnSiteErrors, prepareSiteData, type SiteData } from './site-data.ts';

/** Options of {@link openLiveSite}. */
export interface LiveSiteOptions {
  /** The config files, absolute. */
  configFiles: readonly string[];
  /** The build cache whose URL sources, LLM summaries and catalog memo the site reads. */
  cache: CacheFolder;
  /** The base path the site is served at, instead of `[site] base`. */
  base?: string | undefined;
  /** The folder messages name files relative to. */
  cwd: string;
}

/** A site read on demand; see the module comment. */
export interface LiveSite {
  /** The site data: of the read in progress, else of the last one. The first call starts the first read. */
  site(): Promise<SiteData>;
  rendering(id: string): Promise<SubjectRendering | undefined>;
  topicDescription(id: string): Promise<string>;
  highlight(code: string, language: string): Promise<string>;
  /**
   * Reads the knowledge base again, now (after an edit): pages asked for meanwhile wait for it.
   * Renderings of unchanged subjects are kept. Settles as the read does.
   */
  reread(): Promise<SiteData>;
  /** The files and folders whose change calls for {@link reread}: config files, topic folders, the cache's sources and summaries. */
  watched(): Promise<string[]>;
  /** The build cache folder the site reads. */
  cacheDir: string;
}

/** What one read of the knowledge base holds. */
interface Read {
  data: SiteData;
  shared: string;
  subjects: Map<string, CatalogSubject>;
}

/** Opens a live site; nothing is read until the site is first asked for. */
export function openLiveSite(options: LiveSiteOptions): LiveSite {
  let current: Promise<Read> | undefined;
  let latest: RenderContext | undefined;
  let renderer: Promise<MarkdownRenderer> | undefined;
  const renderings = new Map<string, { digest: string; rendering: Promise<SubjectRendering> }>();
  const descriptions = new Map<string, Promise<string>>();
  const memo = sessionMemo(options.cache.catalogMemo);
  let folders: string[] = [];

  const read = async (): Promise<Read> => {
    const config = configOrError(await loadSiteConfig(options.configFiles, options.cwd), options.cwd);
    const data = await prepareSiteData(config, {
      base: options.base,
      memo,
      sources: readCachedDocuments(config, options.cache.sources).documents,
      summarize: async (catalog) => withCachedSummaries(catalog, config.kb.summaries, options.cache.llmSummaries),
    });
    memo.save();
    // Watched even when the content has errors: saving the fix reads it again.
    folders = [...data.catalog.topics.map((t) => t.dir), options.cache.sources, options.cache.llmSummaries];
    failOnSiteErrors(data, options.cwd);
    const context = renderContextOf(data);
    latest = context;
    const subjects = new Map(data.catalog.topics.flatMap((t) => t.subjects.map((s) => [renderingId(s), s] as const)));
    return { data, shared: sharedDigestInput(context), subjects };
  };
  const load = (): Promise<Read> => (current ??= read());
  // The renderer reads the newest context at each use: links resolve against the newest read.
  const rendererOf = (): Promise<MarkdownRenderer> => (renderer ??= createMarkdownRenderer(() => latest!));

  return {
    cacheDir: options.cache.dir,
    site: async () => (await load()).data,
    async rendering(id) {
      const { shared, subjects } = await load();
      const subject = subjects.get(id);
      if (!subject) return undefined;
      const digest = renderingDigest(subject, shared);
      let held = renderings.get(id);
      if (held?.digest !== digest) {
        held = { digest, rendering: rendererOf().then((r) => renderSubject(subject, r)) };
        renderings.set(id, held);
      }
      return held.rendering;
    },
    async topicDescription(id) {
      const { data } = await load();
      const description = data.catalog.topics.find((t) => t.id === id)?.description ?? '';
      if (description === '') return '';
      const key = `${id}\0${description}`;
      let html = descriptions.get(key);
      if (!html) descriptions.set(key, (html = rendererOf().then(async (r) => (await r.render(description)).html)));
      return html;
    },
    async highlight(code, language) {
      await load();
      return (await rendererOf()).highlight(code, language);
    },
    async reread() {
      descriptions.clear();
      current = read();
      return (await current).data;
    },
    async watched() {
      const files = options.configFiles.map((f) => path.resolve(f));
      // A config that does not load yet: its files are what to watch (and the folders of the last
      // read that got as far as the content).
      await load().catch(() => undefined);
      return [...files, ...folders];
    },
  };
}

/** A catalog memo for the reads of one live site, saved to the build cache when a read added to it. */
interface SessionMemo extends CatalogMemo {
  /** Writes the memo file when this session computed something new; a cache that cannot be written is left as it is. */
  save(): void;
}

/**
 * The build cache's catalog memo (`file`), loaded at the first read, and what this session's
 * reads computed: a subject edited twice is found in the memo at its second read.
 */
function sessionMemo(file: string): SessionMemo {
  let stored: StoredCatalogMemo | undefined;
  const computed = new Map<string, CatalogMemoEntry>();
  let savedAt = 0;
  const storedMemo = (): StoredCatalogMemo => (stored ??= loadCatalogMemo(file));
  return {
    get: (key) => computed.get(key) ?? storedMemo().get(key),
    set(key, value) {
      computed.set(key, value);
      storedMemo().set(key, value);
    },
    save() {
      const memo = storedMemo();
      if (memo.stats.computed === savedAt) return;
      savedAt = memo.stats.computed;
      try {
        saveCatalogMemo(file, memo);
      } catch {
        // A read-only checkout: the next server computes the same again.
      }
    },
  };
}
