/** What the benchmark scripts share: where things are, and how figures are taken. */
import fs from 'node:fs';
import net from 'node:net';
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

/** Copies the tldr pages into `dir/pages` and writes `dir/kb.toml`, one topic per platform; returns how many pages. */
export function prepareTldr(corpus: string, dir: string): number {
  fs.cpSync(corpus, path.join(dir, 'pages'), { recursive: true });
  const platforms = fs
    .readdirSync(path.join(dir, 'pages'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  let toml = '[site]\ntitle = "tldr"\n';
  for (const platform of platforms) toml += `\n[kb.topic.${platform}]\ntitle = ${JSON.stringify(`tldr pages: ${platform}`)}\nsubjects = ${JSON.stringify(`pages/${platform}`)}\n`;
  fs.writeFileSync(path.join(dir, 'kb.toml'), toml);
  return fs.readdirSync(path.join(dir, 'pages'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

/** A small seeded generator (mulberry32), so every run makes the same corpus. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A port that is free right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
