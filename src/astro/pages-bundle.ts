/**
 * Astro's prerendering bundle of the site's pages, kept after a build so that a later build of the
 * same code and settings makes its pages from it, without starting a whole Astro build
 * (content/reference/decisions.md, "The pages of a build with a kept cache").
 *
 * Astro writes the bundle (the compiled pages, Astro's renderer with them) to `.prerender/` of its
 * output folder and deletes it after the pages are made. While Astro makes the pages, this module
 * copies it to the build cache with what the pages' `<head>` needs of Astro's build beside it (the
 * stylesheets and scripts of each page) and the browser assets Astro's build wrote (`_astro/`).
 * Both are private to Astro's build, so the bundle is kept only for the Astro version that made
 * it, and any doubt (another version, another key, a file missing, a bundle that fails) means
 * Astro's own build runs instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AstroPrerenderer } from 'astro';
import { fileWriterFor } from '../build/file-writer.ts';
import { mapBounded } from '../net/bounded-calls.ts';
import { provideSiteAccess, type SiteAccess } from './site-state.ts';

/**
 * How many pages are made at once, by Astro's build (its `build.concurrency`) and from a kept
 * bundle alike: while one page is written by the build's writer thread, the next is rendered
 * (content/reference/decisions.md, "Pages made at once").
 */
export const PAGES_AT_ONCE = 4;

/** Pages made and not yet written, at most, before the next page waits for the writer thread. */
const PAGES_WRITING = 64;

/** The format of the kept bundle's description; another value means Astro's own build. */
const BUNDLE_VERSION = 1;
const DESCRIPTION = 'bundle.json';
const PRERENDER_FOLDER = '.prerender';
const ENTRY_PREFIX = 'prerender-entry';
/** Astro's folder of built browser assets in the output (its `build.assets`), and where the kept bundle holds a copy. */
const ASSETS_FOLDER = '_astro';
const KEPT_ASSETS = 'client';
/** The pages Astro writes as `<name>.html` (its STATUS_CODE_PAGES). */
const STATUS_PAGES = new Set(['/404', '/500']);

/** What is kept beside the bundle: which build made it, and what its pages' `<head>` takes from that build. */
interface BundleDescription {
  version: typeof BUNDLE_VERSION;
  /** The key of the build that made it (the build's code and settings). */
  key: string;
  astro: string;
  /** The integration key the bundle's pages read their site under (see vite-plugin.ts). */
  integration: string;
  entry: string;
  /** Astro's page data key → the page's stylesheets, as Astro's build computed them. */
  styles: [string, unknown[]][];
  /** Astro's entry specifiers → the bundled scripts' file names. */
  entries: [string, string][];
  /** Scripts injected by integrations (`injectScript`). */
  scripts: unknown[];
}

/** The part of Astro's prerendering app this module uses. */
interface PrerenderApp {
  setInternals(internals: unknown): void;
  setOptions(options: unknown): void;
  getSettings(): { scripts: unknown[] };
  render(request: Request, options: { routeData: unknown }): Promise<Response>;
  routeCache: { clearAll(): void };
}

/** The part of Astro's build internals the pages' `<head>` reads. */
interface HeadInternals {
  pagesByKeys: Map<string, { styles?: unknown[] }>;
  entrySpecifierToBundleMap: Map<string, string>;
}

/** Where and under which key a build keeps its pages bundle. */
export interface BundleKeeping {
  /** The folder the bundle is kept in (replaced whole). */
  dir: string;
  /** The key of this build's code and settings: a later build uses the bundle only under the same key. */
  key: string;
  /**
   * Astro's build makes no pages when it keeps the bundle: the caller makes them from it with
   * {@link renderFromBundle}. Astro still makes them when the bundle is not where this module
   * expects it (another Astro).
   */
  pagesAfter?: boolean | undefined;
}

let astro: string | undefined;

/** The version of the Astro this module runs with. */
function astroVersion(): string {
  astro ??= (JSON.parse(fs.readFileSync(fileURLToPath(import.meta.resolve('astro/package.json')), 'utf8')) as { version: string }).version;
  return astro;
}

/**
 * Astro's prerenderer, keeping the bundle it renders from in `keeping.dir` once every page is
 * made. `outDir` is Astro's output folder; `integration` the integration key the pages read.
 */
export function keepingBundle(prerenderer: AstroPrerenderer, outDir: string, integration: string, keeping: BundleKeeping): AstroPrerenderer {
  // Where Astro's static build writes it: its output folder, or `.astro/` of the current folder
  // when the output folder is outside that (Astro's getOutDirWithinCwd).
  const folder = path.join(outDir.startsWith(process.cwd()) ? outDir : path.join(process.cwd(), '.astro'), PRERENDER_FOLDER);
  let captured: { entry: string; app: PrerenderApp; internals: HeadInternals } | undefined;
  return {
    ...prerenderer,
    setup: async () => {
      // Astro imports the bundle's entry and hands it its internals: importing it first (the same
      // module) lets this module see them.
      // Not found where expected (another Astro): nothing is kept, and the next build runs Astro's.
      const entry = fs.existsSync(folder) ? fs.readdirSync(folder).find((name) => name.startsWith(ENTRY_PREFIX) && name.endsWith('.mjs')) : undefined;
      if (entry) {
        const app = ((await import(pathToFileURL(path.join(folder, entry)).href)) as { app: PrerenderApp }).app;
        const setInternals = app.setInternals.bind(app);
        app.setInternals = (internals: unknown) => {
          captured = { entry, app, internals: internals as HeadInternals };
          setInternals(internals);
        };
      }
      await prerenderer.setup?.();
    },
    getStaticPaths: async () => (keeping.pagesAfter && captured ? [] : prerenderer.getStaticPaths()),
    teardown: async () => {
      await prerenderer.teardown?.();
      if (captured) await keepBundle(folder, path.join(outDir, ASSETS_FOLDER), captured, integration, keeping);
    },
  };
}

async function keepBundle(
  folder: string,
  assets: string,
  captured: { entry: string; app: PrerenderApp; internals: HeadInternals },
  integration: string,
  keeping: BundleKeeping,
): Promise<void> {
  const description: BundleDescription = {
    version: BUNDLE_VERSION,
    key: keeping.key,
    astro: astroVersion(),
    integration,
    entry: captured.entry,
    styles: [...captured.internals.pagesByKeys].map(([key, data]) => [key, data.styles ?? []]),
    entries: [...captured.internals.entrySpecifierToBundleMap],
    scripts: captured.app.getSettings().scripts,
  };
  const fresh = `${keeping.dir}.new-${process.pid}`;
  fs.rmSync(fresh, { recursive: true, force: true });
  fs.cpSync(folder, fresh, { recursive: true });
  if (fs.existsSync(assets)) fs.cpSync(assets, path.join(fresh, KEPT_ASSETS, ASSETS_FOLDER), { recursive: true });
  fs.writeFileSync(path.join(fresh, DESCRIPTION), `${JSON.stringify(description)}\n`);
  fs.rmSync(keeping.dir, { recursive: true, force: true });
  fs.renameSync(fresh, keeping.dir);
}

/** What {@link renderFromBundle} makes. */
export interface BundleRender {
  /** The kept bundle and the key it must have been made under. */
  keeping: BundleKeeping;
  /** The site the pages show. */
  site: SiteAccess & {
    pageBuilt?(url: string, html: Uint8Array): Promise<void> | undefined;
    /** Pages are made in increasing rank of their URL path (base included), pages of equal rank in the routes' order. */
    pageRank?(url: string): number;
  };
  /** The site's base path. */
  base: string;
  /** The folder to write them to, as Astro would (`<url below base>/index.html`). */
  outDir: string;
  /** Called once the bundle is found, before the first page is made. */
  pagesStarting?: (() => void) | undefined;
}

/**
 * Makes the site's pages from the kept bundle, as Astro's build would and where it would write them
 * (an incremental build's pages list only what changed), with Astro's browser assets; returns false,
 * having written nothing, when no bundle of this key and Astro version is kept.
 */
export async function renderFromBundle(render: BundleRender): Promise<boolean> {
  const description = keptDescription(render.keeping);
  if (!description) return false;
  const entry = path.join(render.keeping.dir, description.entry);
  const app = ((await import(pathToFileURL(entry).href)) as { app: PrerenderApp }).app;
  const problems: string[] = [];
  app.setInternals({
    pagesByKeys: new Map(description.styles.map(([key, styles]) => [key, { styles }])),
    entrySpecifierToBundleMap: new Map(description.entries),
  } satisfies HeadInternals);
  app.setOptions({
    settings: { scripts: description.scripts },
    logger: {
      options: {
        destination: {
          write: (event: { level: string; message: string }) => {
            if (event.level === 'error') problems.push(event.message);
            return true;
          },
        },
      },
    },
  });
  // A process that builds again (tests, a watcher) must not see the previous build's paths.
  app.routeCache.clearAll();
  provideSiteAccess(description.integration, render.site);
  // The browser assets Astro's build writes beside the pages.
  const assets = path.join(render.keeping.dir, KEPT_ASSETS);
  if (fs.existsSync(assets)) fs.cpSync(assets, render.outDir, { recursive: true });
  render.pagesStarting?.();
  // The pages Astro's build would make: every static path of every page route, as the routes'
  // getStaticPaths give them (an incremental build's lists only what changed).
  const { StaticPaths } = (await import('astro/runtime/prerender/static-paths.js')) as unknown as {
    StaticPaths: new (app: PrerenderApp) => { getAll(): Promise<{ pathname: string; route: { type: string } }[]> };
  };
  const pages = (await new StaticPaths(app).getAll())
    .filter(({ route }) => route.type === 'page')
    .map(({ pathname, route }) => {
      const address = new URL(`${render.base}${pathname.replace(/^\/+/, '')}`.replace(/\/*$/, '/'), 'http://localhost/');
      return { pathname, route, address, rank: render.site.pageRank?.(address.pathname) ?? 0 };
    })
    .sort((a, b) => a.rank - b.rank);
  const writer = fileWriterFor(pages.length);
  const writing = new Set<Promise<void>>();
  const makePage = async (pathname: string, route: { type: string }, address: URL): Promise<void> => {
    const url = address.pathname;
    const request = new Request(address);
    const response = await app.render(request, { routeData: route });
    if (response.status !== 200 && !STATUS_PAGES.has(pathname)) {
      throw new Error(`the page ${url} answered ${response.status}: ${problems.join('; ') || (await response.text()).slice(0, 500)}`);
    }
    const html = new Uint8Array(await response.arrayBuffer());
    // Where Astro's build writes a page, its "directory" format: `404.html`, else `<path>/index.html`.
    const file = STATUS_PAGES.has(pathname) ? path.join(render.outDir, `${pathname.slice(1)}.html`) : path.join(render.outDir, pathname, 'index.html');
    // Written while the next pages are made: the writer thread takes them in batches.
    const written = writer.write(file, html);
    writing.add(written);
    // A failed write stays in the set: the next wait, or the last, throws it.
    written.then(
      () => writing.delete(written),
      () => undefined,
    );
    await render.site.pageBuilt?.(url, html);
    if (writing.size >= PAGES_WRITING) await Promise.race(writing);
  };
  // After a failure no page starts, and every page started is written before this returns:
  // Astro's own build then makes the pages in the same folder.
  try {
    await mapBounded(pages, PAGES_AT_ONCE, ({ pathname, route, address }) => makePage(pathname, route, address));
  } finally {
    await Promise.allSettled(writing);
  }
  await Promise.all(writing);
  return true;
}

/** Whether a bundle made under `keeping.key` by this Astro is kept in `keeping.dir`. */
export function holdsBundle(keeping: BundleKeeping): boolean {
  return keptDescription(keeping) !== undefined;
}

/** The description of the bundle kept in `keeping.dir`, when it was made under `keeping.key` by this Astro and its entry is there. */
function keptDescription(keeping: BundleKeeping): BundleDescription | undefined {
  const description = readDescription(keeping.dir);
  if (!description || description.key !== keeping.key || description.astro !== astroVersion()) return undefined;
  return fs.existsSync(path.join(keeping.dir, description.entry)) ? description : undefined;
}

function readDescription(dir: string): BundleDescription | undefined {
  try {
    const description = JSON.parse(fs.readFileSync(path.join(dir, DESCRIPTION), 'utf8')) as BundleDescription;
    return description.version === BUNDLE_VERSION ? description : undefined;
  } catch {
    return undefined;
  }
}
