/**
 * The development server's benchmark (`npm run bench:dev`): prints figures, asserts nothing, and
 * fails only when a server does not serve. On the tldr corpus (one topic per platform folder,
 * copied with a generated kb.toml) and on a generated Agent Skills corpus (scripts/skills-corpus.ts),
 * it starts `syllabus dev` as a child process and measures, from the start:
 *  - when it answers its first request (any status), and when it says it is ready (`Serving …`);
 *  - when the home page, a topic page and a subject page are served (200), asked one after the other;
 *  - after an edit of that subject, when its page shows the edit;
 *  - its peak resident memory (VmHWM of the server process).
 * Each corpus is served twice: with an empty cache, then again with the cache the first run left.
 * With BENCH_LOAD=N, N busy loops run meanwhile (a machine shared with other work).
 *
 * Environment: BENCH_LOAD (busy loops, default 0), BENCH_CORPUS (the tldr pages folder).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, NODE, TLDR_PAGES, freePort, prepareTldr } from './bench-common.ts';
import { writeSkillsCorpus } from './skills-corpus.ts';

/** How long a page may take before the run counts as failed. */
const GIVE_UP_MS = 10 * 60 * 1000;

interface Corpus {
  label: string;
  dir: string;
  subjects: number;
  /** Paths of a topic page and a subject page, and the subject's file. */
  topic: string;
  subject: string;
  file: string;
}

/** The tldr corpus copied into `dir`, one topic per platform. */
function tldrCorpus(corpus: string, dir: string): Corpus {
  const subjects = prepareTldr(corpus, dir);
  return { label: 'tldr', dir, subjects, topic: '/common/', subject: '/common/tar/', file: path.join(dir, 'pages/common/tar.md') };
}

/** Writes the skills corpus into `dir`. */
function prepareSkills(dir: string): Corpus {
  const subjects = writeSkillsCorpus(dir);
  return { label: 'skills', dir, subjects, topic: '/skills/', subject: '/skills/skill-01-slide/SKILL/', file: path.join(dir, 'skills/skill-01-slide/SKILL.md') };
}

/** The peak resident memory of process `pid` in MB, from /proc (undefined elsewhere). */
function peakMemoryMb(pid: number): number | undefined {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return line ? Number(line.split(/\s+/)[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface Run {
  answered: number;
  /** Undefined when the server never says so. */
  ready: number | undefined;
  home: number;
  topic: number;
  subject: number;
  edit: number;
  peakMb: number | undefined;
}

/** Starts `syllabus dev` on `corpus` and times it; see the module comment. */
async function serve(corpus: Corpus): Promise<Run> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const start = performance.now();
  const child = spawn(NODE, [BIN, 'dev', '--config', path.join(corpus.dir, 'kb.toml'), '--port', String(port)], { cwd: corpus.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let ready: number | undefined;
  const since = (): number => (performance.now() - start) / 1000;
  const collect = (chunk: Buffer): void => {
    output += chunk.toString();
    if (ready === undefined && output.includes('Serving ')) ready = since();
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  /** Asks for `url` until `accept` holds; returns the seconds since the start. */
  const until = async (url: string, accept: (status: number, body: string) => boolean): Promise<number> => {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`syllabus dev exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - start > GIVE_UP_MS) throw new Error(`${url} was not served within ${GIVE_UP_MS / 1000} s:\n${output}`);
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(GIVE_UP_MS) });
        const body = await response.text();
        if (accept(response.status, body)) return since();
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    const answered = await until(`${origin}/kb/no-such-file`, () => true);
    const home = await until(`${origin}/`, (status) => status === 200);
    const topic = await until(`${origin}${corpus.topic}`, (status) => status === 200);
    const subject = await until(`${origin}${corpus.subject}`, (status) => status === 200);
    // The project's Node runs the bin itself (it re-launches only on an older Node).
    const peakMb = peakMemoryMb(child.pid!);
    const canary = `BENCHEDIT${Date.now()}`;
    const edited = performance.now();
    fs.appendFileSync(corpus.file, `\n\n${canary}\n`);
    await until(`${origin}${corpus.subject}`, (_status, body) => body.includes(canary));
    return { answered, ready, home, topic, subject, edit: (performance.now() - edited) / 1000, peakMb };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    await exited;
  }
}

/** Starts `count` busy loops; returns a function that stops them. */
function busyLoops(count: number): () => void {
  const loops = Array.from({ length: count }, () => spawn(NODE, ['-e', 'for (;;);'], { stdio: 'ignore' }));
  return () => {
    for (const loop of loops) loop.kill('SIGKILL');
  };
}

/** Runs the development-server benchmark and prints its figures. */
export async function runDevBenchmark(): Promise<void> {
  const load = Number(process.env['BENCH_LOAD'] ?? '0');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-dev-'));
  const stopLoad = busyLoops(Number.isInteger(load) && load > 0 ? load : 0);
  const interrupted = (): void => {
    stopLoad();
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    const corpora: Corpus[] = [prepareSkills(path.join(scratch, 'skills'))];
    if (fs.existsSync(TLDR_PAGES)) corpora.push(tldrCorpus(TLDR_PAGES, path.join(scratch, 'tldr')));
    else console.log(`dev: tldr skipped, no corpus at ${TLDR_PAGES} (set BENCH_CORPUS).`);
    console.log(`\nsyllabus dev: seconds from the start; ${os.cpus().length} cores, ${load > 0 ? `${load} busy loops meanwhile` : 'no added load'}`);
    const header = ['corpus', 'cache', 'answers', 'ready', 'home', 'topic', 'subject', 'edit shown', 'peak MB'];
    const rows: string[][] = [header];
    for (const corpus of corpora) {
      for (const cache of ['empty', 'kept']) {
        if (cache === 'empty') fs.rmSync(path.join(corpus.dir, '.syllabus-cache'), { recursive: true, force: true });
        const run = await serve(corpus);
        const s = (value: number): string => value.toFixed(1);
        rows.push([
          `${corpus.label} (${corpus.subjects})`,
          cache,
          s(run.answered),
          run.ready === undefined ? 'n/a' : s(run.ready),
          s(run.home),
          s(run.topic),
          s(run.subject),
          s(run.edit),
          run.peakMb?.toFixed(0) ?? 'n/a',
        ]);
        process.stderr.write(`  ${corpus.label}, cache ${cache}: done\n`);
      }
    }
    const widths = header.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
    for (const row of rows) console.log(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '));
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    stopLoad();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.main) await runDevBenchmark();
