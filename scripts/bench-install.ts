/**
 * Syllabus as a team installs it (`npm run bench` runs this part too): the tarball `npm pack`
 * makes, installed with its dependencies from the registry into a temporary folder; prints the
 * tarball's and the installation's sizes, and the cold start of the installed `syllabus learn
 * <topic> <slug>` (the bundled guide) against a bare `node -e ''`, run in turn, pair by pair.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, ROOT } from './bench-common.ts';

const RUNS = 21;

function exec(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Bytes of every file below `dir` (links not followed). */
function sizeOf(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function time(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Packs, installs and measures; prints the figures. */
export function runInstallBenchmark(): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-install-'));
  try {
    const [pack] = JSON.parse(exec('npm', ['pack', '--json', '--pack-destination', dir], ROOT)) as [{ filename: string; size: number; unpackedSize: number; entryCount: number }];
    const team = path.join(dir, 'team');
    fs.mkdirSync(team);
    fs.writeFileSync(path.join(team, 'package.json'), '{ "name": "team", "private": true }\n');
    exec('npm', ['install', '--save-dev', '--no-audit', '--no-fund', path.join(dir, pack.filename)], team);
    console.log('\nThe installed package');
    console.log(
      `tarball ${megabytes(pack.size)} (${pack.entryCount} files, ${megabytes(pack.unpackedSize)} unpacked); installed with its dependencies: ${megabytes(sizeOf(path.join(team, 'node_modules')))}`,
    );

    const bin = path.join(team, 'node_modules', 'syllabus-kb', 'bin', 'syllabus.js');
    const learn = [bin, 'learn', 'guide', 'getting-started', '--config', path.join(team, 'node_modules', 'syllabus-kb', 'content', 'kb.toml')];
    time(learn, team); // the first run fills Node's compile cache; it is not counted
    const bare: number[] = [];
    const installed: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(time(['-e', ''], team));
      installed.push(time(learn, team));
      ratios.push(installed.at(-1)! / bare.at(-1)!);
    }
    console.log(`${"node -e ''".padEnd(44)} median ${median(bare).toFixed(1).padStart(7)} ms`);
    console.log(`${'syllabus learn guide getting-started'.padEnd(44)} median ${median(installed).toFixed(1).padStart(7)} ms`);
    console.log(`installed learn / bare node, pair by pair: median ${median(ratios).toFixed(2)}× (min ${Math.min(...ratios).toFixed(2)}×, ${RUNS} pairs; target: within 2×)`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) runInstallBenchmark();
