/**
 * Site-build benchmark (`npm run bench:site`, and the end of `npm run bench`): prints figures,
 * asserts nothing, and fails only when a build fails. Copies the tldr corpus (one topic per
 * platform folder) into a temporary folder with a generated kb.toml and times `syllabus build`,
 * run as a child process, in four scenarios, each the median of BENCH_RUNS runs (default 3):
 *  - a full build into an output folder and a cache not there yet;
 *  - a rebuild with nothing changed (the previous output and cache kept);
 *  - a rebuild after one subject changed (a different line appended at each run);
 *  - the same in `syllabus build --watch`: started on the last build, which it builds again
 *    (nothing changed), then timed from the subject's edit to the line of the build that follows;
 *  - a full build of a quarter of the corpus (every 4th file of each folder, sorted by name).
 * The first three run in rounds with the bare unified floor (scripts/bench-floor.ts: the same
 * pages to HTML in one process, nothing else): floor, full build, nothing changed, one subject,
 * then the next round, so that each ratio is also taken between runs minutes apart, under the
 * same load on the machine, and printed pair by pair.
 * Peak memory is sampled from `/proc` over the build's whole process tree, Pagefind's indexing
 * service included (scripts/bench-process-memory.ts): the peak of each process, grouped by
 * command, and the largest over a scenario's runs. HTML pages and dist size are those of the
 * scenario's last run; the phases are those `syllabus build --json` reports, medians over the
 * full builds. Each ratio is printed beside its target (content/guide/performance.md).
 *
 * Builds of one checkout must not overlap: Astro's prerender step uses the project's own
 * `.astro/` folder, so a build or test run started meanwhile in this checkout can fail this one.
 *
 * Environment: BENCH_RUNS (runs per scenario), BENCH_CORPUS (the folder of platform folders,
 * default /work/shared/corpora/tldr/pages).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, NODE, ROOT, TLDR_PAGES, median } from './bench-common.ts';
import { SAMPLE_MS, canSampleMemory, formatPeaks, megabytes, mergePeaks, runSampled, sampleProcessTree, summarisePeaks, tailOf, type TreePeaks } from './bench-process-memory.ts';

const FLOOR_SCRIPT = path.join(ROOT, 'scripts', 'bench-floor.ts');

/** The subject edited before each one-subject rebuild (relative to the pages folder). */
const EDITED_SUBJECT = 'common/tar.md';
/** The quarter corpus keeps every QUARTER_STEP-th file of each folder. */
const QUARTER_STEP = 4;
const SCALING_TARGET = 4.4;
/** Every process of a build stays below this peak. */
const MEMORY_TARGET_BYTES = 1024 * 1024 * 1024;
/** A full build takes at most this many times the floor. */
const FLOOR_TARGET = 2;
/** A one-subject rebuild takes at most this share of a full build. */
const REBUILD_TARGET = 0.15;
const RESERVED_TOPIC_IDS = new Set(['kb', 'pagefind', 'search', 'changes', 'raw', 'assets', '_astro']);
const STDERR_TAIL_LINES = 40;

/** An expected failure: a build that failed, a corpus or setting that cannot be benchmarked. */
class BenchFailure extends Error {}

/** Runs per scenario: BENCH_RUNS, a positive integer, default 3. */
function runsPerScenario(): number {
  const raw = process.env['BENCH_RUNS'] ?? '3';
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) throw new BenchFailure(`BENCH_RUNS must be a positive integer (got ${JSON.stringify(raw)}).`);
  return runs;
}

/** Why `id` cannot be a topic id, or undefined when it can. */
function topicIdProblem(id: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(id)) return 'a topic id starts with a letter and has only letters, digits, "-" and "_"';
  if (RESERVED_TOPIC_IDS.has(id)) return 'it is a reserved id';
  return undefined;
}

/** The files under `dir`, as paths relative to it, sorted by code point. */
function filesUnder(dir: string): string[] {
  const files: string[] = [];
  const visit = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) files.push(child);
    }
  };
  visit('');
  return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

interface Site {
  dir: string;
  config: string;
  dist: string;
  cache: string;
  topics: number;
  subjects: number;
  /** One copied subject, relative to the site folder, for the one-subject edit. */
  edited: string;
}

/**
 * Copies the platform folders of `corpus` into `dir/pages` (every `step`-th file of each, sorted
 * by name) and writes `dir/kb.toml` with one topic per platform. Copies are writable, whatever
 * the corpus's modes.
 */
function prepareSite(corpus: string, dir: string, step: number): Site {
  const platforms = fs
    .readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  let toml = '[site]\ntitle = "tldr"\n';
  let subjects = 0;
  let edited: string | undefined;
  for (const platform of platforms) {
    const problem = topicIdProblem(platform);
    if (problem) throw new BenchFailure(`the platform folder ${JSON.stringify(platform)} cannot be a topic: ${problem}.`);
    toml += `\n[kb.topic.${platform}]\ntitle = ${JSON.stringify(`tldr pages: ${platform}`)}\nsubjects = ${JSON.stringify(`pages/${platform}`)}\n`;
    const files = filesUnder(path.join(corpus, platform)).filter((_, index) => index % step === 0);
    for (const file of files) {
      const target = path.join(dir, 'pages', platform, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, fs.readFileSync(path.join(corpus, platform, file)));
      const relative = `${platform}/${file}`;
      if (edited === undefined || relative === EDITED_SUBJECT) edited = relative;
    }
    subjects += files.length;
  }
  if (edited === undefined) throw new BenchFailure(`${corpus} has no subjects.`);
  const config = path.join(dir, 'kb.toml');
  fs.writeFileSync(config, toml);
  return {
    dir,
    config,
    dist: path.join(dir, 'dist'),
    cache: path.join(dir, '.syllabus-cache'),
    topics: platforms.length,
    subjects,
    edited: path.join('pages', edited),
  };
}

/** Whether `syllabus build` takes `--cache DIR`; also brings the CLI's bundle up to date. */
function cliTakesCache(scratch: string): boolean {
  const probe = spawnSync(NODE, [BIN, 'build', '--cache', path.join(scratch, 'probe-cache'), '--help'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  if (probe.status === 2 && probe.stderr.includes('--cache')) return false;
  throw new BenchFailure(`"syllabus build --help" failed (exit ${probe.status}):\n${probe.stderr}`);
}

interface Run {
  ms: number;
  /** Peak memory of every process of the run's tree. */
  peaks: TreePeaks;
  /** The phases `syllabus build --json` reported (none for the floor). */
  phases: { name: string; text: string; seconds: number }[];
}

let interrupted = false;

/** Runs `args` on the project's Node as a child process, sampling its tree's memory; throws BenchFailure when it fails. */
async function runNode(args: string[], cwd: string, what: string): Promise<{ ms: number; peaks: TreePeaks; stdout: string }> {
  if (interrupted) throw new BenchFailure('interrupted.');
  const { code, signal, ms, peaks, stdout, stderr } = await runSampled(NODE, args, cwd);
  if (interrupted) throw new BenchFailure('interrupted.');
  if (code !== 0) throw new BenchFailure(`${what} exited ${code ?? `on ${signal}`}; the end of its stderr:\n${tailOf(stderr, STDERR_TAIL_LINES)}`);
  return { ms, peaks, stdout };
}

/** Runs one `syllabus build --json` of `site`; throws BenchFailure when it fails. */
async function build(site: Site, useCache: boolean): Promise<Run> {
  const args = [BIN, 'build', '--config', site.config, '--out', site.dist, '--json', ...(useCache ? ['--cache', site.cache] : [])];
  const { ms, peaks, stdout } = await runNode(args, site.dir, `syllabus build --config ${site.config}`);
  let phases: Run['phases'] = [];
  try {
    phases = (JSON.parse(stdout) as { phases?: Run['phases'] }).phases ?? [];
  } catch {
    // A CLI without --json's summary still builds: the figures just lack its phases.
  }
  return { ms, peaks, phases };
}

/**
 * Starts `syllabus build --watch` on `site`, waits for its first build, appends `line` to the
 * edited subject and times the wait for the line of the build that follows (what a writer waits
 * for after saving); then stops it. The peaks are the whole run's, first build included.
 */
async function watchedRebuild(site: Site, useCache: boolean, line: string): Promise<Run> {
  if (interrupted) throw new BenchFailure('interrupted.');
  const args = [BIN, 'build', '--watch', '--config', site.config, '--out', site.dist, ...(useCache ? ['--cache', site.cache] : [])];
  const child = spawn(NODE, args, { cwd: site.dir, stdio: ['ignore', 'ignore', 'pipe'] });
  const sampler = child.pid === undefined ? undefined : sampleProcessTree(child.pid);
  let stderr = '';
  let seen: (() => void) | undefined;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr += chunk;
    seen?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const lines = (prefix: string): number => stderr.split('\n').filter((l) => l.startsWith(prefix)).length;
  /** Resolves once stderr holds `count` lines starting with `prefix`; throws when the command ends first. */
  const until = async (prefix: string, count: number): Promise<void> => {
    let ended = false;
    void exited.then(() => {
      ended = true;
      seen?.();
    });
    while (lines(prefix) < count) {
      if (ended || interrupted) throw new BenchFailure(`syllabus build --watch ended before its build; the end of its stderr:\n${tailOf(stderr, STDERR_TAIL_LINES)}`);
      await new Promise<void>((resolve) => (seen = resolve));
    }
  };
  try {
    await until('Watching for changes', 1);
    const start = process.hrtime.bigint();
    fs.appendFileSync(path.join(site.dir, site.edited), line);
    await until('Built ', 2);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (lines('error: ') > 0) throw new BenchFailure(`syllabus build --watch failed a build; the end of its stderr:\n${tailOf(stderr, STDERR_TAIL_LINES)}`);
    child.kill('SIGINT');
    if ((await exited) !== 0) throw new BenchFailure(`syllabus build --watch did not stop cleanly; the end of its stderr:\n${tailOf(stderr, STDERR_TAIL_LINES)}`);
    return { ms, peaks: sampler?.stop() ?? summarisePeaks([]), phases: [] };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    sampler?.stop();
  }
}

/** Runs the bare unified floor on the site's pages into `out`, a folder not there yet. */
async function floor(site: Site, out: string): Promise<Run> {
  const { ms, peaks, stdout } = await runNode([FLOOR_SCRIPT, path.join(site.dir, 'pages'), out], site.dir, 'the unified floor');
  if (Number(stdout.trim()) !== site.subjects) throw new BenchFailure(`the unified floor rendered ${stdout.trim()} pages of ${site.subjects}.`);
  return { ms, peaks, phases: [] };
}

/** The number of HTML files under `dist` and the size of all its files, in bytes. */
function distStats(dist: string): { pages: number; bytes: number } {
  let pages = 0;
  let bytes = 0;
  for (const file of filesUnder(dist)) {
    if (file.endsWith('.html')) pages++;
    bytes += fs.statSync(path.join(dist, file)).size;
  }
  return { pages, bytes };
}

interface Scenario {
  label: string;
  runs: Run[];
  pages: number;
  bytes: number;
}

/** Runs `prepare` then one build, `runs` times; the output counted is the last run's. */
async function scenario(label: string, site: Site, runs: number, useCache: boolean, prepare: (run: number) => void): Promise<Scenario> {
  const results: Run[] = [];
  for (let run = 0; run < runs; run++) {
    prepare(run);
    results.push(await build(site, useCache));
    process.stderr.write(`  ${label}: run ${run + 1}/${runs} ${(results.at(-1)!.ms / 1000).toFixed(2)} s\n`);
  }
  return { label, runs: results, ...distStats(site.dist) };
}

/** The rounds of the floor and the site's three builds: each round runs the floor, a full build from empty folders, then a rebuild with nothing changed and one after `site.edited` changed. */
async function rounds(
  site: Site,
  runs: number,
  useCache: boolean,
  floorOut: string,
): Promise<Pick<Figures['scenarios'], 'floorRuns' | 'fullBuild' | 'noChange' | 'oneSubject' | 'watching'>> {
  const floors: Run[] = [];
  const builds: Record<'fullBuild' | 'noChange' | 'oneSubject' | 'watching', Run[]> = { fullBuild: [], noChange: [], oneSubject: [], watching: [] };
  const labels = {
    fullBuild: 'full build',
    noChange: 'rebuild, nothing changed',
    oneSubject: 'rebuild, one subject changed',
    watching: 'one subject changed, build --watch',
  };
  const stats: Partial<Record<keyof typeof builds, { pages: number; bytes: number }>> = {};
  const timed = async (scenario: keyof typeof builds, run: number, made = (): Promise<Run> => build(site, useCache)): Promise<void> => {
    builds[scenario].push(await made());
    process.stderr.write(`  ${labels[scenario]}: run ${run + 1}/${runs} ${(builds[scenario].at(-1)!.ms / 1000).toFixed(2)} s\n`);
    if (run === runs - 1) stats[scenario] = distStats(site.dist);
  };
  for (let run = 0; run < runs; run++) {
    floors.push(await floor(site, `${floorOut}-${run + 1}`));
    process.stderr.write(`  unified floor: run ${run + 1}/${runs} ${(floors.at(-1)!.ms / 1000).toFixed(2)} s\n`);
    freshOutputs(site);
    await timed('fullBuild', run);
    await timed('noChange', run);
    fs.appendFileSync(path.join(site.dir, site.edited), `\nEdited by the site benchmark, run ${run + 1}.\n`);
    await timed('oneSubject', run);
    await timed('watching', run, () => watchedRebuild(site, useCache, `\nEdited by the site benchmark while watching, run ${run + 1}.\n`));
  }
  const finished = (key: keyof typeof builds): Scenario => ({ label: labels[key], runs: builds[key], ...stats[key]! });
  return {
    floorRuns: { label: 'unified floor (no layout, no search)', runs: floors, ...distStats(`${floorOut}-${runs}`) },
    fullBuild: finished('fullBuild'),
    noChange: finished('noChange'),
    oneSubject: finished('oneSubject'),
    watching: finished('watching'),
  };
}

let outputs = 0;

/**
 * Points the site at an output folder and a cache that are not there yet. The previous ones are
 * kept until the benchmark ends, not deleted: on a file system without a journal (this machine's
 * ext4), making files soon after many were deleted costs kernel time that grows with the number
 * deleted (ext4 steps over recently deleted inodes), which would charge each run for the last
 * one's output; a CI runner builds in a fresh checkout.
 */
function freshOutputs(site: Site): void {
  outputs++;
  site.dist = path.join(site.dir, `dist-${outputs}`);
  site.cache = path.join(site.dir, `.syllabus-cache-${outputs}`);
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const time = (s: Scenario) => median(s.runs.map((r) => r.ms));
const verdict = (met: boolean) => (met ? 'met' : 'missed');
/** The 1- and 5-minute load averages: how busy the machine was while it measured. */
const loadAverage = () =>
  os
    .loadavg()
    .slice(0, 2)
    .map((load) => load.toFixed(1))
    .join(', ');

function printTable(scenarios: Scenario[]): void {
  const header = ['scenario', 'median s', 'min s', 'max s', 'largest process MB', 'HTML pages', 'dist MB'];
  const rows = scenarios.map((s) => {
    const times = s.runs.map((r) => r.ms);
    const largest = mergePeaks(s.runs.map((r) => r.peaks)).largest;
    return [
      s.label,
      seconds(median(times)),
      seconds(Math.min(...times)),
      seconds(Math.max(...times)),
      largest === 0 ? 'n/a' : megabytes(largest),
      String(s.pages),
      (s.bytes / 1024 / 1024).toFixed(1),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
}

/** Runs the site-build benchmark and prints its figures; returns the exit code. */
export async function runSiteBenchmark(corpus: string = TLDR_PAGES): Promise<number> {
  const onInterrupt = () => {
    interrupted = true;
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    printFigures(await benchmark(corpus));
    return 0;
  } catch (error) {
    if (!(error instanceof BenchFailure)) throw error;
    console.error(`error: ${error.message}`);
    return interrupted ? 130 : 1;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
  }
}

interface Figures {
  full: Site;
  quarter: Site;
  scenarios: { floorRuns: Scenario; fullBuild: Scenario; noChange: Scenario; oneSubject: Scenario; watching: Scenario; quarterBuild: Scenario };
}

/** Copies the corpus, runs the floor and the four scenarios and removes the copies. */
async function benchmark(corpus: string): Promise<Figures> {
  if (!fs.existsSync(corpus)) throw new BenchFailure(`no corpus at ${corpus}; set BENCH_CORPUS to a folder of platform folders (tldr's pages/).`);
  const runs = runsPerScenario();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-site-'));
  try {
    const full = prepareSite(corpus, path.join(scratch, 'full'), 1);
    const quarter = prepareSite(corpus, path.join(scratch, 'quarter'), QUARTER_STEP);
    const useCache = cliTakesCache(scratch);
    console.log(
      `Site build: ${corpus}, ${full.subjects} subjects in ${full.topics} topics (quarter: ${quarter.subjects}); ${runs === 1 ? '1 run' : `${runs} runs, median,`} per scenario; in rounds of the unified floor, a full build, and the two rebuilds of that build`,
    );
    console.log(`Node ${spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${os.cpus().length} cores, load average ${loadAverage()} at the start; in ${scratch}`);
    if (!useCache) console.log('note: this CLI rejects --cache, so the builds run without it and the cache is whatever the CLI keeps itself (not emptied here).');
    if (!canSampleMemory()) console.log('note: no /proc, so peak memory is not measured.');

    const { floorRuns, fullBuild, noChange, oneSubject, watching } = await rounds(full, runs, useCache, path.join(scratch, 'floor'));
    const quarterBuild = await scenario(`quarter: full build (${quarter.subjects})`, quarter, runs, useCache, () => freshOutputs(quarter));
    return { full, quarter, scenarios: { floorRuns, fullBuild, noChange, oneSubject, watching, quarterBuild } };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Each phase's median time over `runs`, in the order of the first run. */
function medianPhases(runs: Run[]): { name: string; text: string; ms: number }[] {
  const first = runs.find((r) => r.phases.length > 0);
  if (!first) return [];
  return first.phases.map((phase, index) => {
    const times = runs.flatMap((r) => {
      const same = r.phases[index]?.name === phase.name ? r.phases[index] : r.phases.find((p) => p.name === phase.name);
      return same ? [same.seconds] : [];
    });
    return { name: phase.name, text: phase.text, ms: median(times) * 1000 };
  });
}

function printFigures({ full, quarter, scenarios }: Figures): void {
  console.log(`load average at the end: ${loadAverage()} (other work on the machine slows the build more than the floor)`);
  const { floorRuns, fullBuild, noChange, oneSubject, watching, quarterBuild } = scenarios;
  const builds = [fullBuild, noChange, oneSubject, watching, quarterBuild];
  console.log('');
  printTable([floorRuns, ...builds]);
  console.log('');
  const floorRatio = time(fullBuild) / time(floorRuns);
  console.log(`full / floor:         ${floorRatio.toFixed(2)}×   (target ≤ ${FLOOR_TARGET}×: ${verdict(floorRatio <= FLOOR_TARGET)})`);
  // Each build against the floor run just before it, under the same load: shows how steady the ratio was.
  const pairs = fullBuild.runs.map((run, i) => run.ms / floorRuns.runs[i]!.ms);
  console.log(`  pair by pair:       ${pairs.map((ratio) => `${ratio.toFixed(2)}×`).join(', ')}`);
  const rebuildRatio = time(oneSubject) / time(fullBuild);
  console.log(`one-subject / full:   ${rebuildRatio.toFixed(2)}×   (target ≤ ${REBUILD_TARGET}×: ${verdict(rebuildRatio <= REBUILD_TARGET)}; edited ${full.edited})`);
  // Each rebuild against the full build of its round, minutes before it.
  const rebuildPairs = oneSubject.runs.map((run, i) => run.ms / fullBuild.runs[i]!.ms);
  console.log(`  pair by pair:       ${rebuildPairs.map((ratio) => `${ratio.toFixed(2)}×`).join(', ')}`);
  const watchRatio = time(watching) / time(fullBuild);
  console.log(
    `watching / full:      ${watchRatio.toFixed(2)}×   (the one-subject rebuild in build --watch; target ≤ ${REBUILD_TARGET}×: ${verdict(watchRatio <= REBUILD_TARGET)})`,
  );
  const watchPairs = watching.runs.map((run, i) => run.ms / fullBuild.runs[i]!.ms);
  console.log(`  pair by pair:       ${watchPairs.map((ratio) => `${ratio.toFixed(2)}×`).join(', ')}`);
  console.log(`no-change / full:     ${(time(noChange) / time(fullBuild)).toFixed(2)}×`);
  const scaling = time(fullBuild) / time(quarterBuild);
  console.log(
    `full / quarter:       ${scaling.toFixed(2)}×   for ${(full.subjects / quarter.subjects).toFixed(2)}× the subjects (target ≤ ${SCALING_TARGET}×: ${verdict(scaling <= SCALING_TARGET)})`,
  );

  const phases = medianPhases(fullBuild.runs);
  if (phases.length > 0) {
    console.log('');
    console.log('full build phases (median; phases that overlap are timed apart):');
    for (const phase of phases) {
      console.log(`  ${phase.name.padEnd(10)} ${seconds(phase.ms).padStart(7)} s  ${((phase.ms / time(fullBuild)) * 100).toFixed(0).padStart(3)} %  ${phase.text}`);
    }
  }

  const all = mergePeaks(builds.flatMap((s) => s.runs.map((r) => r.peaks)));
  if (all.largest > 0) {
    console.log('');
    console.log(`peak memory per command (every process of each run, sampled from /proc every ${SAMPLE_MS} ms):`);
    for (const s of [floorRuns, ...builds]) console.log(`  ${s.label.padEnd(36)} ${formatPeaks(mergePeaks(s.runs.map((r) => r.peaks)))}`);
    console.log(
      `largest build process: ${megabytes(all.largest)} MB   (target: every process < ${megabytes(MEMORY_TARGET_BYTES)} MB: ${verdict(all.largest < MEMORY_TARGET_BYTES)})`,
    );
  }
}

if (import.meta.main) process.exitCode = await runSiteBenchmark();
