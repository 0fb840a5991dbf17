/**
 * Site-build benchmark (`npm run bench:site`, and the end of `npm run bench`): prints figures,
 * asserts nothing, and fails only when a build fails. Copies the tldr corpus (one topic per
 * platform folder) into a temporary folder with a generated kb.toml and times `syllabus build`,
 * run as a child process, in four scenarios, each the median of BENCH_RUNS runs (default 3):
 *  - a full build from an empty output folder and an empty cache;
 *  - a rebuild with nothing changed (the previous output and cache kept);
 *  - a rebuild after one subject changed (a different line appended at each run);
 *  - a full build of a quarter of the corpus (every 4th file of each folder, sorted by name).
 * Peak memory is the largest over a scenario's runs of the child's maximum resident set size, as
 * `/usr/bin/time` reports it (the largest single process among the build and the children it
 * waited for); HTML pages and dist size are those of the scenario's last run.
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
import { BIN, NODE, TLDR_PAGES, median } from './bench-common.ts';

const TIME = '/usr/bin/time';

/** The subject edited before each one-subject rebuild (relative to the pages folder). */
const EDITED_SUBJECT = 'common/tar.md';
/** The quarter corpus keeps every QUARTER_STEP-th file of each folder. */
const QUARTER_STEP = 4;
const SCALING_TARGET = 4.4;
const MEMORY_TARGET_MB = 1024;
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
  /** Peak resident set size in MB, or undefined without /usr/bin/time. */
  rssMb: number | undefined;
}

let interrupted = false;

/** Runs one `syllabus build` of `site` as a child process; throws BenchFailure when it fails. */
async function build(site: Site, useCache: boolean, scratch: string): Promise<Run> {
  if (interrupted) throw new BenchFailure('interrupted.');
  const args = [BIN, 'build', '--config', site.config, '--out', site.dist, ...(useCache ? ['--cache', site.cache] : [])];
  const timeFile = path.join(scratch, 'time.txt');
  const measured = fs.existsSync(TIME);
  const [command, commandArgs] = measured ? [TIME, ['-f', '%e %M', '-o', timeFile, NODE, ...args]] : [NODE, args];
  const start = process.hrtime.bigint();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd: site.dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-65_536);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (interrupted) throw new BenchFailure('interrupted.');
  if (code !== 0) {
    const tail = stderr.trimEnd().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
    throw new BenchFailure(`syllabus build --config ${site.config} exited ${code ?? 'on a signal'}; the end of its stderr:\n${tail}`);
  }
  if (!measured) return { ms, rssMb: undefined };
  const [, maxRssKb] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ');
  return { ms, rssMb: Number(maxRssKb) / 1024 };
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
async function scenario(label: string, site: Site, runs: number, useCache: boolean, scratch: string, prepare: (run: number) => void): Promise<Scenario> {
  const results: Run[] = [];
  for (let run = 0; run < runs; run++) {
    prepare(run);
    results.push(await build(site, useCache, scratch));
    process.stderr.write(`  ${label}: run ${run + 1}/${runs} ${(results.at(-1)!.ms / 1000).toFixed(2)} s\n`);
  }
  return { label, runs: results, ...distStats(site.dist) };
}

function emptyOutputs(site: Site): void {
  fs.rmSync(site.dist, { recursive: true, force: true });
  fs.rmSync(site.cache, { recursive: true, force: true });
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const megabytes = (mb: number | undefined) => (mb === undefined ? 'n/a' : mb.toFixed(0));

function printTable(scenarios: Scenario[]): void {
  const header = ['scenario', 'median s', 'min s', 'max s', 'peak RSS MB', 'HTML pages', 'dist MB'];
  const rows = scenarios.map((s) => {
    const times = s.runs.map((r) => r.ms);
    const rss = s.runs.every((r) => r.rssMb !== undefined) ? Math.max(...s.runs.map((r) => r.rssMb!)) : undefined;
    return [s.label, seconds(median(times)), seconds(Math.min(...times)), seconds(Math.max(...times)), megabytes(rss), String(s.pages), (s.bytes / 1024 / 1024).toFixed(1)];
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
  scenarios: { fullBuild: Scenario; noChange: Scenario; oneSubject: Scenario; quarterBuild: Scenario };
}

/** Copies the corpus, runs the four scenarios and removes the copies. */
async function benchmark(corpus: string): Promise<Figures> {
  if (!fs.existsSync(corpus)) throw new BenchFailure(`no corpus at ${corpus}; set BENCH_CORPUS to a folder of platform folders (tldr's pages/).`);
  const runs = runsPerScenario();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-site-'));
  try {
    const full = prepareSite(corpus, path.join(scratch, 'full'), 1);
    const quarter = prepareSite(corpus, path.join(scratch, 'quarter'), QUARTER_STEP);
    const useCache = cliTakesCache(scratch);
    console.log(
      `Site build: ${corpus}, ${full.subjects} subjects in ${full.topics} topics (quarter: ${quarter.subjects}); ${runs === 1 ? '1 run' : `${runs} runs, median,`} per scenario`,
    );
    console.log(`Node ${spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${os.cpus().length} cores; in ${scratch}`);
    if (!useCache) console.log('note: this CLI rejects --cache, so the builds run without it and the cache is whatever the CLI keeps itself (not emptied here).');
    if (!fs.existsSync(TIME)) console.log(`note: no ${TIME}, so peak memory is not measured.`);

    const fullBuild = await scenario('full build', full, runs, useCache, scratch, () => emptyOutputs(full));
    const noChange = await scenario('rebuild, nothing changed', full, runs, useCache, scratch, () => {});
    const oneSubject = await scenario('rebuild, one subject changed', full, runs, useCache, scratch, (run) => {
      fs.appendFileSync(path.join(full.dir, full.edited), `\nEdited by the site benchmark, run ${run + 1}.\n`);
    });
    const quarterBuild = await scenario(`quarter: full build (${quarter.subjects})`, quarter, runs, useCache, scratch, () => emptyOutputs(quarter));
    return { full, quarter, scenarios: { fullBuild, noChange, oneSubject, quarterBuild } };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

function printFigures({ full, quarter, scenarios }: Figures): void {
  const { fullBuild, noChange, oneSubject, quarterBuild } = scenarios;
  const all = [fullBuild, noChange, oneSubject, quarterBuild];
  console.log('');
  printTable(all);
  const time = (s: Scenario) => median(s.runs.map((r) => r.ms));
  console.log('');
  console.log(`no-change / full:     ${(time(noChange) / time(fullBuild)).toFixed(2)}×`);
  console.log(`one-subject / full:   ${(time(oneSubject) / time(fullBuild)).toFixed(2)}×   (edited ${full.edited})`);
  const scaling = time(fullBuild) / time(quarterBuild);
  console.log(
    `full / quarter:       ${scaling.toFixed(2)}×   for ${(full.subjects / quarter.subjects).toFixed(2)}× the subjects (target ≤ ${SCALING_TARGET}×: ${scaling <= SCALING_TARGET ? 'met' : 'missed'})`,
  );
  const peaks = all.flatMap((s) => s.runs.map((r) => r.rssMb)).filter((p) => p !== undefined);
  if (peaks.length > 0) {
    const peak = Math.max(...peaks);
    console.log(`peak memory:          ${peak.toFixed(0)} MB   (target < ${MEMORY_TARGET_MB} MB: ${peak < MEMORY_TARGET_MB ? 'met' : 'missed'})`);
  }
}

if (import.meta.main) process.exitCode = await runSiteBenchmark();
