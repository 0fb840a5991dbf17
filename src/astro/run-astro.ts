/**
 * Astro run by Syllabus itself, for a site of its own (`syllabus build`, `syllabus dev`): Astro's
 * project folder is an empty folder of the build cache, and every page comes from the integration,
 * so the same run works from any folder, from this repository and from an installed package.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import type { PagesInput } from '../build/build-site.ts';
import { createSyllabusIntegration, type IntegrationSite } from './integration.ts';
import { PAGES_AT_ONCE, renderFromBundle } from './pages-bundle.ts';

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
    logLevel: 'warn',
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
  const shared = path.join(process.cwd(), '.astro');
  await withSharedFolder(shared, async () => {
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
    }
  });
}

/**
 * Runs `work` while this process holds the lock of `folder` (the folder `<folder>.lock` beside it,
 * proper-lockfile's), so that builds started from one folder take turns at Astro's `.astro/`
 * there instead of writing and removing each other's files. A build waits for the lock as long as
 * the other one takes; a lock whose holder died is taken once it is a minute old.
 */
async function withSharedFolder(folder: string, work: () => Promise<void>): Promise<void> {
  const lockfile = (await import('proper-lockfile')).default;
  // A build blocks its event loop for seconds at a time, so the lock is refreshed often and taken as stale late.
  const release = await lockfile.lock(folder, {
    realpath: false,
    stale: 60_000,
    update: 10_000,
    retries: { forever: true, minTimeout: 50, maxTimeout: 1000 },
    // Losing the lock (a frozen process) leaves the build as it would be without one.
    onCompromised: () => undefined,
  });
  try {
    await work();
  } finally {
    await release().catch(() => undefined);
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

/** The build pipeline's pages stage on Astro (see `BuildOptions.pages`); `cwd` is where messages name files from. */
export function astroPagesStage(cwd: string): (input: PagesInput) => Promise<void> {
  return async ({ site, data, codeKey, outDir, cache, beside }) => {
    // What Astro's build of the pages depends on: the code and Astro's settings (the site's data
    // reaches the pages at run time, through site-state.ts).
    const keepBundle = { dir: cache.pagesBundle, key: JSON.stringify([codeKey, data.routes.base, data.site.url ?? null]) };
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
