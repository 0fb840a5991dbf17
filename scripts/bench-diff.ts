/**
 * The diff benchmark (`npm run bench:diff`, and part of `npm run bench`): prints figures, asserts
 * nothing. Copies the tldr corpus (one topic per platform folder) into a base knowledge base, and
 * into a head where 1 % of the subjects changed (every 100th file by name gets a new example),
 * writes both builds' endpoints (`readSiteData` + `writeStaticFiles`, as scripts/bench-agents.ts
 * does: the HTML pages are not read by the diff), then times whole `syllabus diff` processes,
 * each the median of BENCH_RUNS runs (default 5):
 *  - dist vs dist, markdown and `--json`;
 *  - a served site (127.0.0.1) vs dist, markdown;
 *  - kb.toml vs kb.toml (sources: both catalogs computed), markdown;
 * and prints the size of the outputs.
 *
 * Environment: BENCH_RUNS, BENCH_CORPUS (the folder of platform folders, default
 * /work/shared/corpora/tldr/pages).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeStaticFiles } from '../src/build/static-file.ts';
import { readSiteData } from '../src/build/site-data.ts';
import { staticFilesOf } from '../src/build/endpoints.ts';
import { serveStatic } from '../src/cli/static-server.ts';
import { BIN, median } from './bench-common.ts';

const CORPUS = process.env['BENCH_CORPUS'] ?? '/work/shared/corpora/tldr/pages';
/** Every CHANGE_STEP-th subject (by path) changes in the head: 1 %. */
const CHANGE_STEP = 100;

/** The files under `dir`, relative to it, sorted by code point. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Writes `<dir>/kb.toml` (one topic per platform) and the corpus below `<dir>/pages`; returns the subject paths. */
function copyCorpus(dir: string): string[] {
  const platforms = fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  let toml = '[site]\ntitle = "tldr"\n';
  for (const platform of platforms) toml += `\n[kb.topic.${platform}]\ntitle = ${JSON.stringify(`tldr pages: ${platform}`)}\nsubjects = ${JSON.stringify(`pages/${platform}`)}\n`;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'kb.toml'), toml);
  fs.cpSync(CORPUS, path.join(dir, 'pages'), { recursive: true });
  return filesUnder(path.join(dir, 'pages'));
}

/** Writes the endpoints of `<dir>/kb.toml` into `<dir>/dist`. */
async function publish(dir: string): Promise<void> {
  const data = await readSiteData([path.join(dir, 'kb.toml')], process.cwd());
  writeStaticFiles(path.join(dir, 'dist'), staticFilesOf(data));
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** Runs `syllabus diff <args>` `runs` times (after one run not counted); the median time and the last output. */
async function time(args: string[], cwd: string, runs: number): Promise<{ ms: number; stdout: string }> {
  // Not spawnSync: a site served from this process answers one of the runs.
  const run = () => promisify(execFile)(process.execPath, [BIN, 'diff', ...args], { cwd, maxBuffer: 256 * 1024 * 1024 });
  let { stdout } = await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    ({ stdout } = await run());
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { ms: median(times), stdout };
}

/** Runs the diff benchmark and prints its figures. */
export async function runDiffBenchmark(): Promise<void> {
  console.log('\nDiff: syllabus diff of two tldr builds, 1 % of the subjects changed\n');
  if (!fs.existsSync(CORPUS)) {
    console.log(`skipped: no corpus at ${CORPUS} (set BENCH_CORPUS).`);
    return;
  }
  const runs = Number(process.env['BENCH_RUNS'] ?? '5');
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`BENCH_RUNS must be a positive integer (got ${JSON.stringify(process.env['BENCH_RUNS'])}).`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-diff-'));
  try {
    const subjects = copyCorpus(path.join(dir, 'base'));
    copyCorpus(path.join(dir, 'head'));
    const changed = subjects.filter((_, index) => index % CHANGE_STEP === 0);
    for (const [i, file] of changed.entries()) {
      fs.appendFileSync(path.join(dir, 'head', 'pages', file), `\n- A new example, number ${i}:\n\n\`example --flag ${i}\`\n`);
    }
    const start = process.hrtime.bigint();
    await publish(path.join(dir, 'base'));
    await publish(path.join(dir, 'head'));
    console.log(
      `${subjects.length.toLocaleString('en')} subjects, ${changed.length} changed; both builds' endpoints written in ${(Number(process.hrtime.bigint() - start) / 1e9).toFixed(1)} s (${runs} runs per figure)\n`,
    );

    const line = (label: string, result: { ms: number; stdout: string }) =>
      console.log(`${label.padEnd(44)} median ${result.ms.toFixed(0).padStart(6)} ms   output ${kib(Buffer.byteLength(result.stdout)).padStart(10)}`);
    const markdown = await time(['base/dist', 'head/dist'], dir, runs);
    line('syllabus diff dist dist (markdown)', markdown);
    line('syllabus diff dist dist --json', await time(['base/dist', 'head/dist', '--json'], dir, runs));
    const server = await serveStatic(path.join(dir, 'base', 'dist'));
    try {
      line('syllabus diff <url> dist (markdown)', await time([`${server.url}/`, 'head/dist'], dir, runs));
    } finally {
      await server.close();
    }
    line('syllabus diff kb.toml kb.toml (markdown)', await time(['base/kb.toml', 'head/kb.toml'], dir, runs));
    console.log(`\nmarkdown: ${markdown.stdout.length.toLocaleString('en')} characters (GitHub comments hold 65,536)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDiffBenchmark();
