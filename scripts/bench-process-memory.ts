/**
 * Peak memory of a process tree, for the site and scale benchmarks (scripts/bench-site.ts,
 * bench-scale.ts). `/usr/bin/time` reports only the largest single process it waited for, and
 * misses helpers that outlive their parent's wait, such as Pagefind's indexing service. This
 * sampler reads `/proc` every SAMPLE_MS: the tree below a root process (children found through
 * `/proc/<pid>/task/<tid>/children`, or the parent field of `/proc/<pid>/stat` where the kernel
 * lacks that file), and each process's `VmHWM` (the kernel's own peak resident set size, so a
 * peak between two samples is not lost). A process once seen is followed until it ends, even when
 * its parent exits first. Linux only: elsewhere nothing is measured.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** How often the tree is read, in milliseconds. */
export const SAMPLE_MS = 100;

/** The peak of one process seen in the tree. */
export interface ProcessPeak {
  pid: number;
  /** What the process runs: its command name, and for Node the script it runs (`node syllabus.js`). */
  command: string;
  /** Peak resident set size in bytes. */
  bytes: number;
}

/** The peaks of every process of a tree, and of each command (the largest process of that command). */
export interface TreePeaks {
  processes: ProcessPeak[];
  /** Per command: the largest peak of one of its processes, and how many processes ran it. */
  byCommand: Map<string, { bytes: number; processes: number }>;
  /** The largest peak of any one process (0 when nothing was measured). */
  largest: number;
}

/** A running sampler; see {@link sampleProcessTree}. */
export interface TreeSampler {
  /** Takes one last sample, stops, and returns the peaks. */
  stop(): TreePeaks;
}

/** Whether this system has `/proc` with the fields the sampler reads. */
export function canSampleMemory(): boolean {
  return fs.existsSync(`/proc/${process.pid}/status`);
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    // The process ended between listing and reading: it is simply no longer part of the tree.
    return undefined;
  }
}

/** The children of `pid`, from its threads' `children` files; undefined when the kernel has none. */
function childrenFromTasks(pid: number): number[] | undefined {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const tid of tasks) {
    const text = read(`/proc/${pid}/task/${tid}/children`);
    if (text === undefined) {
      if (!fs.existsSync(`/proc/${pid}/task/${tid}`)) continue;
      return undefined;
    }
    for (const field of text.split(' ')) if (field.trim() !== '') children.push(Number(field));
  }
  return children;
}

/** Every process's parent, from `/proc/<pid>/stat` (the fallback when `children` files are missing). */
function parentsFromStat(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (stat === undefined) continue;
    // The command name, in parentheses, may itself hold spaces and parentheses: fields follow the last ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = byParent.get(ppid) ?? [];
    list.push(Number(name));
    byParent.set(ppid, list);
  }
  return byParent;
}

/** `root` and all its descendants alive now. */
export function processTree(root: number): number[] {
  const tree: number[] = [];
  let byParent: Map<number, number[]> | undefined;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (!fs.existsSync(`/proc/${pid}`)) continue;
    tree.push(pid);
    let children = byParent ? undefined : childrenFromTasks(pid);
    if (children === undefined) {
      byParent ??= parentsFromStat();
      children = byParent.get(pid) ?? [];
    }
    queue.push(...children);
  }
  return tree;
}

/**
 * The label a process is grouped under: its command name (`/proc/<pid>/comm`), and for Node the
 * file name of the script it runs, so that the build, a worker process and the floor stay apart.
 */
export function commandLabel(comm: string, argv: string[]): string {
  const comm15 = comm.trim();
  const program = path.basename(argv[0] ?? '');
  // The kernel cuts `comm` to 15 bytes (`pagefind_extend`): the program's own name is whole.
  const name = comm15 !== '' && program.startsWith(comm15) ? program : comm15;
  if (name !== 'node' && comm15 !== 'MainThread') return name;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (EVAL_OPTIONS.has(arg)) return `node ${arg}`;
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith('-')) return `node ${path.basename(arg)}`;
  }
  return 'node';
}

/** Node's options that run code given on the command line: the process has no script. */
const EVAL_OPTIONS = new Set(['-e', '--eval', '-p', '--print']);
/** Node's options whose value is the next argument, not the script. */
const VALUE_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--input-type', '--env-file']);

/** The peak resident set size of `pid` in bytes (VmHWM, or VmRSS where VmHWM is missing), or undefined. */
function peakOf(pid: number): number | undefined {
  const status = read(`/proc/${pid}/status`);
  if (status === undefined) return undefined;
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(status) ?? /^VmRSS:\s+(\d+) kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

/** The start time of `pid` (field 22 of its stat), which tells a process from a later one with the same id. */
function startOf(pid: number): string | undefined {
  const stat = read(`/proc/${pid}/stat`);
  return stat === undefined ? undefined : stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
}

/** The program `pid` runs now (the target of `/proc/<pid>/exe`), or undefined when it cannot be read. */
function imageOf(pid: number): string | undefined {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

/**
 * The peak of a process after a sample: the larger of the known peak and the sample's, unless the
 * process has run another program since (exec). A child between fork and exec is a copy of its
 * parent and shows the parent's resident set (a 1.4 GB build made Vite's esbuild look 1.4 GB); the
 * kernel starts the peak again at exec, and so does this.
 */
export function nextPeak(known: { bytes: number; image: string | undefined } | undefined, sample: { bytes: number; image: string | undefined }): number {
  if (!known) return sample.bytes;
  const execed = known.image !== undefined && sample.image !== undefined && known.image !== sample.image;
  return execed ? sample.bytes : Math.max(known.bytes, sample.bytes);
}

/** Starts sampling the tree below `root` every {@link SAMPLE_MS} ms until `stop()`. */
export function sampleProcessTree(root: number): TreeSampler {
  const seen = new Map<string, ProcessPeak>();
  const images = new Map<string, string | undefined>();
  const sample = () => {
    if (!canSampleMemory()) return;
    const tree = new Set(processTree(root));
    for (const pid of new Set([...tree, ...[...seen.values()].map((p) => p.pid)])) {
      const start = startOf(pid);
      const bytes = peakOf(pid);
      if (start === undefined || bytes === undefined) continue;
      const key = `${pid}:${start}`;
      const known = seen.get(key);
      // An id seen before that now names a new process outside the tree is not ours.
      if (!known && !tree.has(pid)) continue;
      // Read each time: a process just spawned may not have run exec yet, and exec keeps the id and start time.
      const comm = read(`/proc/${pid}/comm`);
      const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').filter((arg) => arg !== '');
      // A process that is ending has no command line left: it keeps the name it had.
      const command = comm === undefined || (argv.length === 0 && known) ? (known?.command ?? '?') : commandLabel(comm, argv);
      // An ending process has no program left to read: it keeps the one it had.
      const image = imageOf(pid) ?? images.get(key);
      seen.set(key, { pid, command, bytes: nextPeak(known && { bytes: known.bytes, image: images.get(key) }, { bytes, image }) });
      images.set(key, image);
    }
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return summarisePeaks([...seen.values()]);
    },
  };
}

/** Groups process peaks by command. */
export function summarisePeaks(processes: ProcessPeak[]): TreePeaks {
  const byCommand = new Map<string, { bytes: number; processes: number }>();
  for (const p of processes) {
    const entry = byCommand.get(p.command) ?? { bytes: 0, processes: 0 };
    entry.bytes = Math.max(entry.bytes, p.bytes);
    entry.processes++;
    byCommand.set(p.command, entry);
  }
  return { processes, byCommand, largest: Math.max(0, ...processes.map((p) => p.bytes)) };
}

/** Merges the peaks of several runs: per command, the largest; process counts are the largest of one run. */
export function mergePeaks(runs: TreePeaks[]): TreePeaks {
  const byCommand = new Map<string, { bytes: number; processes: number }>();
  for (const run of runs) {
    for (const [command, entry] of run.byCommand) {
      const merged = byCommand.get(command) ?? { bytes: 0, processes: 0 };
      byCommand.set(command, { bytes: Math.max(merged.bytes, entry.bytes), processes: Math.max(merged.processes, entry.processes) });
    }
  }
  return { processes: runs.flatMap((r) => r.processes), byCommand, largest: Math.max(0, ...runs.map((r) => r.largest)) };
}

/** "node syllabus.js 812 MB, pagefind 331 MB", largest first. */
export function formatPeaks(peaks: TreePeaks): string {
  if (peaks.byCommand.size === 0) return 'n/a';
  return [...peaks.byCommand.entries()]
    .sort((a, b) => b[1].bytes - a[1].bytes)
    .map(([command, { bytes, processes }]) => `${command}${processes > 1 ? ` (${processes} processes)` : ''} ${megabytes(bytes)} MB`)
    .join(', ');
}

/** Bytes as whole megabytes (MiB), "< 1" below one. */
export function megabytes(bytes: number): string {
  return bytes > 0 && bytes < 1024 * 1024 ? '< 1' : (bytes / 1024 / 1024).toFixed(0);
}

/** How a sampled child process ended. */
export interface SampledRun {
  /** Exit code, or null when a signal ended it. */
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  peaks: TreePeaks;
  stdout: string;
  /** The last 64 kB of its stderr. */
  stderr: string;
}

/** Runs `command args` in `cwd` as a child process, sampling its tree's memory until it ends. */
export async function runSampled(command: string, args: string[], cwd: string): Promise<SampledRun> {
  const start = process.hrtime.bigint();
  let peaks: TreePeaks | undefined;
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const sampler = child.pid === undefined ? undefined : sampleProcessTree(child.pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-65_536);
    });
    child.on('error', reject);
    // The tree is read once more when the child exits; its detached helpers may still be running.
    child.on('exit', () => {
      peaks = sampler?.stop();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { ...ended, ms: Number(process.hrtime.bigint() - start) / 1e6, peaks: peaks ?? summarisePeaks([]) };
}

/** The last `lines` lines of `text`. */
export function tailOf(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
