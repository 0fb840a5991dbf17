/**
 * Astro run by Syllabus itself, for a site of its own (`syllabus build`, `syllabus dev`): Astro's
 * project folder is an empty folder of the build cache, and every page comes from the integration,
 * so the same run works from any folder, from this repository and from an installed package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import type { PagesInput, PagesPreparation } from '../build/build-site.ts';
import { cacheFolder } from '../build/cache-folder.ts';
import { createSyllabusIntegration, type IntegrationSite } from './integration.ts';
import { type BundleKeeping, holdsBundle, PAGES_AT_ONCE, renderFromBundle } from './pages-bundle.ts';
import { lockFolder } from '../build/folder-lock.ts';
import { moduleUrl } from '../build/module-url.ts';
import { startThread } from '../build/start-thread.ts';

/** Where and how Astro runs. */
export interface AstroRun {
  /** The site the pages show. */
  site: IntegrationSite;
  /** The base path the site is served at. */
  base: string;
  /** `[site] url`, when set. */
  siteUrl?: string | undefined;
  /** Astro's project folder (empty: nothing of it is read) and Astro's own cache. */
  root: string;
  cacheDir: string;
  /** The folder messages name files relative to. */
  cwd: string;
  /** Astro says nothing (a compile ahead of the pages, which the pages stage does again if it fails). */
  quiet?: boolean | undefined;
}

/**
 * Makes the packages Syllabus runs with (Astro first) resolvable from Astro's project folder, as
 * they are from a project that installed them: its `node_modules` is a link to the folder that
 * holds the Astro Syllabus uses.
 */
function linkPackages(root: string): void {
  const packages = path.dirname(path.dirname(fs.realpathSync(fileURLToPath(import.meta.resolve('astro/package.json')))));
  const link = path.join(root, 'node_modules');
  let current: string | undefined;
  try {
    current = fs.readlinkSync(link);
  } catch {
    current = undefined;
  }
  if (current === packages) return;
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(packages, link, 'junction');
}

/** The configuration of an Astro run of Syllabus's own site. */
function configOf(run: AstroRun): AstroInlineConfig {
  fs.mkdirSync(run.root, { recursive: true });
  linkPackages(run.root);
  // Astro's telemetry is Astro's: a team running Syllabus has not opted into it.
  process.env['ASTRO_TELEMETRY_DISABLED'] ??= '1';
  return {
    root: run.root,
    configFile: false,
    srcDir: path.join(run.root, 'src'),
    publicDir: path.join(run.root, 'public'),
    cacheDir: run.cacheDir,
    base: run.base,
    ...(run.siteUrl ? { site: run.siteUrl } : {}),
    output: 'static',
    trailingSlash: 'always',
    build: { format: 'directory', concurrency: PAGES_AT_ONCE },
    devToolbar: { enabled: false },
    logLevel: run.quiet ? 'silent' : 'warn',
    integrations: [createSyllabusIntegration({ site: () => run.site, prefix: '', standalone: true, writeFiles: false, cwd: run.cwd })],
  };
}

/** Builds the pages of `run.site` into `outDir` (the site's other files are the caller's). */
export async function buildPages(run: AstroRun, outDir: string): Promise<void> {
  const { build } = await import('astro');
  // Astro prerenders in `./.astro/` of the current folder when the output is outside it (its
  // getOutDirWithinCwd), and removes what it wrote there.
  if (outDir.startsWith(process.cwd())) {
    await build({ ...configOf(run), outDir });
    return;
  }
  // Builds started from one folder take turns at its .astro/ instead of writing and removing each other's files.
  const shared = path.join(process.cwd(), '.astro');
  const release = await lockFolder(shared);
  // The folder itself goes too, unless it was there before.
  const existed = fs.existsSync(shared);
  try {
    await build({ ...configOf(run), outDir });
  } finally {
    if (!existed) {
      try {
        fs.rmdirSync(shared);
      } catch {
        // Not there, or not empty: then it is not only this build's.
      }
    }
    await release();
  }
}

/** A running development server. */
export interface DevServer {
  /** The address it listens on. */
  address: { host: string; port: number };
  stop(): Promise<void>;
}

/** Starts Astro's development server for `run.site` on `host:port`. */
export async function startDevServer(run: AstroRun, host: string, port: number): Promise<DevServer> {
  const { dev } = await import('astro');
  const server = await dev({ ...configOf(run), server: { host, port } });
  return { address: { host: server.address.address, port: server.address.port }, stop: () => server.stop() };
}

/**
 * Where the compiled pages are kept, under the key of what Astro's build of them depends on: the
 * code and Astro's settings (the site's data reaches the pages at run time, through site-state.ts).
 */
export function bundleKeepingOf({ codeKey, base, siteUrl, cache }: PagesPreparation): BundleKeeping {
  return { dir: cache.pagesBundle, key: JSON.stringify([codeKey, base, siteUrl ?? null]) };
}

/** The compile's module: `.ts` in the checkout's tests, `.js` once compiled (bin/syllabus.js, the package). */
const COMPILE_WORKER_URL = moduleUrl('./compile-pages-worker', import.meta.url);

/** What the compile's worker is given: {@link PagesPreparation} with the cache by its folder. */
export interface CompileRequest {
  codeKey: string;
  base: string;
  siteUrl: string | undefined;
  cacheDir: string;
  cwd: string;
}

/**
 * The pages stage's work ahead of the content (see `BuildOptions.preparePages`): when no compiled
 * pages are kept for this code and these settings, Astro's build compiles and keeps them, making
 * no page, in a worker thread of its own; the pages stage then makes the pages from them. The
 * signal stops it (a build that stopped at content errors does not wait for it).
 */
export function astroPagesPreparation(cwd: string): (input: PagesPreparation, signal: AbortSignal) => Promise<void> {
  return async (input, signal) => {
    // Astro's build of a cache outside this folder takes turns at ./.astro/ under a lock, which a
    // stopped compile would leave behind: the pages stage compiles such a site itself.
    if (holdsBundle(bundleKeepingOf(input)) || !input.cache.pagesCompile.startsWith(process.cwd() + path.sep)) return;
    const request: CompileRequest = { codeKey: input.codeKey, base: input.base, siteUrl: input.siteUrl, cacheDir: input.cache.dir, cwd };
    // Astro is quiet in it; anything else it prints is not the build's to show.
    const worker = startThread(COMPILE_WORKER_URL, { workerData: request, stdout: true, stderr: true });
    worker.stdout.resume();
    worker.stderr.resume();
    const stop = (): void => void worker.terminate();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        worker.on('error', reject);
        worker.on('exit', (code) => {
          // A worker stopped before it started ends with code 0.
          if (signal.aborted) reject(new Error('the pages compile was stopped'));
          else if (code === 0) resolve();
          else reject(new Error(`the pages compile stopped (exit code ${code})`));
        });
      });
    } finally {
      signal.removeEventListener('abort', stop);
    }
  };
}

/**
 * Compiles the pages and keeps them, making none: Astro's build in a folder of the cache, removed
 * after (the compile's worker, compile-pages-worker.ts, runs it).
 */
export async function compilePages(request: CompileRequest): Promise<void> {
  const cache = cacheFolder(request.cacheDir);
  const keepBundle = bundleKeepingOf({ ...request, cache });
  const outDir = cache.pagesCompile;
  fs.rmSync(outDir, { recursive: true, force: true });
  const unread = (): Promise<never> => Promise.reject(new Error('Syllabus: the pages were asked for their site while they were only being compiled.'));
  try {
    await buildPages(
      {
        // No page is made, so nothing asks for the site: if something does (another Astro), this
        // fails, and the pages stage runs Astro's build itself.
        site: { site: unread, rendering: unread, topicDescription: unread, highlight: unread, keepBundle: { ...keepBundle, pagesAfter: true } },
        base: request.base,
        siteUrl: request.siteUrl,
        root: cache.astroRoot,
        cacheDir: cache.astro,
        cwd: request.cwd,
        quiet: true,
      },
      outDir,
    );
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
}

/** The build pipeline's pages stage on Astro (see `BuildOptions.pages`); `cwd` is where messages name files from. */
export function astroPagesStage(cwd: string): (input: PagesInput) => Promise<void> {
  return async ({ site, data, codeKey, outDir, cache, beside }) => {
    const keepBundle = bundleKeepingOf({ codeKey, base: data.routes.base, siteUrl: data.site.url, cache });
    let besides: Promise<void> | undefined;
    const pagesStarting = (): void => {
      besides ??= beside();
      // Awaited once the pages are made; a failure meanwhile must not go unhandled.
      besides.catch(() => undefined);
    };
    /** Makes the pages from the kept bundle: whether one was kept for this key, or `failed` when it failed (it is then deleted). */
    const fromKept = async (): Promise<boolean | 'failed'> => {
      try {
        return await renderFromBundle({ keeping: keepBundle, site, base: data.routes.base, outDir, pagesStarting });
      } catch {
        // A kept bundle that fails (damaged, or not what this Astro expects) is only a cache:
        // Astro's own build makes the pages, and says what is wrong if they are wrong. It empties
        // the folder first, so the other files are written again once it starts.
        await besides?.catch(() => undefined);
        besides = undefined;
        fs.rmSync(keepBundle.dir, { recursive: true, force: true });
        return 'failed';
      }
    };
    const astroBuild = (pagesAfter: boolean): Promise<void> =>
      buildPages(
        {
          site: { ...site, keepBundle: { ...keepBundle, pagesAfter }, pagesStarting },
          base: data.routes.base,
          siteUrl: data.site.url,
          root: cache.astroRoot,
          cacheDir: cache.astro,
          cwd,
        },
        outDir,
      );
    try {
      // The pages are made from the last build's compiled pages when they are kept for this code
      // and these settings; else Astro's build compiles and keeps them, and they are made from
      // them just the same (content/reference/decisions.md, "Pages made from the compiled bundle").
      if ((await fromKept()) !== true) {
        await astroBuild(true);
        // Not kept (another Astro): Astro's build made the pages itself.
        if ((await fromKept()) === 'failed') await astroBuild(false);
      }
    } finally {
      await besides?.catch(() => undefined);
    }
    pagesStarting();
    await besides;
  };
}
