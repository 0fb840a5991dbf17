/** `syllabus build`: the site of a knowledge base (SPEC 6), built by Astro from the catalog, then indexed by Pagefind. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { changesBySubject, checkContent, diffPublished, hasContentErrors, loadMarkdownParser, snapshotOfSource, sortDiagnostics, subjectsToLoad } from '../kb/index.ts';
import { timeoutFromEnv } from '../remote/fetch-json.ts';
import { buildManifest, planBuild, type BuildManifest } from '../astro/build-plan.ts';
import { prepareSiteData, type SiteData } from '../astro/site-data.ts';
import { provideSiteData } from '../astro/site-data-access.ts';
import { staticFilesOf } from '../astro/static-files.ts';
import { loadCatalogMemo, saveCatalogMemo } from './catalog-memo.ts';
import { classifyDiffSide, openDiffSide } from './diff-sides.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths, failOnConfigErrors, formatDiagnostic } from './knowledge-base-options.ts';
import { summarizeCatalog, summaryPhaseText, type SummaryReport } from './llm-summaries.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { projectRoot } from './project-root.ts';
import { describeFetchedSources, fetchSources } from '../sources/fetch-sources.ts';
import { searchKeysOf, startSearchIndex, type SearchManifest } from './search-index.ts';

export const BUILD_HELP = `Usage: syllabus build [--config PATH]… [--out DIR] [--cache DIR] [--base SOURCE]

Builds the knowledge base into a static site: pages for people, search, and the files agents
read. Content errors (duplicate slugs, a missing subjects folder) stop the build; run
"syllabus check" to see every problem. Unchanged subjects are not rendered again: the cache
keeps their rendering between builds. URLs listed in a topic's links.txt are fetched (copies in
the cache are revalidated); a failed fetch is a warning, and the cached copy stands in. With
[kb.summaries], the model summarises what the cache lacks; a failed call is a warning, and the
subject keeps its extractive summary.

Options:
  -c, --config PATH   config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -o, --out DIR       output folder (default dist/)
      --cache DIR     build cache (default .syllabus-cache/ beside the first config file)
      --base SOURCE   a preview: also build /changes/, what changed since SOURCE (a kb.toml,
                      a built dist/ folder or a site URL), for listed subjects only, with a
                      banner on every changed page
  -h, --help          show this help

Exit codes: 0 built, 1 content errors or a failed build, 2 usage or configuration error.`;

/** Runs `build`; returns the exit code. */
export async function buildCommand(argv: string[], io: CommandIo): Promise<number> {
  const started = performance.now();
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, out: { type: 'string', short: 'o' }, cache: { type: 'string' }, base: { type: 'string' } }, 'build');
  if (values.help) {
    io.out(BUILD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`build takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'build');
  // Configuration errors stop the build before anything is read (exit 2).
  const config = configForCommand(values.config, io);
  const files = configPaths(values.config, io).map((p) => path.resolve(io.cwd, p));
  const outDir = path.resolve(io.cwd, values.out ?? 'dist');
  const cacheDir = path.resolve(io.cwd, values.cache ?? path.join(path.dirname(files[0]!), '.syllabus-cache'));
  const shown = (dir: string): string => {
    const relative = path.relative(io.cwd, dir);
    return relative === '' || relative.startsWith('..') ? dir : relative;
  };

  let phase = performance.now();
  /** The time since the last phase line, less `excluded` ms (a phase inside it that has its own line). */
  const lap = (excluded = 0): string => {
    const now = performance.now();
    const text = seconds(now - phase - excluded);
    phase = now;
    return text;
  };
  // URL sources first: the knowledge base opens with the documents they brought (SPEC 8).
  const sources = await fetchSources(config, { cacheDir, userAgent: userAgentOf(config.site.url) });
  const sourcesLine = sources.counts.urls > 0 ? `sources   ${describeFetchedSources(sources.counts)} (${lap()})` : undefined;
  const memo = loadCatalogMemo(cacheDir);
  // [kb.summaries]: the model's summaries replace the extractive ones before pages and files are made.
  const summaries: { report?: SummaryReport } = {};
  const data = await prepareSiteData(files, memo, {
    sources: sources.documents,
    summarize: async (catalog, config) => {
      if (!config.kb.summaries) return catalog;
      const done = await summarizeCatalog(catalog, config.kb.summaries, { cacheDir, env: io.env, nameOf: shown });
      summaries.report = done.report;
      return done.catalog;
    },
  });
  failOnConfigErrors(data.diagnostics, io);
  if (hasContentErrors(data.diagnostics)) {
    const errors = data.diagnostics.filter((d) => d.kind === 'content-error').map((d) => formatDiagnostic(d, io.cwd));
    throw new CliError(`the knowledge base has ${errors.length} content ${errors.length === 1 ? 'error' : 'errors'}; nothing was built.`, 1, errors.map((e) => `error: ${e}`));
  }
  // The build reports what `check` reports (SPEC 5): the content checks' warnings too.
  await loadMarkdownParser();
  const checked = sortDiagnostics([...data.diagnostics, ...checkContent(data.catalog, data.site, path.dirname(files[0]!)), ...sources.diagnostics]);
  const warnings = checked.filter((d) => d.kind === 'warning').map((d) => formatDiagnostic(d, io.cwd));
  warnings.push(...(summaries.report?.warnings ?? []));
  // SPEC 1: without [site] url, links stay relative and there is no sitemap; the build says so.
  if (!data.site.url) warnings.push(`${shown(files[0]!)}: [site] url is not set, so no sitemap.xml is written. Set it to the site's public address (e.g. url = "https://kb.example.com").`);
  for (const warning of warnings) io.err(`warning: ${warning}`);
  const counts = countSubjects(data);
  if (sourcesLine) io.err(sourcesLine);
  io.err(`read      ${plural(counts.topics, 'topic')}, ${plural(counts.subjects, 'subject')} (${lap(summaries.report?.ms)})`);
  if (summaries.report) io.err(`summaries ${summaryPhaseText(summaries.report)} (${seconds(summaries.report.ms)})`);
  if (values.base !== undefined) {
    const timeout = timeoutFromEnv(io.env);
    if (!timeout.ok) throw usageError(timeout.message, 'build');
    const baseSide = await openDiffSide(classifyDiffSide(values.base, 'base', io.cwd), 'base', io, timeout.value);
    // The head is this build's own catalog; the base's subjects are loaded where the two differ.
    const head = await snapshotOfSource(data.kb, data.catalog, shown(files[0]!));
    const diff = diffPublished(await baseSide.load(subjectsToLoad(baseSide.snapshot, head)), head);
    data.changes = { diff, bySubject: changesBySubject(diff) };
    const { summary } = diff;
    const what = diff.equal ? 'no changes' : `${summary.added} added, ${summary.removed} removed, ${summary.changed} changed, ${summary.moved} moved`;
    io.err(`changes   ${what} against ${values.base} (${lap()})`);
  }

  const root = projectRoot();
  const manifestFile = path.join(cacheDir, 'site-manifest.json');
  const markerFile = path.join(outDir, BUILD_MARKER);
  const staticFiles = staticFilesOf(data);
  const manifest = buildManifest(data, sourceFingerprint(root), staticFiles);
  const previousBuild = readPreviousManifest(manifestFile, markerFile);
  const previous = previousBuild?.manifest;
  const plan = planBuild(previous, manifest);
  if (plan.mode === 'none') {
    io.err(`pages     nothing changed since the last build of ${shown(outDir)}/ (${lap()})`);
  } else {
    if (plan.mode === 'incremental') data.only = { pages: plan.pages, files: plan.files };
    provideSiteData(data);
    // Astro builds inside the project, where its own packages resolve from the prerender step;
    // the result then replaces the output folder, or updates it in an incremental build.
    // Inside the project: Astro writes its prerender chunks beside the output, and they import
    // Astro from node_modules. One folder per cache, so that builds of different knowledge bases
    // can run at the same time.
    const staging = path.join(root, '.cache', 'site-builds', createHash('sha1').update(cacheDir).digest('hex').slice(0, 16));
    fs.rmSync(staging, { recursive: true, force: true });
    const searchKeys = searchKeysOf(data);
    // An incremental build leaves unchanged pages in place: Pagefind indexes those of the changed
    // shards while Astro builds the others.
    const early = plan.mode === 'incremental' ? await startSearchIndex(outDir, searchKeys, previousBuild?.search, new Set([...plan.pages].map((url) => url.slice(data.routes.base.length - 1))), replaceFolder) : undefined;
    try {
      await runAstro(root, staging, cacheDir, data);
    } catch (error) {
      await early?.abort();
      throw error;
    }
    const built = plan.mode === 'incremental' ? `${plan.pages.size} pages changed, ${plan.removedPages.length} removed` : `${countPages(data)} pages`;
    io.err(`pages     ${built}; ${data.renderStats.rendered} subjects rendered, ${data.renderStats.unchanged} unchanged (${lap()})`);
    fs.rmSync(markerFile, { force: true });
    let cleanup: Promise<void> = Promise.resolve();
    if (plan.mode === 'full') {
      cleanup = replaceFolder(staging, outDir);
    } else {
      applyChanges(staging, outDir, data.routes.base, plan.removedPages, plan.removedFiles);
    }
    const search = await (early ?? (await startSearchIndex(outDir, searchKeys, undefined, 'all', replaceFolder))).finish();
    await Promise.all([cleanup, search.cleanup]);
    const shards = search.manifest.shards;
    io.err(`search    ${search.pages} pages indexed, ${search.written} of ${plural(shards, 'shard')} written (${lap()})`);
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(manifestFile, JSON.stringify({ manifest, search: search.manifest } satisfies PreviousBuild));
    fs.writeFileSync(markerFile, manifestId(manifest));
  }
  saveCatalogMemo(cacheDir, memo);
  io.err(
    `Built ${shown(outDir)}/: ${plural(counts.topics, 'topic')}, ${plural(counts.subjects, 'subject')} (${counts.hidden} hidden, ${counts.disabled} disabled, ${counts.skipped} skipped), ${plural(warnings.length, 'warning')}, ${seconds(performance.now() - started)}`,
  );
  return 0;
}

/** The User-Agent of URL source fetches: `Syllabus/<version> (+<[site] url>)`, or `Syllabus/<version>` without a url. */
function userAgentOf(siteUrl: string | undefined): string {
  const { version } = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  return siteUrl ? `Syllabus/${version} (+${siteUrl})` : `Syllabus/${version}`;
}

/** Marks an output folder as the build the cache's manifest describes. */
const BUILD_MARKER = '.syllabus-build';

async function runAstro(root: string, outDir: string, cacheDir: string, data: SiteData): Promise<void> {
  process.env['SYLLABUS_OUT_DIR'] = outDir;
  process.env['SYLLABUS_ASTRO_CACHE'] = path.join(cacheDir, 'astro');
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  const { build } = await import('astro');
  // Parts of Astro's prerendering resolve from the current folder, whatever `root` says.
  const previous = process.cwd();
  process.chdir(root);
  try {
    await build({
      root,
      outDir,
      cacheDir: path.join(cacheDir, 'astro'),
      base: data.routes.base,
      ...(data.site.url ? { site: data.site.url } : {}),
      logLevel: 'warn',
    });
  } catch (error) {
    throw new CliError(`the site build failed: ${(error as Error).message}`, 1);
  } finally {
    process.chdir(previous);
  }
}

/** The key of everything in the project that shapes the site: its code, styles and dependencies. */
function sourceFingerprint(root: string): string {
  const hash = createHash('sha1');
  const add = (file: string): void => {
    hash.update(path.relative(root, file)).update('\0');
    try {
      hash.update(fs.readFileSync(file)).update('\0');
    } catch {
      hash.update('missing\0');
    }
  };
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else add(full);
    }
  };
  if (fs.existsSync(path.join(root, 'src'))) walk(path.join(root, 'src'));
  for (const file of ['astro.config.mjs', 'package.json', 'package-lock.json']) add(path.join(root, file));
  return hash.digest('hex');
}

function manifestId(manifest: BuildManifest): string {
  return createHash('sha1').update(JSON.stringify(manifest)).digest('hex');
}

/** What the cache remembers of the last build. */
interface PreviousBuild {
  manifest: BuildManifest;
  search: SearchManifest;
}

/** The previous build's manifests, when the output folder still holds that build. */
function readPreviousManifest(manifestFile: string, markerFile: string): PreviousBuild | undefined {
  try {
    const previous = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as PreviousBuild;
    return fs.readFileSync(markerFile, 'utf8') === manifestId(previous.manifest) ? previous : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Puts `from` in place of `to`. The old folder is moved aside at once and deleted in the
 * background: the returned promise settles when it is gone.
 */
function replaceFolder(from: string, to: string): Promise<void> {
  const aside = `${to}.old-${process.pid}`;
  let old: Promise<void> = Promise.resolve();
  if (fs.existsSync(to)) {
    fs.renameSync(to, aside);
    old = fs.promises.rm(aside, { recursive: true, force: true });
  }
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch {
    fs.cpSync(from, to, { recursive: true });
    fs.rmSync(from, { recursive: true, force: true });
  }
  return old;
}

/** Moves the files of an incremental build into the previous output, and removes what no longer exists. */
function applyChanges(staging: string, outDir: string, base: string, removedPages: string[], removedFiles: string[]): void {
  const move = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      const to = path.join(outDir, path.relative(staging, from));
      if (entry.isDirectory()) {
        fs.mkdirSync(to, { recursive: true });
        move(from);
      } else {
        moveFile(from, to);
      }
    }
  };
  move(staging);
  fs.rmSync(staging, { recursive: true, force: true });
  for (const url of removedPages) {
    const local = decodeURIComponent(url.slice(base.length));
    fs.rmSync(path.join(outDir, local, 'index.html'), { force: true });
    removeEmptyFolders(outDir, path.join(outDir, local));
  }
  for (const file of removedFiles) {
    fs.rmSync(path.join(outDir, file), { force: true });
    removeEmptyFolders(outDir, path.dirname(path.join(outDir, file)));
  }
}

/** Moves a file, copying it when the two places are on different file systems. */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}

function removeEmptyFolders(root: string, dir: string): void {
  for (let current = dir; current.startsWith(root + path.sep); current = path.dirname(current)) {
    try {
      fs.rmdirSync(current);
    } catch {
      return;
    }
  }
}

function countSubjects(data: SiteData): { topics: number; subjects: number; hidden: number; disabled: number; skipped: number } {
  const subjects = data.catalog.topics.flatMap((t) => t.subjects);
  return {
    topics: data.catalog.topics.length,
    subjects: subjects.length,
    hidden: subjects.filter((s) => s.hidden).length,
    disabled: data.kb.topics().reduce((sum, t) => sum + t.disabledCount, 0),
    skipped: subjects.filter((s) => s.skipped !== null).length,
  };
}

function countPages(data: SiteData): number {
  // Home, search and 404, then the topics and the subjects.
  return 3 + data.routes.topics.length + data.routes.subjects.length;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
