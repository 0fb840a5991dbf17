/** `syllabus build`: the site of a knowledge base (content/reference/cli/build.md), through the build pipeline (src/build/build-site.ts). */
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { astroPagesPreparation, astroPagesStage } from '../astro/run-astro.ts';
import { BuildError } from '../build/build-error.ts';
import { buildSite, type BuildResult } from '../build/build-site.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { holdsBuild, readBuildRecord } from '../build/plan.ts';
import { keepCatalogThread, type KeptCatalogThread } from '../build/catalog-thread.ts';
import { loadSiteConfig } from '../build/read-config.ts';
import { displayPath, plural } from '../kb/diagnostics/diagnostics.ts';
import { timeoutFromEnv } from '../remote/fetch-json.ts';
import { runCommandApart, watchBuilds } from './build-watch.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configPaths } from './knowledge-base-options.ts';
import { sourcesUserAgent } from '../build/package-info.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { createBuildReporter, seconds } from './progress.ts';

export const BUILD_HELP = `Usage: syllabus build [--config PATH]… [--out DIR] [--cache DIR] [--base SOURCE] [--part TOPICS]…
                      [--json] [--watch]

Builds the knowledge base into a static site: pages for people, search, and the files agents
read. Content errors (duplicate slugs, a missing subjects folder) stop the build; run
"syllabus check" to see every problem. Unchanged subjects are not rendered again: the cache
keeps their rendering between builds. URLs listed in a topic's links.txt are fetched (copies in
the cache are revalidated); a failed fetch is a warning, and the cached copy stands in. With
[kb.summaries], the model summarises what the cache lacks; a failed call is a warning, and the
subject keeps its extractive summary.

Prints a line per phase on stderr; on a terminal (and unless CI is set), the long phases show
their progress in place.

Options:
  -c, --config PATH   config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -o, --out DIR       output folder (default dist/): replaced whole, so never one that holds
                      the knowledge base or files no build made
      --cache DIR     build cache (default .syllabus-cache/ beside the first config file)
      --base SOURCE   a preview: also build /changes/, what changed since SOURCE (a kb.toml,
                      a built dist/ folder or a site URL), for listed subjects only, with a
                      banner on every changed page; with a question set ([eval] questions),
                      how each question's rank and tokens changed
      --part TOPICS   build one part of the site, for "syllabus join": the pages and files of
                      these topics' subjects (comma-separated topic IDs; repeatable) and all
                      that is not a subject's own, from the whole knowledge base
      --json          also print a summary of the build as JSON on stdout
  -w, --watch         keep running: build again after each change to the config files or below
                      a topic's folder, until Ctrl-C (not with --base, --part or --json)
  -h, --help          show this help

Exit codes: 0 built (with --watch: stopped), 1 content errors or a failed build, 2 usage or
configuration error. With --watch, a build's errors are printed and the next change builds again.`;

/**
 * How much V8 lets its heap grow past what the last full collection kept, in percent. V8's own
 * choice, for a process with this machine's memory, let the garbage of the pages made (about
 * 18 kB each) pile up until the heap was three times what it held: the build's largest figure
 * grew with the site (content/reference/decisions.md, "Memory of a large build").
 */
export const HEAP_GROWING_PERCENT = 30;

/**
 * The heap in use after a full collection of the build's thread from which its growth is bounded
 * by {@link HEAP_GROWING_PERCENT}. Below it, what V8's own growth lets pile up is worth less than
 * the full collections that bounding it costs: a rebuild of 7,425 subjects, whose own heap holds
 * at most half of it, makes half as many with V8's growth (content/reference/decisions.md, "The
 * heap's growth").
 */
export const HEAP_BOUNDED_FROM = 128 * 1024 * 1024;

/**
 * Bounds the heap's growth by {@link HEAP_GROWING_PERCENT} from the first full collection that
 * leaves {@link HEAP_BOUNDED_FROM} in use; returns the function that stops watching.
 */
function boundHeapGrowthWhenLarge(): () => void {
  const observer = new PerformanceObserver((list) => {
    const full = list.getEntries().some((entry) => (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full || v8.getHeapStatistics().used_heap_size < HEAP_BOUNDED_FROM) return;
    // The command is the process: the setting is the host's, for this process only.
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** Runs `build`; returns the exit code. */
export async function buildCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...CONFIG_OPTION,
      out: { type: 'string', short: 'o' },
      cache: { type: 'string' },
      base: { type: 'string' },
      part: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      watch: { type: 'boolean', short: 'w' },
    },
    'build',
  );
  if (values.help) {
    io.out(BUILD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`build takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'build');
  const part = values.part?.flatMap((list) => list.split(',')).map((topic) => topic.trim());
  if (part && part.some((topic) => topic === ''))
    throw usageError(`--part takes topic IDs separated by commas, such as --part guides,faq (got ${JSON.stringify(values.part!.join(' '))}).`, 'build');
  if (values.watch) {
    const alone = values.base !== undefined ? '--base' : values.part ? '--part' : values.json ? '--json' : undefined;
    if (alone) throw usageError(`--watch builds the whole site again after each change; it does not take ${alone}.`, 'build');
  }
  const configFiles = configPaths(values.config, io);
  let catalogThread: KeptCatalogThread | undefined;
  const outDir = path.resolve(io.cwd, values.out ?? 'dist');
  const cacheDir = values.cache === undefined ? undefined : path.resolve(io.cwd, values.cache);
  if (values.watch) {
    const cache = cacheDir ?? defaultCacheDir(path.resolve(io.cwd, configFiles[0]!));
    const written = [outDir, cache];
    let trees: string[] = [];
    let first = true;
    // Kept from one build to the next, with its modules loaded and its code compiled.
    catalogThread = keepCatalogThread();
    try {
      await watchBuilds(
        {
          async build() {
            // A first build that makes every page (none of this output folder is in the cache) runs
            // as a command of its own: the memory its threads free stays with the process that ran
            // them (content/reference/decisions.md, "The build that stays running").
            if (first) {
              first = false;
              const record = readBuildRecord(cacheFolder(cache));
              if (!record || !holdsBuild(outDir, record)) {
                await runCommandApart(['build', ...argv.filter((arg) => arg !== '--watch' && arg !== '-w')], io);
                return;
              }
            }
            await buildOnce();
          },
          // The enabled topics of the config as it is now; a config that does not load keeps the last ones.
          async targets() {
            const { config } = await loadSiteConfig(configFiles, io.cwd);
            if (config) trees = config.topics.filter((topic) => topic.enable).map((topic) => topic.dir);
            return { trees, files: configFiles.map((file) => path.resolve(io.cwd, file)), skip: written };
          },
          written,
        },
        io,
      );
    } finally {
      await catalogThread.stop();
    }
    return 0;
  }
  const result = await buildOnce();
  if (values.json) io.out(JSON.stringify(buildSummary(result), null, 2));
  return 0;

  /** One build, reported as it goes and at its end; its errors as the command's. */
  async function buildOnce(): Promise<BuildResult> {
    const stopWatchingHeap = boundHeapGrowthWhenLarge();
    const shardPages = io.env['SYLLABUS_SEARCH_SHARD_PAGES'];
    const threadCharacters = io.env['SYLLABUS_CATALOG_THREAD_CHARACTERS'];
    const baseArg = values.base;
    let result: BuildResult;
    try {
      result = await buildSite({
        configFiles,
        cwd: io.cwd,
        outDir,
        cacheDir,
        env: io.env,
        userAgent: sourcesUserAgent,
        searchShardPages: shardPages === undefined ? undefined : Number(shardPages),
        catalogThreadCharacters: threadCharacters === undefined ? undefined : Number(threadCharacters),
        catalogThread,
        part,
        compare:
          baseArg === undefined
            ? undefined
            : async (data) => {
                const timeout = timeoutFromEnv(io.env);
                if (!timeout.ok) throw usageError(timeout.message, 'build');
                // A preview's modules (the diff, the evaluation) are loaded by a preview only.
                const { snapshotOfSource, subjectsToLoad } = await import('../kb/diff/snapshot.ts');
                const { diffPublished } = await import('../kb/diff/published-changes.ts');
                const { classifyDiffSide, evaluableSource, evaluateSides, openDiffSide } = await import('./diff-sides.ts');
                const baseSide = await openDiffSide(classifyDiffSide(baseArg, 'base', io.cwd), 'base', io, timeout.value);
                // The head is this build's own catalog; the base's subjects are loaded where the two differ.
                const head = await snapshotOfSource(data.kb, data.catalog, displayPath(data.kb.config.files[0]!, io.cwd));
                const diff = diffPublished(await baseSide.load(subjectsToLoad(baseSide.snapshot, head)), head);
                const evals = await evaluateSides(baseSide, evaluableSource(data.kb, data.catalog), io);
                return { diff: evals ? { ...diff, evals } : diff, label: baseArg };
              },
        pages: astroPagesStage(io.cwd),
        preparePages: astroPagesPreparation(io.cwd),
        reporter: createBuildReporter(io),
      });
    } catch (error) {
      if (!(error instanceof BuildError)) throw error;
      if (error.kind === 'config') {
        // As every command reports configuration errors: one per line (exit 2).
        throw new CliError(
          error.details[0] ?? error.message,
          2,
          error.details.slice(1).map((line) => `error: ${line}`),
        );
      }
      throw new CliError(
        error.message,
        1,
        error.details.map((line) => `error: ${line}`),
      );
    } finally {
      stopWatchingHeap();
    }
    const { counts } = result;
    io.err(
      `Built ${displayPath(result.outDir, io.cwd)}/${result.part ? ` (part: ${result.part.join(', ')})` : ''}: ${plural(counts.topics, 'topic')}, ${plural(counts.subjects, 'subject')} (${counts.hidden} hidden, ${counts.disabled} disabled, ${counts.skipped} skipped), ${plural(result.warnings.length, 'warning')}, ${seconds(result.ms)}`,
    );
    return result;
  }
}

/** The `--json` summary of a build. */
export function buildSummary(result: BuildResult): object {
  return {
    out: result.outDir,
    ...(result.part ? { part: result.part } : {}),
    mode: result.mode,
    counts: result.counts,
    warnings: result.warnings,
    phases: result.phases.map((p) => ({ name: p.name, text: p.text, seconds: Math.round(p.ms) / 1000 })),
    seconds: Math.round(result.ms) / 1000,
  };
}
