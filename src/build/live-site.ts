/**
 * A site read on demand, for the development server and a host site's integration: the knowledge
 * base is read when a page first asks for it and again after an edit ({@link LiveSite.reset}),
 * and each subject is rendered when its page is first shown. URL sources and LLM summaries come
 * from the build cache only: serving pages never goes to the network.
 */
import path from 'node:path';
import type { CatalogSubject } from '../kb/catalog/catalog.ts';
import { readCachedDocuments } from '../url-sources/local-sources.ts';
import type { CacheFolder } from './cache-folder.ts';
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
  /** The build cache whose URL sources and LLM summaries the site shows. */
  cache: CacheFolder;
  /** The base path the site is served at, instead of `[site] base`. */
  base?: string | undefined;
  /** The folder messages name files relative to. */
  cwd: string;
}

/** A site read on demand; see the module comment. */
export interface LiveSite {
  site(): Promise<SiteData>;
  rendering(id: string): Promise<SubjectRendering | undefined>;
  topicDescription(id: string): Promise<string>;
  highlight(code: string, language: string): Promise<string>;
  /** Forgets the site data: the next page reads the knowledge base again. Renderings of unchanged subjects are kept. */
  reset(): void;
  /** The files and folders whose change calls for {@link reset}: config files, topic folders, the cache's sources and summaries. */
  watched(): Promise<string[]>;
  /** The build cache folder the site reads. */
  cacheDir: string;
}

/** Opens a live site; nothing is read until a page asks. */
export function openLiveSite(options: LiveSiteOptions): LiveSite {
  let current: Promise<{ data: SiteData; shared: string; subjects: Map<string, CatalogSubject> }> | undefined;
  let context: RenderContext | undefined;
  let renderer: Promise<MarkdownRenderer> | undefined;
  const renderings = new Map<string, { digest: string; rendering: Promise<SubjectRendering> }>();
  const descriptions = new Map<string, Promise<string>>();

  const load = () => {
    current ??= (async () => {
      const config = configOrError(await loadSiteConfig(options.configFiles, options.cwd), options.cwd);
      const data = await prepareSiteData(config, {
        base: options.base,
        sources: readCachedDocuments(config, options.cache.sources).documents,
        summarize: async (catalog) => withCachedSummaries(catalog, config.kb.summaries, options.cache.llmSummaries),
      });
      failOnSiteErrors(data, options.cwd);
      context = renderContextOf(data);
      const subjects = new Map(data.catalog.topics.flatMap((t) => t.subjects.map((s) => [renderingId(s), s] as const)));
      return { data, shared: sharedDigestInput(context), subjects };
    })();
    return current;
  };
  const rendererOf = (): Promise<MarkdownRenderer> => (renderer ??= createMarkdownRenderer(() => context!));

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
    reset() {
      current = undefined;
      descriptions.clear();
    },
    async watched() {
      const files = options.configFiles.map((f) => path.resolve(f));
      try {
        const { data } = await load();
        return [...files, ...data.catalog.topics.map((t) => t.dir), options.cache.sources, options.cache.llmSummaries];
      } catch {
        // A config that does not load yet: its files are what to watch.
        return files;
      }
    },
  };
}
