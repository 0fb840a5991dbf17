/** Runs the real `syllabus` bin as a child process, as a user would, or its command line in this process. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandIo } from '../../src/cli/io.ts';
import { main } from '../../src/cli/main.ts';

/** The project root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The bin as package.json names it. */
export const BIN = path.join(ROOT, 'bin', 'syllabus.js');

/** What a CLI run produced. */
export interface CliRun {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * This process's environment as a user's shell would have it: without SYLLABUS_* variables, and
 * without Vitest's (Astro's dev server behaves differently when it sees VITEST).
 */
export function userEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('SYLLABUS_') && !key.startsWith('VITEST') && key !== 'NODE_ENV') env[key] = value;
  }
  return env;
}

/** Runs `syllabus <args>` in `cwd` on this Node, with the environment of `userEnv` plus `env`. */
export function runCli(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; node?: string } = {}): CliRun {
  const env = userEnv();
  const result = spawnSync(options.node ?? process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...env, ...options.env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { stdout: result.stdout, stderr: result.stderr, code: result.status ?? -1 };
}

/**
 * As {@link runCli}, without blocking this process: a site served from this process (the remote
 * tests') must go on answering while the command runs. `onStderr` sees the standard error so far
 * each time more arrives.
 */
export function runCliAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string>; onStderr?: (sofar: string) => void } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...userEnv(), ...options.env } });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      options.onStderr?.(Buffer.concat(stderr).toString('utf8'));
    });
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), code: code ?? -1 });
    });
  });
}

/**
 * Runs `syllabus <args>` in this process: the command line's own `main` (src/cli/main.ts), given
 * what the bin gives it (the folder, the environment of `userEnv` plus `env`, no terminal), its
 * output collected as the bin writes it. For a comparison whose other side runs the real bin: the
 * same command, without the cost of starting a process.
 */
export async function runCliInProcess(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: CommandIo = {
    cwd: options.cwd ?? ROOT,
    env: { ...userEnv(), ...options.env },
    out: (text) => {
      if (text !== '') stdout += `${text}\n`;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
  };
  const code = await main([...args], io);
  return { stdout, stderr, code };
}

/** The machine's own Node (older than the project's), found on PATH outside node_modules. */
export function findSystemNode(): string {
  for (const folder of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (folder.includes('node_modules')) continue;
    const candidate = path.join(folder, 'node');
    if (fs.existsSync(candidate) && fs.realpathSync(candidate) !== fs.realpathSync(process.execPath)) return candidate;
  }
  throw new Error('No system Node found on PATH besides the project’s own: the test needs the machine’s Node (20), older than the project’s.');
}

/** Sends `signal` to `child` (a command that stays running) and resolves with its exit code once it has exited; at once when it has already. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill(signal);
  return exited;
}
