/** What the benchmark scripts share: where things are, and how figures are taken. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root folder. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The `syllabus` bin. */
export const BIN = path.join(ROOT, 'bin', 'syllabus.js');
const PROJECT_NODE = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');
/** The Node that runs the commands: the project's own (22) when installed. */
export const NODE = fs.existsSync(PROJECT_NODE) ? PROJECT_NODE : process.execPath;
/** The tldr pages folder: one folder per platform, each a topic (BENCH_CORPUS overrides it). */
export const TLDR_PAGES = process.env['BENCH_CORPUS'] ?? '/work/shared/corpora/tldr/pages';

/** The value at percentile `p` (0 to 100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

/** The median of `values` (the upper one of an even count). */
export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Times `calls` calls of `call` in milliseconds, after `warmup` calls that are not counted. */
export async function timeCalls(call: (i: number) => Promise<void>, warmup: number, calls: number): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call(i);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = process.hrtime.bigint();
    await call(i);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times;
}
