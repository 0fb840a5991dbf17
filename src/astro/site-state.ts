/**
 * Where the pages find their site: each Syllabus integration provides a {@link SiteAccess} here
 * under its own key, and the pages read it through site-view.ts, which the integration's Vite
 * plugin replaces with a module bound to that key (see vite-plugin.ts).
 *
 * This module is the one thing the integration and its pages share, so it must be one module
 * instance: the integration imports it as usual, and the pages' module imports it by its file URL
 * as an external module, which Node (not Vite) loads. It imports nothing at run time, so that
 * nothing else is loaded twice.
 */
import type { SubjectRendering } from '../build/render/rendering-cache.ts';
import type { SiteData } from '../build/site-data.ts';

/** What a site's pages read while Astro builds or serves them. */
export interface SiteAccess {
  /** The site data: prepared by the build, or read on first use (and again after an edit, in the development server). */
  site(): Promise<SiteData>;
  /** The rendering of subject `id` (`<topic>/<slug>`), or undefined when the site has no such subject. */
  rendering(id: string): Promise<SubjectRendering | undefined>;
  /** The rendered description of topic `id` (empty when it has none). */
  topicDescription(id: string): Promise<string>;
  /** `code` highlighted as `language`, as the site highlights code blocks (a `<pre>` element). */
  highlight(code: string, language: string): Promise<string>;
  /** Called once by every page as it is made (a build counts them for its progress line). */
  pageShown?(): void;
}

const accesses = new Map<string, SiteAccess>();

/** Makes `access` the site of the integration `key`. */
export function provideSiteAccess(key: string, access: SiteAccess): void {
  accesses.set(key, access);
}

/** The site of integration `key`. */
export function siteAccess(key: string): SiteAccess {
  const access = accesses.get(key);
  if (!access)
    throw new Error(`Syllabus: no site is provided for integration "${key}". The pages of Syllabus run only with its integration (syllabus-kb/astro) in the same process.`);
  return access;
}
