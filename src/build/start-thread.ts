/**
 * Starting Syllabus's worker threads. bin/syllabus.js turns on Node's compile cache, which keeps
 * the compiled code of the modules between runs; a worker thread has its own, which it turns on
 * only from `NODE_COMPILE_CACHE` as it starts. Each thread is given the variable, and nothing else
 * that Syllabus starts is (content/reference/decisions.md, "The compile cache in every thread").
 */
import path from 'node:path';
import { getCompileCacheDir } from 'node:module';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Starts the worker of `url` with `options`, sharing this thread's compile cache when it has one. */
export function startThread(url: URL, options: WorkerOptions = {}): Worker {
  const env = options.env ?? threadEnv();
  return new Worker(url, env ? { ...options, env } : options);
}

/** The environment of a new thread: this one's, with the compile cache's folder when the cache is on and the variable unset. */
function threadEnv(): NodeJS.ProcessEnv | undefined {
  const dir = getCompileCacheDir();
  if (!dir || process.env['NODE_COMPILE_CACHE']) return undefined;
  // The folder Node names is the one of this Node's version inside the folder it was given, and
  // Node makes that same one inside the folder it is given again.
  return { ...process.env, NODE_COMPILE_CACHE: path.dirname(dir) };
}
