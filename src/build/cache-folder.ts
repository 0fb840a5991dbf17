/**
 * The build cache: one folder (`.syllabus-cache/` beside the first config file by default, or
 * `build --cache DIR`) whose layout only this module knows. Everything in it can be deleted at any
 * time: the next build makes it again, only slower.
 */
import path from 'node:path';
import { CACHE_FOLDER_NAME } from '../kb/files/paths.ts';

/** The places inside one build cache. */
export interface CacheFolder {
  /** The folder itself (absolute). */
  dir: string;
  /** Tokens, summaries and headings by content (see catalog-memo.ts). */
  catalogMemo: string;
  /** The language model's summaries by content (see llm-summaries.ts). */
  llmSummaries: string;
  /** Subjects' search documents (see search-terms-memo.ts). */
  searchTerms: string;
  /** The near-duplicate check's word set of each subject (see stored-memo.ts). */
  wordSets: string;
  /** The markdown outline of each subject the link, mention and title checks read (see stored-memo.ts). */
  outlines: string;
  /** The agent evaluation's results by content (see src/evals/agent-cache.ts). */
  agentEvals: string;
  /** Fetched copies of URL sources, a file per URL (see src/url-sources/source-cache.ts). */
  sources: string;
  /** Subjects' rendered HTML, in packs by subject id (see render/rendering-cache.ts). */
  renderings: string;
  /** The keys of the last build's pages and files, a digest of each page, and its search shards (see plan.ts). */
  siteManifest: string;
  /** Astro's and Vite's own cache of a build. */
  astro: string;
  /** The empty project folder Astro builds in (its `.astro/` goes here, never into the team's repository). */
  astroRoot: string;
  /** Astro's compiled pages of the last build, from which an incremental build makes its pages (see src/astro/pages-bundle.ts). */
  pagesBundle: string;
  /** Astro's output folder while it only compiles the pages, ahead of the content (see src/astro/run-astro.ts); removed after. */
  pagesCompile: string;
  /** The development server's Astro cache and project folder, apart from a build's. */
  devAstro: string;
  devAstroRoot: string;
  /** Where a build writes the site before it replaces, or updates, the output folder. */
  staging: string;
  /** Where a build writes each search shard's index as soon as it is complete, before it moves it into the output folder (see search-index.ts). */
  searchStaging: string;
  /** The lock a build holds on the cache while it runs (see folder-lock.ts): one build at a time. */
  buildLock: string;
}

/** The default cache of a knowledge base: `.syllabus-cache/` beside its first config file. */
export function defaultCacheDir(firstConfigFile: string): string {
  return path.join(path.dirname(path.resolve(firstConfigFile)), CACHE_FOLDER_NAME);
}

/** The layout of the cache in `dir`. Nothing is created until a stage writes. */
export function cacheFolder(dir: string): CacheFolder {
  const at = (...parts: string[]): string => path.join(dir, ...parts);
  return {
    dir: path.resolve(dir),
    catalogMemo: at('catalog-memo.json'),
    llmSummaries: at('llm-summaries.json'),
    searchTerms: at('search-terms.json'),
    wordSets: at('word-sets.json'),
    outlines: at('outlines.json'),
    agentEvals: at('agent-evals.json'),
    sources: at('sources'),
    renderings: at('renderings'),
    siteManifest: at('site-manifest.json'),
    astro: at('astro'),
    astroRoot: at('astro', 'project'),
    pagesBundle: at('pages-bundle'),
    pagesCompile: at('pages-compile'),
    devAstro: at('astro-dev'),
    devAstroRoot: at('astro-dev', 'project'),
    staging: at('staging'),
    searchStaging: at('search-staging'),
    buildLock: at('build.lock'),
  };
}
