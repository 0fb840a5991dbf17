/**
 * Builds that several test files read, each made once per test run: the first file to ask builds
 * it (the real `syllabus build`) into the run's shared folder (test/run-folder.ts); the others,
 * in other workers, wait for its outcome. A test that changes a build's output makes its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { RUN_FOLDER_VARIABLE } from '../run-folder.ts';
import { ROOT, runCliAsync, type CliRun } from './run-cli.ts';

/** A shared build: where its site is, and what the command printed. */
export interface SharedBuild {
  dist: string;
  run: CliRun;
}

/** The folder this run's test files share. */
function runFolder(): string {
  const folder = process.env[RUN_FOLDER_VARIABLE];
  if (folder === undefined || !fs.existsSync(folder)) {
    throw new Error(`${RUN_FOLDER_VARIABLE} names no folder: run the tests through vitest.config.ts, whose global setup (test/run-folder.ts) makes it.`);
  }
  return folder;
}

/**
 * The build named `name`: `syllabus build --config <config> --out <dist> --cache <cache>` with
 * `env`, made by the first caller of this run and shared by the rest. Every caller of one name
 * must pass the same config and env (checked).
 */
export async function sharedBuild(name: string, config: string, env: Record<string, string> = {}): Promise<SharedBuild> {
  const folder = path.join(runFolder(), name);
  const request = JSON.stringify({ config, env });
  const outcomeFile = path.join(folder, 'outcome.json');
  let owner = true;
  try {
    fs.mkdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    owner = false;
  }
  const dist = path.join(folder, 'dist');
  if (owner) {
    fs.writeFileSync(path.join(folder, 'request.json'), request);
    // Started in its own folder, which holds its output: builds of one folder whose outputs are
    // outside it take turns (src/astro/run-astro.ts), and these need not.
    const run = await runCliAsync(['build', '--config', config, '--out', dist, '--cache', sharedBuildCache(dist)], { cwd: folder, env });
    // Written whole, then renamed: a waiter never reads half an outcome.
    fs.writeFileSync(`${outcomeFile}.tmp`, JSON.stringify(run));
    fs.renameSync(`${outcomeFile}.tmp`, outcomeFile);
    return { dist, run };
  }
  // Another file of this run is building it; its outcome file appears when it is done.
  while (!fs.existsSync(outcomeFile)) await sleep(100);
  const asked = fs.readFileSync(path.join(folder, 'request.json'), 'utf8');
  if (asked !== request) throw new Error(`The shared build "${name}" was made with ${asked}, not ${request}: give a different build a name of its own.`);
  return { dist, run: JSON.parse(fs.readFileSync(outcomeFile, 'utf8')) as CliRun };
}

/**
 * test/fixtures/site built once per run with small search shards (so that search merges several,
 * as on a large site); fails the caller when the build failed. Read it, never change it.
 */
export async function builtSiteFixture(): Promise<string> {
  const { dist, run } = await sharedBuild('site', path.join(ROOT, 'test/fixtures/site/kb.toml'), { SYLLABUS_SEARCH_SHARD_PAGES: '10' });
  if (run.code !== 0) throw new Error(`Building test/fixtures/site failed (exit ${run.code}):\n${run.stderr}`);
  return dist;
}

/**
 * test/fixtures/spec-example built once per run (base `/`, no `[site] url`); fails the caller when
 * the build failed. Read it, never change it.
 */
export async function builtSpecExample(): Promise<string> {
  const { dist, run } = await sharedBuild('spec-example', path.join(ROOT, 'test/fixtures/spec-example/kb.toml'));
  if (run.code !== 0) throw new Error(`Building test/fixtures/spec-example failed (exit ${run.code}):\n${run.stderr}`);
  return dist;
}

/** The build cache of the shared build whose site is in `dist` (read it, never change it). */
export function sharedBuildCache(dist: string): string {
  return path.join(path.dirname(dist), 'cache');
}
