/**
 * Scale benchmark (`npm run bench:scale`, and the end of `npm run bench` unless BENCH_SCALE=0):
 * prints figures, asserts nothing. For each size of BENCH_SCALE_SIZES (default 6250,25000,100000)
 * it generates a knowledge base of exactly that many subjects from the tldr pages, one topic per
 * platform, each platform's pages repeated under numbered folders (`r01/`, `r02/`, … each a full
 * copy; the last copy an even sample of the pages), and times one full `syllabus build` of it
 * from empty folders. Per size it prints the time (and per 1,000 subjects), the peak memory of
 * every process of the build (scripts/bench-process-memory.ts), the pages the search index holds
 * and its shards, the `<knowledge>` section's size (from the built `kb/knowledge.json`) and the
 * HTML size of subject pages; then the largest size's time against linear extrapolation from
 * 25,000 subjects and its peak memory, each beside its target (content/guide/performance.md).
 * A size whose build fails is reported as failed, with the end of its stderr, and the next size
 * runs. Temporary folders are removed. The chart (scripts/bench-chart.ts) is written, with
 * `--write-chart`, to docs/build-scaling.svg and as a picture to
 * content/guide/.img/build-scaling.png (scripts/bench-chart-image.ts says why), otherwise to a
 * temporary folder whose path is printed.
 *
 * Environment: BENCH_SCALE_SIZES (comma-separated subject counts), BENCH_CORPUS (the folder of
 * platform folders, default /work/shared/corpora/tldr/pages).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { renderScalingChart, type ScalePoint } from './bench-chart.ts';
import { CHART_PNG, CHART_SVG, writeChartImage } from './bench-chart-image.ts';
import { BIN, NODE, ROOT, TLDR_PAGES, median } from './bench-common.ts';
import { canSampleMemory, formatPeaks, megabytes, runSampled, tailOf, type TreePeaks } from './bench-process-memory.ts';

const DEFAULT_SIZES = [6250, 25_000, 100_000];
/** The size whose time, scaled linearly, the largest size is compared with. */
const LINEAR_BASE = 25_000;
/** The largest size takes at most this many times linear extrapolation from LINEAR_BASE. */
const LINEAR_TARGET = 1.2;
/** The largest process of a build of MEMORY_TARGET_SUBJECTS subjects stays below this peak. */
const MEMORY_TARGET_BYTES = 2 * 1024 * 1024 * 1024;
const MEMORY_TARGET_SUBJECTS = 100_000;
const STDERR_TAIL_LINES = 30;

/** One page of the corpus: its platform (a topic), its path in the platform folder and its text. */
interface CorpusPage {
  platform: string;
  file: string;
  body: Buffer;
}

/** The sizes to build: BENCH_SCALE_SIZES or the default, sorted; an error message when it is not a list of positive integers. */
export function scaleSizes(raw: string | undefined): number[] | string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_SIZES;
  const sizes = raw.split(',').map((part) => Number(part.trim().replace(/_/g, '')));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    return `BENCH_SCALE_SIZES must be positive whole numbers separated by commas, such as "6250,25000,100000" (got ${JSON.stringify(raw)}).`;
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

/** Every markdown page of `corpus` (a folder of platform folders), sorted by platform then path. */
function readCorpus(corpus: string): CorpusPage[] {
  const pages: CorpusPage[] = [];
  const platforms = fs
    .readdirSync(corpus, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^[A-Za-z][A-Za-z0-9_-]*$/.test(entry.name))
    .map((entry) => entry.name)
    .sort();
  for (const platform of platforms) {
    const dir = path.join(corpus, platform);
    const files = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .sort();
    for (const file of files) pages.push({ platform, file, body: fs.readFileSync(path.join(dir, file)) });
  }
  return pages;
}

/**
 * Which of `total` pages the partial last copy takes to have `count` of them: an even sample, so
 * that every platform keeps its share. Returns the indexes, ascending.
 */
export function evenSample(total: number, count: number): number[] {
  const picked: number[] = [];
  for (let i = 0; i < total; i++) if (Math.floor(((i + 1) * count) / total) > Math.floor((i * count) / total)) picked.push(i);
  return picked;
}

/** Writes a knowledge base of exactly `subjects` pages into `dir`: `pages/<platform>/rNN/<file>` and kb.toml. */
function generate(pages: CorpusPage[], subjects: number, dir: string): { topics: number; copies: number } {
  const copies = Math.ceil(subjects / pages.length);
  const width = Math.max(2, String(copies).length);
  const made = new Set<string>();
  const platforms = new Set<string>();
  for (let copy = 1; copy <= copies; copy++) {
    const wanted = Math.min(pages.length, subjects - (copy - 1) * pages.length);
    const indexes = wanted === pages.length ? pages.map((_, i) => i) : evenSample(pages.length, wanted);
    const folder = `r${String(copy).padStart(width, '0')}`;
    for (const index of indexes) {
      const page = pages[index]!;
      const target = path.join(dir, 'pages', page.platform, folder, page.file);
      const parent = path.dirname(target);
      if (!made.has(parent)) {
        fs.mkdirSync(parent, { recursive: true });
        made.add(parent);
      }
      fs.writeFileSync(target, page.body);
      platforms.add(page.platform);
    }
  }
  let toml = '[site]\ntitle = "tldr, repeated"\n';
  for (const platform of [...platforms].sort()) {
    toml += `\n[kb.topic.${platform}]\ntitle = ${JSON.stringify(`tldr pages: ${platform}`)}\nsubjects = ${JSON.stringify(`pages/${platform}`)}\n`;
  }
  fs.writeFileSync(path.join(dir, 'kb.toml'), toml);
  return { topics: platforms.size, copies };
}

/** What one size's build gave. */
type SizeResult =
  | {
      ok: true;
      subjects: number;
      topics: number;
      ms: number;
      generateMs: number;
      peaks: TreePeaks;
      search: { pages: number; shards: number } | undefined;
      knowledge: { bytes: number; tokens: number } | undefined;
      pageHtml: { median: number; max: number; pages: number } | undefined;
      phases: { name: string; seconds: number }[];
    }
  | { ok: false; subjects: number; ms: number; peaks: TreePeaks; why: string; stderr: string };

/**
 * The search index's size, from Pagefind's own entry files below `dist/pagefind/` (one per index
 * or shard): how many pages they hold, and how many there are.
 */
function searchIndexOf(dist: string): { pages: number; shards: number } | undefined {
  const root = path.join(dist, 'pagefind');
  if (!fs.existsSync(root)) return undefined;
  let pages = 0;
  let shards = 0;
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== 'pagefind-entry.json') continue;
    const languages = (JSON.parse(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8')) as { languages?: Record<string, { page_count?: number }> }).languages ?? {};
    shards++;
    for (const language of Object.values(languages)) pages += language.page_count ?? 0;
  }
  return { pages, shards };
}

/** The `<knowledge>` section of the built site (`kb/knowledge.json`'s prompt): UTF-8 bytes and o200k_base tokens. */
function knowledgeOf(dist: string): { bytes: number; tokens: number } | undefined {
  const file = path.join(dist, 'kb', 'knowledge.json');
  if (!fs.existsSync(file)) return undefined;
  const { prompt } = JSON.parse(fs.readFileSync(file, 'utf8')) as { prompt: string };
  return { bytes: Buffer.byteLength(prompt), tokens: countTokens(prompt) };
}

/** The HTML size of every listed subject's page (from `kb/index.json`'s URLs): median and largest, in bytes. */
function pageHtmlOf(dist: string): { median: number; max: number; pages: number } | undefined {
  const file = path.join(dist, 'kb', 'index.json');
  if (!fs.existsSync(file)) return undefined;
  const index = JSON.parse(fs.readFileSync(file, 'utf8')) as { site: { base: string }; topics: { subjects: { url: string }[] }[] };
  const sizes: number[] = [];
  for (const topic of index.topics) {
    for (const subject of topic.subjects) {
      const page = path.join(dist, subject.url.slice(index.site.base.length), 'index.html');
      if (fs.existsSync(page)) sizes.push(fs.statSync(page).size);
    }
  }
  return sizes.length === 0 ? undefined : { median: median(sizes), max: Math.max(...sizes), pages: sizes.length };
}

/** Generates and builds one size in `dir`; never throws for a failed build. */
async function measureSize(pages: CorpusPage[], subjects: number, dir: string): Promise<SizeResult> {
  const generateStart = process.hrtime.bigint();
  const { topics, copies } = generate(pages, subjects, dir);
  const generateMs = Number(process.hrtime.bigint() - generateStart) / 1e6;
  process.stderr.write(`  ${subjects} subjects: generated in ${(generateMs / 1000).toFixed(1)} s (${topics} topics, ${copies} ${copies === 1 ? 'copy' : 'copies'}); building…\n`);
  const dist = path.join(dir, 'dist');
  const run = await runSampled(NODE, [BIN, 'build', '--config', 'kb.toml', '--out', dist, '--cache', path.join(dir, '.syllabus-cache'), '--json'], dir);
  process.stderr.write(`  ${subjects} subjects: ${run.code === 0 ? `built in ${(run.ms / 1000).toFixed(1)} s` : 'failed'}, load average ${loadAverage()}\n`);
  if (run.code !== 0) {
    const why = run.signal ? `ended by ${run.signal}${run.signal === 'SIGKILL' ? ' (the kernel ends processes that run it out of memory so)' : ''}` : `exited ${run.code}`;
    return { ok: false, subjects, ms: run.ms, peaks: run.peaks, why, stderr: tailOf(run.stderr, STDERR_TAIL_LINES) };
  }
  let phases: { name: string; seconds: number }[] = [];
  try {
    phases = (JSON.parse(run.stdout) as { phases?: { name: string; seconds: number }[] }).phases ?? [];
  } catch {
    // Without the --json summary the figures only lack the phases.
  }
  return {
    ok: true,
    subjects,
    topics,
    ms: run.ms,
    generateMs,
    peaks: run.peaks,
    search: searchIndexOf(dist),
    knowledge: knowledgeOf(dist),
    pageHtml: pageHtmlOf(dist),
    phases,
  };
}

/** The 1- and 5-minute load averages: how busy the machine was while it measured. */
const loadAverage = () =>
  os
    .loadavg()
    .slice(0, 2)
    .map((load) => load.toFixed(1))
    .join(', ');
const grouped = (value: number) => Math.round(value).toLocaleString('en-US');
const kilobytes = (bytes: number) => (bytes / 1024).toFixed(1);

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows]) console.log(row.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
}

/** The size the largest is compared with: LINEAR_BASE when it built, else the largest size below the largest that did. */
function linearBase(built: { subjects: number }[]): number | undefined {
  if (built.some((r) => r.subjects === LINEAR_BASE) && built.at(-1)!.subjects > LINEAR_BASE) return LINEAR_BASE;
  return built.at(-2)?.subjects;
}

/** Prints the figures of every size, the targets and the chart's path. */
function printFigures(results: SizeResult[], chartPath: string | undefined): void {
  const built = results.filter((r) => r.ok);
  console.log('');
  printTable(
    ['subjects', 'build s', 's / 1,000', 'largest process MB', 'pages indexed', 'search shards', '<knowledge> bytes', 'tokens', 'page HTML median kB', 'max kB'],
    results.map((r) => {
      if (!r.ok) return [grouped(r.subjects), 'failed', '', r.peaks.largest > 0 ? megabytes(r.peaks.largest) : 'n/a', '', '', '', '', '', ''];
      return [
        grouped(r.subjects),
        (r.ms / 1000).toFixed(1),
        // Milliseconds per subject are seconds per 1,000 subjects.
        (r.ms / r.subjects).toFixed(2),
        r.peaks.largest > 0 ? megabytes(r.peaks.largest) : 'n/a',
        r.search ? grouped(r.search.pages) : 'n/a',
        r.search ? String(r.search.shards) : 'n/a',
        r.knowledge ? grouped(r.knowledge.bytes) : 'n/a',
        r.knowledge ? grouped(r.knowledge.tokens) : 'n/a',
        r.pageHtml ? kilobytes(r.pageHtml.median) : 'n/a',
        r.pageHtml ? kilobytes(r.pageHtml.max) : 'n/a',
      ];
    }),
  );
  console.log('');
  console.log('peak memory per command (every process of the build, sampled from /proc):');
  for (const r of results) console.log(`  ${grouped(r.subjects).padStart(7)}: ${formatPeaks(r.peaks)}`);
  if (built.some((r) => r.phases.length > 0)) {
    console.log('');
    console.log('phases (s):');
    for (const r of built) console.log(`  ${grouped(r.subjects).padStart(7)}: ${r.phases.map((p) => `${p.name} ${p.seconds.toFixed(1)}`).join(', ')}`);
  }
  for (const r of results) {
    if (r.ok) continue;
    console.log('');
    console.log(`${grouped(r.subjects)} subjects: failed, ${r.why} after ${(r.ms / 1000).toFixed(1)} s; the end of its stderr:`);
    console.log(r.stderr);
  }

  console.log('');
  const largest = built.at(-1);
  const base = built.find((r) => r.subjects === linearBase(built));
  if (largest && base && base !== largest) {
    const ratio = largest.ms / ((base.ms * largest.subjects) / base.subjects);
    console.log(
      `${grouped(largest.subjects)} vs linear from ${grouped(base.subjects)}: ${ratio.toFixed(2)}×   (target ≤ ${LINEAR_TARGET}×${base.subjects === LINEAR_BASE ? '' : `, which is set against ${grouped(LINEAR_BASE)}`}: ${ratio <= LINEAR_TARGET ? 'met' : 'missed'})`,
    );
  } else {
    console.log(`linear extrapolation: needs two sizes that built (${built.length} did).`);
  }
  const top = results.at(-1);
  if (top && top.peaks.largest > 0) {
    const met = top.ok && top.peaks.largest < MEMORY_TARGET_BYTES;
    console.log(
      `${grouped(top.subjects)} peak memory: ${megabytes(top.peaks.largest)} MB, the largest process   (target < ${megabytes(MEMORY_TARGET_BYTES)} MB at ${grouped(MEMORY_TARGET_SUBJECTS)} subjects${top.ok ? '' : ', and the build failed'}: ${met ? 'met' : 'missed'})`,
    );
  }
  if (chartPath) console.log(`chart: ${chartPath}`);
}

/** Runs the scale benchmark and prints its figures; returns the exit code (0 unless the benchmark itself cannot run). */
export async function runScaleBenchmark(options: { writeChart: boolean; corpus?: string }): Promise<number> {
  const corpus = options.corpus ?? TLDR_PAGES;
  const sizes = scaleSizes(process.env['BENCH_SCALE_SIZES']);
  if (typeof sizes === 'string') {
    console.error(`error: ${sizes}`);
    return 1;
  }
  if (!fs.existsSync(corpus)) {
    console.error(`error: no corpus at ${corpus}; set BENCH_CORPUS to a folder of platform folders (tldr's pages/).`);
    return 1;
  }
  const pages = readCorpus(corpus);
  if (pages.length === 0) {
    console.error(`error: ${corpus} has no markdown pages in platform folders.`);
    return 1;
  }
  const node = (await runSampled(NODE, ['--version'], ROOT)).stdout.trim();
  // The first command after a change of the sources bundles the CLI: not part of any size's time.
  const warm = await runSampled(NODE, [BIN, 'build', '--help'], ROOT);
  if (warm.code !== 0) {
    console.error(`error: "syllabus build --help" exited ${warm.code ?? warm.signal}; the end of its stderr:\n${tailOf(warm.stderr, STDERR_TAIL_LINES)}`);
    return 1;
  }
  console.log(`Scale: ${sizes.map(grouped).join(', ')} subjects from ${corpus} (${grouped(pages.length)} pages, repeated under numbered folders); one full build each`);
  console.log(`Node ${node}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GB, load average ${loadAverage()} at the start`);
  if (!canSampleMemory()) console.log('note: no /proc, so peak memory is not measured.');

  const results: SizeResult[] = [];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-scale-'));
  try {
    // Each size's folder stays until the end: deleting it would charge the next size for it
    // (see freshOutputs in bench-site.ts).
    for (const size of sizes) results.push(await measureSize(pages, size, path.join(scratch, String(size))));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  const points: ScalePoint[] = results.filter((r) => r.ok).map((r) => ({ subjects: r.subjects, seconds: r.ms / 1000, peakBytes: r.peaks.largest }));
  let chartPath: string | undefined;
  if (points.length > 0) {
    chartPath = options.writeChart ? CHART_SVG : path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-chart-')), 'build-scaling.svg');
    const caption = `tldr's ${grouped(pages.length)} pages repeated; one full build per size on ${os.cpus().length} cores, Node ${node}`;
    fs.mkdirSync(path.dirname(chartPath), { recursive: true });
    fs.writeFileSync(chartPath, renderScalingChart({ points, base: linearBase(points) ?? LINEAR_BASE, memoryTarget: MEMORY_TARGET_BYTES, caption }));
    // The guide's page shows a picture of the chart (scripts/bench-chart-image.ts says why).
    if (options.writeChart) {
      await writeChartImage(chartPath, CHART_PNG);
      chartPath += ` and its picture ${CHART_PNG}`;
    }
  }
  printFigures(results, chartPath);
  return 0;
}

if (import.meta.main) process.exitCode = await runScaleBenchmark({ writeChart: process.argv.includes('--write-chart') });
