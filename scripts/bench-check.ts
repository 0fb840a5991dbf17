/**
 * The `check` benchmark (`npm run bench:check`, and part of `npm run bench`): prints figures,
 * asserts nothing, and fails only when a `check` run does. Times whole `syllabus check`
 * processes (the median of BENCH_RUNS runs, default 3) on
 *  - a generated knowledge base of 10,000 markdown subjects in 4 topics: 80 to 400 words each,
 *    drawn from a Zipf-like vocabulary of 20,000 words, each subject linking to two others and
 *    mentioning one; planted in it, 25 near-duplicate pairs (a copy with 3 words changed), 10
 *    broken links and 10 broken mentions;
 *  - the tldr corpus (one topic per platform folder, copied with a generated kb.toml).
 * In process, on the generated knowledge base, it also times each check on a built catalog, and
 * the near-duplicate finder against the 50 million pair comparisons a naive finder would make.
 *
 * Environment: BENCH_RUNS (runs per measurement), BENCH_CORPUS (the tldr pages folder).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildCatalog,
  checkLinks,
  checkMentions,
  checkNearDuplicates,
  checkTitles,
  loadConfig,
  loadMarkdownParser,
  openKnowledgeBase,
  readConfigFiles,
  type Catalog,
} from '../src/kb/index.ts';
import { BIN, NODE, TLDR_PAGES, median, prepareTldr, random } from './bench-common.ts';

const SUBJECTS = 10_000;
const TOPICS = 4;
const VOCABULARY = 20_000;
const PLANTED_DUPLICATES = 25;
const PLANTED_BROKEN_LINKS = 10;
const PLANTED_BROKEN_MENTIONS = 10;

/** Synthetic words `w<n>` (letters only after the first, so none is dropped as too short). */
function word(n: number): string {
  let out = 'w';
  for (let v = n + 26; v > 0; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
  return out;
}

/** Writes the generated knowledge base into a temporary folder; returns the folder. */
function generate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-check-'));
  let toml = '[site]\ntitle = "Bench"\n';
  for (let t = 0; t < TOPICS; t++) toml += `\n[kb.topic.topic-${t}]\ntitle = "Topic ${t}"\nsubjects = "topic-${t}"\n`;
  fs.writeFileSync(path.join(dir, 'kb.toml'), toml);
  const slugOf = (i: number) => {
    const topic = `topic-${i % TOPICS}`;
    const n = Math.floor(i / TOPICS);
    const slug = `group-${String(n % 50).padStart(2, '0')}/subject-${String(n).padStart(4, '0')}`;
    return { topic, slug, file: path.join(dir, topic, `${slug}.md`) };
  };
  const next = random(2024);
  // Zipf-like: word k is drawn with probability proportional to 1/(k+1).
  const weights = Array.from({ length: VOCABULARY }, (_, k) => 1 / (k + 1));
  const cumulative: number[] = [];
  weights.reduce((sum, w, k) => (cumulative[k] = sum + w), 0);
  const total = cumulative.at(-1)!;
  const draw = (): string => {
    const x = next() * total;
    let lo = 0;
    let hi = VOCABULARY - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return word(lo);
  };
  const bodies: string[] = [];
  // The copied subjects are long, so that their links and mentions (which differ) weigh little.
  const copied = (i: number) => i % 7 === 0 && i < PLANTED_DUPLICATES * 7;
  for (let i = 0; i < SUBJECTS; i++) {
    const length = copied(i) ? 400 : 80 + Math.floor(next() * 320);
    const words = Array.from({ length }, draw);
    bodies.push(`${words.slice(0, length >> 1).join(' ')}.\n\n${words.slice(length >> 1).join(' ')}.`);
  }
  // Each planted duplicate copies an earlier subject's body with three words changed.
  for (let p = 0; p < PLANTED_DUPLICATES; p++) {
    const words = bodies[p * 7]!.split(' ');
    for (let c = 0; c < 3; c++) words[Math.floor(next() * words.length)] = `planted${String.fromCharCode(97 + (p % 26))}${String.fromCharCode(97 + c)}`;
    bodies[SUBJECTS - 1 - p] = words.join(' ');
  }
  for (let i = 0; i < SUBJECTS; i++) {
    const { topic, slug, file } = slugOf(i);
    const linked = slugOf((i + 1) % SUBJECTS);
    const other = slugOf((i + 17) % SUBJECTS);
    const mentioned = slugOf((i + 101) % SUBJECTS);
    const folder = path.posix.dirname(slug);
    const relative = (to: { topic: string; slug: string }) => path.posix.relative(folder, `${to.topic === topic ? '' : `../${to.topic}/`}${to.slug}.md`);
    const broken = i % Math.floor(SUBJECTS / PLANTED_BROKEN_LINKS) === 5 ? ' See also [the gone page](gone.md).' : '';
    const brokenMention = i % Math.floor(SUBJECTS / PLANTED_BROKEN_MENTIONS) === 9 ? ` And \`${topic}/no/such-subject\`.` : '';
    const text =
      `# Subject ${i}\n\n${bodies[i]}\n\n` +
      `Related: [next](${relative(linked)}), [another](${relative(other)}).${broken}\n\n` +
      `Ask for \`${mentioned.topic}/${mentioned.slug}\`.${brokenMention}\n`;
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  return dir;
}

function runsPerMeasurement(): number {
  const runs = Number(process.env['BENCH_RUNS'] ?? '3');
  return Number.isInteger(runs) && runs > 0 ? runs : 3;
}

/** Times whole `syllabus check --json` processes in `dir` (after one uncounted run); returns the times, and the last report's exit code and counts by code. */
function timeCheck(dir: string, runs: number): { ms: number[]; codes: Map<string, number>; exit: number } {
  const ms: number[] = [];
  let output = '';
  let exit = 0;
  for (let run = 0; run <= runs; run++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(NODE, [BIN, 'check', '--json', '--config', 'kb.toml'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0 && result.status !== 1) throw new Error(`syllabus check exited ${result.status}:\n${result.stderr}`);
    // The first run may compile the CLI bundle; it is not counted.
    if (run > 0) ms.push(elapsed);
    output = result.stdout;
    exit = result.status;
  }
  const codes = new Map<string, number>();
  for (const d of (JSON.parse(output) as { diagnostics: { code: string }[] }).diagnostics) codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
  return { ms, codes, exit };
}

function describeRun(label: string, subjects: number, { ms, codes, exit }: ReturnType<typeof timeCheck>): void {
  const found =
    [...codes.entries()]
      .sort()
      .map(([code, count]) => `${count} ${code}`)
      .join(', ') || 'nothing';
  console.log(
    `${label.padEnd(38)} ${subjects.toLocaleString('en')} subjects  median ${(median(ms) / 1000).toFixed(2)} s  (min ${(Math.min(...ms) / 1000).toFixed(2)}, max ${(Math.max(...ms) / 1000).toFixed(2)}, ${ms.length} runs); exit ${exit}; found ${found}`,
  );
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = process.hrtime.bigint();
  const value = run();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** Times each check in process on the catalog of the knowledge base at `dir` (the links check parses the markdown that mentions and titles then reuse). */
async function timeChecksInProcess(dir: string): Promise<void> {
  const read = readConfigFiles(['kb.toml'], dir);
  const { config } = loadConfig(read.configTexts);
  const kb = openKnowledgeBase(config!);
  await loadMarkdownParser();
  const built = await (async () => {
    const start = process.hrtime.bigint();
    const { catalog } = await buildCatalog(kb);
    return { catalog, ms: Number(process.hrtime.bigint() - start) / 1e6 };
  })();
  const catalog: Catalog = built.catalog;
  const links = timed(() => checkLinks(catalog, config!.site));
  const mentions = timed(() => checkMentions(catalog));
  const titles = timed(() => checkTitles(catalog));
  const duplicates = timed(() => checkNearDuplicates(catalog, dir));
  const n = catalog.topics.reduce((sum, t) => sum + t.subjects.length, 0);
  console.log(
    `  in process: catalog ${built.ms.toFixed(0)} ms; links ${links.ms.toFixed(0)} ms (${links.value.length}), mentions ${mentions.ms.toFixed(0)} ms (${mentions.value.length}), ` +
      `titles ${titles.ms.toFixed(0)} ms (${titles.value.length}), near-duplicates ${duplicates.ms.toFixed(0)} ms (${duplicates.value.length} pairs, where a naive finder compares ${((n * (n - 1)) / 2).toLocaleString('en')} pairs)`,
  );
}

/** Runs the `check` benchmark and prints its figures; throws when a `check` run fails. */
export async function runCheckBenchmark(): Promise<void> {
  const runs = runsPerMeasurement();
  console.log(
    `check: whole syllabus check --json processes, ${runs} runs each (after one uncounted run); Node ${spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${os.cpus().length} cores`,
  );
  const generated = generate();
  try {
    console.log(`  planted: ${PLANTED_DUPLICATES} near-duplicate pairs, ${PLANTED_BROKEN_LINKS} broken links, ${PLANTED_BROKEN_MENTIONS} broken mentions`);
    describeRun('generated knowledge base', SUBJECTS, timeCheck(generated, runs));
    await timeChecksInProcess(generated);
  } finally {
    fs.rmSync(generated, { recursive: true, force: true });
  }
  if (!fs.existsSync(TLDR_PAGES)) {
    console.log(`tldr: skipped, no corpus at ${TLDR_PAGES} (set BENCH_CORPUS).`);
    return;
  }
  const tldr = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-check-tldr-'));
  try {
    const subjects = prepareTldr(TLDR_PAGES, tldr);
    describeRun('tldr corpus', subjects, timeCheck(tldr, runs));
    await timeChecksInProcess(tldr);
  } finally {
    fs.rmSync(tldr, { recursive: true, force: true });
  }
}

if (import.meta.main) await runCheckBenchmark();
