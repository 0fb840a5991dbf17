/**
 * Benchmarks (`npm run bench`): prints figures, asserts nothing. Generates a knowledge base with
 * one 10,000-subject topic in a temporary folder and measures
 *  - config load + walk + resolve, in process;
 *  - the whole-process time of cold `syllabus learn` calls (the full listing, one exact slug)
 *    against a bare `node -e ''` on the same Node;
 * then the installed package's sizes and cold start (scripts/bench-install.ts), the agents' benchmark of scripts/bench-agents.ts (endpoint sizes, `learn` over MCP and
 * `--remote`), the diff, check and find benchmarks (scripts/bench-diff.ts, bench-check.ts,
 * bench-find.ts), the development server's (scripts/bench-dev.ts: `syllabus dev` on tldr and a
 * skills corpus), a subject page's weight beside Astro Starlight's (scripts/bench-weight.ts), the site-build benchmark of scripts/bench-site.ts (`syllabus build` on the tldr
 * corpus, interleaved with the bare unified floor) and, unless BENCH_SCALE=0, the scale benchmark of
 * scripts/bench-scale.ts (generated knowledge bases up to 100,000 subjects; `--write-chart` writes
 * its chart into the guide).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalView, loadConfig, openKnowledgeBase, readConfigFiles } from '../src/kb/index.ts';
import { runAgentsBenchmark } from './bench-agents.ts';
import { runCheckBenchmark } from './bench-check.ts';
import { runDevBenchmark } from './bench-dev.ts';
import { runDiffBenchmark } from './bench-diff.ts';
import { runFindBenchmark } from './bench-find.ts';
import { runInstallBenchmark } from './bench-install.ts';
import { runScaleBenchmark } from './bench-scale.ts';
import { runSiteBenchmark } from './bench-site.ts';
import { runWeightBenchmark } from './bench-weight.ts';
import { BIN, TLDR_PAGES, median } from './bench-common.ts';

const SUBJECTS = 10_000;
const RUNS = 15;

function generate(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-'));
  fs.writeFileSync(path.join(dir, 'kb.toml'), `[kb.topic.big]\ntitle = "Big"\nintroduction = "Ten thousand subjects."\nsubjects = "big"\nlearned = ["pinned/*"]\n`);
  for (let i = 0; i < SUBJECTS; i++) {
    const folder = i < 5 ? 'pinned' : `group-${String(i % 50).padStart(2, '0')}`;
    const file = path.join(dir, 'big', folder, `subject-${String(i).padStart(5, '0')}.md`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `# Subject ${i}\n\nSome knowledge about item ${i}.\n`);
  }
  return dir;
}

function time(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

function measure(label: string, args: string[], cwd: string): number {
  time(args, cwd); // the first run may compile the CLI bundle; it is not counted
  const runs = Array.from({ length: RUNS }, () => time(args, cwd));
  const value = median(runs);
  console.log(`${label.padEnd(44)} median ${value.toFixed(1).padStart(7)} ms  (min ${Math.min(...runs).toFixed(1)}, max ${Math.max(...runs).toFixed(1)}, ${RUNS} runs)`);
  return value;
}

const dir = generate();
try {
  console.log(`Node ${process.version}, ${os.cpus().length} cores; one topic of ${SUBJECTS} subjects in ${dir}\n`);

  const inProcess: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    const read = readConfigFiles(['kb.toml'], dir);
    const { config } = loadConfig(read.configTexts);
    const kb = openKnowledgeBase(config!);
    const topic = kb.topic('big')!;
    const outcome = await createLocalView(kb).learn({ topic: 'big', subjects: ['group-07/*'] });
    if (!outcome.ok || topic.subjects.length !== SUBJECTS) throw new Error('unexpected benchmark result');
    inProcess.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  console.log(`${'config load + walk + resolve (in process)'.padEnd(44)} median ${median(inProcess).toFixed(1).padStart(7)} ms  (first ${inProcess[0]!.toFixed(1)})`);

  const bare = measure("node -e ''", ['-e', ''], dir);
  const listing = measure('syllabus learn big (full listing)', [BIN, 'learn', 'big', '--config', 'kb.toml'], dir);
  const exact = measure('syllabus learn big <exact slug>', [BIN, 'learn', 'big', 'group-07/subject-00007', '--config', 'kb.toml'], dir);
  console.log(`\nlisting / bare node: ${(listing / bare).toFixed(2)}×   exact slug / bare node: ${(exact / bare).toFixed(2)}×   (target: within 2×)`);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

runInstallBenchmark();
await runAgentsBenchmark();
await runDiffBenchmark();
await runCheckBenchmark();
await runFindBenchmark();
await runDevBenchmark();
console.log('');
await runWeightBenchmark();

console.log('');
if (fs.existsSync(TLDR_PAGES)) process.exitCode = await runSiteBenchmark();
else console.log(`Site build: skipped, no corpus at ${TLDR_PAGES} (set BENCH_CORPUS).`);

console.log('');
if (process.env['BENCH_SCALE'] === '0') console.log('Scale: skipped (BENCH_SCALE=0).');
else if (fs.existsSync(TLDR_PAGES)) process.exitCode = Math.max(Number(process.exitCode ?? 0), await runScaleBenchmark({ writeChart: process.argv.includes('--write-chart') }));
else console.log(`Scale: skipped, no corpus at ${TLDR_PAGES} (set BENCH_CORPUS).`);
