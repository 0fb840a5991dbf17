/**
 * Runs the real `syllabus` bin without blocking this process: the sites the remote tests serve
 * run in it, and `runCli`'s spawnSync would stop them from answering.
 */
import { spawn } from 'node:child_process';
import { BIN, ROOT, userEnv, type CliRun } from '../helpers/run-cli.ts';

/** Runs `syllabus <args>` in `cwd` with the environment of `userEnv` plus `env`. */
export function runCliAsync(args: readonly string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: { ...userEnv(), ...options.env } });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8'), code: code ?? -1 });
    });
  });
}
