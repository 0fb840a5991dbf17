/**
 * The Vite side of the integration: the module through which the pages read their site (their
 * import of site-view.ts becomes a virtual module bound to the integration's site), and the settings that let Astro build and serve pages that live in
 * Syllabus's own package, whichever folder the command runs in.
 */
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ViteUserConfig } from 'astro';
import { moduleExtension } from '../build/module-url.ts';

const RESOLVED_SITE_MODULE = '\0virtual:syllabus/site';
const STATE_MODULE = 'virtual:syllabus/state';

/** This module's own extension: `.ts` run from the sources (tests), `.js` compiled. */
const EXTENSION = moduleExtension(import.meta.url);
/** The file URL of site-state.ts as this module runs. */
const STATE_URL = new URL(`./site-state${EXTENSION}`, import.meta.url).href;
/** site-view.ts, which the pages import, and which this plugin replaces with their site's module. */
const SITE_VIEW = fileURLToPath(new URL(`./site-view${EXTENSION}`, import.meta.url));

/**
 * The Vite settings of one integration, `key` naming its site in site-state.ts. `command` is
 * Astro's: the state module is made external differently in a build (a bundle Node imports) and
 * in the development server (Vite's module runner).
 */
export function syllabusViteConfig(key: string, command: 'build' | 'dev' | 'preview' | 'sync', modulesRoot: string): ViteUserConfig {
  const build = command === 'build';
  // The development server's runner leaves "built-in" modules to Node: so is the state module.
  const builtins = [...builtinModules, /^node:/, STATE_URL];
  return {
    plugins: [
      {
        name: 'syllabus:site',
        enforce: 'pre',
        resolveId(id, importer) {
          if (importer && id.endsWith(`/site-view${EXTENSION}`) && path.resolve(path.dirname(importer), id) === SITE_VIEW) return RESOLVED_SITE_MODULE;
          if (id === STATE_MODULE) return { id: STATE_URL, external: true };
          return undefined;
        },
        load(id) {
          if (id !== RESOLVED_SITE_MODULE) return undefined;
          const state = JSON.stringify(build ? STATE_MODULE : STATE_URL);
          return [
            `import { siteAccess } from ${state};`,
            `const access = () => siteAccess(${JSON.stringify(key)});`,
            'export const loadSite = () => access().site();',
            'export const renderingOf = (id) => access().rendering(id);',
            'export const topicDescriptionOf = (id) => access().topicDescription(id);',
            'export const highlight = (code, language) => access().highlight(code, language);',
            'export const pageShown = () => access().pageShown?.();',
          ].join('\n');
        },
      },
    ],
    environments: build
      ? // The prerendering bundle holds every package it uses, so it runs from wherever Astro writes it.
        { prerender: { resolve: { noExternal: true } } }
      : { ssr: { resolve: { builtins } }, prerender: { resolve: { builtins } } },
    // Serving the pages' browser scripts from Syllabus's package, wherever it is installed.
    server: { fs: { allow: [modulesRoot] } },
  };
}
