/**
 * `syllabus-kb/astro`: Syllabus in an existing Astro site. Adds the knowledge base's topic and
 * subject pages, its search page, the agent endpoints and each subject's markdown and JSON twins
 * below a base path, with the same sanitising, links and visibility rules as a site that
 * `syllabus build` makes, and leaves the site's own pages alone.
 *
 * ```js
 * // astro.config.mjs
 * import syllabus from 'syllabus-kb/astro';
 * export default defineConfig({ integrations: [syllabus({ config: './kb.toml', base: '/knowledge' })] });
 * ```
 */
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { openLiveSite } from '../build/live-site.ts';
import { createSyllabusIntegration } from './integration.ts';

/** Options of {@link syllabus}. */
export interface SyllabusOptions {
  /**
   * The knowledge base's config file, or several (later ones merge over earlier ones), relative
   * to the Astro project's folder. Default: `content/kb.toml`.
   */
  config?: string | readonly string[];
  /** The path below the site's own base where the knowledge pages go. Default: `/knowledge`. */
  base?: string;
  /**
   * The build cache whose fetched URL sources and LLM summaries the pages show, relative to the
   * project's folder. Default: `.syllabus-cache/` beside the first config file.
   */
  cache?: string;
}

/** The integration; see the module comment. */
export default function syllabus(options: SyllabusOptions = {}): AstroIntegration {
  const configs = typeof options.config === 'string' ? [options.config] : [...(options.config ?? ['content/kb.toml'])];
  if (configs.length === 0 || configs.some((c) => typeof c !== 'string' || c === '')) {
    throw new Error(`syllabus({ config }) must name the knowledge base's kb.toml, e.g. syllabus({ config: './kb.toml' }) (got ${JSON.stringify(options.config)}).`);
  }
  const base = options.base ?? '/knowledge';
  if (typeof base !== 'string' || !/^\/[A-Za-z0-9._~/-]*$/.test(base) || base.split('/').includes('..')) {
    throw new Error(`syllabus({ base }) must be a path below the site's base, such as "/knowledge" (got ${JSON.stringify(options.base)}).`);
  }
  return createSyllabusIntegration({
    prefix: base,
    standalone: false,
    writeFiles: true,
    cwd: process.cwd(),
    site: ({ base: siteBase, root }) => {
      const files = configs.map((file) => path.resolve(root, file));
      const cache = cacheFolder(options.cache ? path.resolve(root, options.cache) : defaultCacheDir(files[0]!));
      return openLiveSite({ configFiles: files, base: siteBase, cache, cwd: root });
    },
  });
}

export { syllabus };
export type { SiteData } from '../build/site-data.ts';
