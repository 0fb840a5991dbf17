/**
 * Syllabus's worker threads share the compile cache bin/syllabus.js turns on
 * (content/reference/decisions.md, "The compile cache in every thread"): a thread started by
 * startThread keeps its compiled code in the same folder as the thread that started it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeTree } from '../helpers/temp-tree.ts';

const START_THREAD = pathToFileURL(path.resolve(import.meta.dirname, '../../src/build/start-thread.ts')).href;
const WORKER = pathToFileURL(path.resolve(import.meta.dirname, '../fixtures/threads/report-compile-cache.mjs')).href;

/** Runs a process that turns the compile cache on (in `cacheDir`, unless undefined) and starts the worker; returns both folders. */
function compileCacheFolders(cacheDir: string | undefined): { process: string | null; thread: string | null } {
  const script = `
    import { enableCompileCache, getCompileCacheDir } from 'node:module';
    ${cacheDir ? `enableCompileCache(${JSON.stringify(cacheDir)});` : ''}
    const { startThread } = await import(${JSON.stringify(START_THREAD)});
    startThread(new URL(${JSON.stringify(WORKER)})).once('message', (thread) =>
      console.log(JSON.stringify({ process: getCompileCacheDir() ?? null, thread })));
  `;
  const file = path.join(makeTree({ 'start.mjs': script }), 'start.mjs');
  const env = { ...process.env };
  delete env['NODE_COMPILE_CACHE'];
  const run = spawnSync(process.execPath, [file], { env, encoding: 'utf8' });
  expect(run.stderr.replace(/.*ExperimentalWarning.*\n|.*--trace-warnings.*\n/g, '')).toBe('');
  return JSON.parse(run.stdout) as { process: string | null; thread: string | null };
}

describe('startThread', () => {
  it('gives the thread the compile cache of the process, in the same folder', () => {
    const cacheDir = makeTree({});
    const folders = compileCacheFolders(cacheDir);
    expect(folders.process).not.toBeNull();
    expect(path.dirname(folders.process!)).toBe(fs.realpathSync(cacheDir));
    expect(folders.thread).toBe(folders.process);
  });

  it('starts the thread without one when the process has none', () => {
    expect(compileCacheFolders(undefined)).toEqual({ process: null, thread: null });
  });
});
