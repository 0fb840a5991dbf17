/**
 * The Astro integration of Syllabus: adds the knowledge base's pages below a base path, gives them
 * their site through site-view.ts (see vite-plugin.ts), serves the site's other files
 * (endpoints, markdown twins, stored files) in the development server and reloads it after an
 * edit, and, in a host site's build, writes those files and the search index after Astro's pages.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger, AstroPrerenderer } from 'astro';
import { staticFilesOf } from '../build/endpoints.ts';
import { searchKeysOf, startSearchIndex } from '../build/search-index.ts';
import { contentTypeOf, readStaticFile, writeStaticFiles, type StaticFile } from '../build/static-file.ts';
import { formatDiagnostic } from '../kb/diagnostics/diagnostics.ts';
import { normalizeBase } from '../kb/publish/site-urls.ts';
import type { SiteData } from '../build/site-data.ts';
import { provideSiteAccess, type SiteAccess } from './site-state.ts';
import { type BundleKeeping, keepingBundle } from './pages-bundle.ts';
import { syllabusViteConfig } from './vite-plugin.ts';

/** The site an integration shows: a build's prepared site, or one read on demand. */
export interface IntegrationSite extends SiteAccess {
  /** Reads the site again, after an edit (development server); settles when it is read. */
  reread?(): Promise<SiteData>;
  /** The files and folders whose change calls for {@link reread}. */
  watched?(): Promise<string[]>;
  /** The build cache the site reads: its own writes are not edits. */
  cacheDir?: string | undefined;
  /**
   * Called with every page of a build as soon as Astro has made it, before it is written: its URL
   * path (base included) and its bytes (`syllabus build` indexes it for search meanwhile). A
   * promise it returns is awaited before Astro goes on.
   */
  pageBuilt?(url: string, html: Uint8Array): Promise<void> | undefined;
  /** Called when a build starts making its pages (its output folder is ready). */
  pagesStarting?(): void;
  /** Where a build keeps Astro's compiled pages for the next build (see pages-bundle.ts). */
  keepBundle?: BundleKeeping | undefined;
}

/** Options of {@link createSyllabusIntegration}. */
export interface IntegrationOptions {
  /** The site, given the base path its pages are served at (Astro's base and the prefix) and Astro's project folder. */
  site: (where: { base: string; root: string }) => IntegrationSite;
  /** The path below Astro's base where the pages go: `''` for a site of its own, `/knowledge` in a host site. */
  prefix: string;
  /** A site of its own: adds the 404 page, and serves Syllabus's package files in the development server. */
  standalone: boolean;
  /** Writes the site's other files and its search index after Astro's build (a host site; `syllabus build` does it itself). */
  writeFiles: boolean;
  /** The folder messages name files relative to. */
  cwd: string;
}

/** The folder of Syllabus's modules (`src/`, or the compiled `lib/`): the pages and their browser scripts are there. */
const MODULES_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

let instances = 0;

/** The pages of the site, relative to this module. */
function page(name: string): string {
  return fileURLToPath(new URL(`../pages/${name}`, import.meta.url));
}

/** Makes the integration; `syllabus-kb/astro` and `syllabus build` both use it. */
export function createSyllabusIntegration(options: IntegrationOptions): AstroIntegration {
  const key = `syllabus-${++instances}`;
  const prefix = options.prefix === '' || options.prefix === '/' ? '' : `/${options.prefix.replace(/^\/+|\/+$/g, '')}`;
  let site: IntegrationSite | undefined;
  let outDir = '';
  const current = (): IntegrationSite => {
    if (!site) throw new Error('Syllabus: the site was asked for before Astro had its configuration.');
    return site;
  };
  return {
    name: 'syllabus',
    hooks: {
      'astro:config:setup': ({ command, injectRoute, updateConfig }) => {
        const route = (pattern: string, entrypoint: string): void => injectRoute({ pattern: `${prefix}${pattern}` || '/', entrypoint: page(entrypoint), prerender: true });
        route('/', 'index.astro');
        route('/search', 'search.astro');
        route('/changes/[...rest]', 'changes/[...rest].astro');
        route('/[topic]', '[topic]/index.astro');
        route('/[topic]/[...address]', '[topic]/[...address].astro');
        if (options.standalone) route('/404', '404.astro');
        const vite = syllabusViteConfig(key, command, MODULES_ROOT);
        if (!options.standalone) delete vite.server;
        updateConfig({ vite });
      },
      'astro:config:done': ({ config }) => {
        outDir = fileURLToPath(config.outDir);
        site = options.site({ base: normalizeBase(`${config.base.replace(/\/+$/, '')}${prefix}`), root: fileURLToPath(config.root) });
        provideSiteAccess(key, site);
      },
      'astro:build:start': ({ setPrerenderer }) => {
        const live = current();
        const { keepBundle } = live;
        const pageBuilt = live.pageBuilt ? (url: string, html: Uint8Array) => live.pageBuilt!(url, html) : undefined;
        const pagesStarting = live.pagesStarting ? () => live.pagesStarting!() : undefined;
        if (!pageBuilt && !keepBundle && !pagesStarting) return;
        setPrerenderer((prerenderer) => {
          const kept = keepBundle ? keepingBundle(prerenderer, outDir, key, keepBundle) : prerenderer;
          return reportingPages(kept, pageBuilt, pagesStarting);
        });
      },
      'astro:server:setup': async ({ server, logger }) => {
        const live = current();
        // The knowledge base is read and its files listed here, before the server listens, never
        // while a request or a module Vite loads waits (content/reference/cli/dev-and-preview.md);
        // a site that cannot be read shows why on its pages.
        await live.site().then(staticFilesOf, () => undefined);
        server.middlewares.use((request, response, next) => {
          void (async () => {
            const data = await live.site();
            const wanted = decodeURIComponent((request.url ?? '').split('?')[0]!);
            if (!wanted.startsWith(data.routes.base)) return next();
            const local = wanted.slice(data.routes.base.length);
            const file = staticFileAt(staticFilesOf(data), local);
            if (!file) return next();
            response.setHeader('Content-Type', contentTypeOf(local));
            response.end(readStaticFile(file));
          })().catch(next);
        });
        if (live.reread && live.watched) reloadOnEdit(server, live, logger);
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (!options.writeFiles) return;
        const data = await current().site();
        for (const diagnostic of data.diagnostics) if (diagnostic.kind === 'warning') logger.warn(formatDiagnostic(diagnostic, options.cwd));
        const out = path.join(fileURLToPath(dir), prefix);
        writeStaticFiles(out, staticFilesOf(data));
        const search = await (await startSearchIndex({ dir: out, keys: searchKeysOf(data), pending: 'all' })).finish();
        await search.cleanup;
        logger.info(`${search.pages} pages indexed for search in ${path.relative(fileURLToPath(dir), out) || '.'}/pagefind/`);
      },
    },
  };
}

/**
 * Astro's own prerenderer, telling `pagesStarting` when it is about to make the pages (Astro has
 * emptied its output folder by then) and `pageBuilt` of every page it makes (a page answered 200).
 */
function reportingPages(prerenderer: AstroPrerenderer, pageBuilt?: (url: string, html: Uint8Array) => Promise<void> | undefined, pagesStarting?: () => void): AstroPrerenderer {
  return {
    name: 'syllabus',
    setup: async () => {
      await prerenderer.setup?.();
      pagesStarting?.();
    },
    getStaticPaths: () => prerenderer.getStaticPaths(),
    render: async (request, options) => {
      const result = await prerenderer.render(request, options);
      if (!pageBuilt) return result;
      const response = result instanceof Response ? result : result.response;
      if (response.status !== 200 || !response.body) return result;
      const html = new Uint8Array(await response.arrayBuffer());
      await pageBuilt(new URL(request.url).pathname, html);
      const copy = new Response(html, { status: response.status, statusText: response.statusText, headers: response.headers });
      return result instanceof Response ? copy : { ...result, response: copy };
    },
    ...(prerenderer.collectStaticImages ? { collectStaticImages: () => prerenderer.collectStaticImages!() } : {}),
    teardown: async () => prerenderer.teardown?.(),
  };
}

const byPath = new WeakMap<readonly StaticFile[], Map<string, StaticFile>>();

/** The development server's lookup of static files by path. */
function staticFileAt(files: readonly StaticFile[], local: string): StaticFile | undefined {
  let index = byPath.get(files);
  if (!index) byPath.set(files, (index = new Map(files.map((f) => [f.path, f]))));
  return index.get(local);
}

type DevServer = Parameters<NonNullable<AstroIntegration['hooks']['astro:server:setup']>>[0]['server'];

/**
 * Reads the knowledge base again as soon as one of its files changes (not when a page next asks),
 * and once it is read drops the pages' cached routes (as Astro does when its own content changes)
 * and reloads open browsers.
 */
function reloadOnEdit(server: DevServer, live: IntegrationSite, logger: AstroIntegrationLogger): void {
  const { cacheDir } = live;
  let watched: string[] = [];
  const follow = async (): Promise<void> => {
    const next = await live.watched!();
    // Only what is new: adding a watched folder again walks it again, and a file made meanwhile
    // could go unnoticed.
    const added = next.filter((w) => !watched.includes(w));
    watched = next;
    if (added.length > 0) server.watcher.add(added);
  };
  void follow();
  let pending: ReturnType<typeof setTimeout> | undefined;
  const inside = (file: string, folder: string): boolean => file === folder || file.startsWith(folder + path.sep);
  server.watcher.on('all', (_event, changed) => {
    // What a watched file or folder holds; of the build cache (inside a topic folder when its
    // subjects are `.`), only the sources and summaries a build brings.
    const holders = watched.filter((w) => inside(changed, w));
    const cached = cacheDir !== undefined && inside(changed, cacheDir);
    if (!holders.some((w) => !cached || inside(w, cacheDir))) return;
    clearTimeout(pending);
    pending = setTimeout(() => {
      void live.reread!()
        .then((data) => {
          staticFilesOf(data);
          return follow();
        })
        .catch((error: unknown) => logger.error((error as Error).message))
        .finally(() => {
          for (const environment of Object.values(server.environments)) {
            if (environment.name !== 'client') environment.hot.send('astro:content-changed', {});
          }
          server.environments.client.hot.send({ type: 'full-reload', path: '*' });
        });
    }, 100);
  });
}
