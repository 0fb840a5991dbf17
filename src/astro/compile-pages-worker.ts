/**
 * The worker thread that compiles the site's pages ahead of the content (see `compilePages` in
 * run-astro.ts): Astro's build runs here while the build's thread reads the knowledge base, with a
 * heap of its own, and ends with the thread.
 */
import { workerData } from 'node:worker_threads';
import { compilePages, type CompileRequest } from './run-astro.ts';

await compilePages(workerData as CompileRequest);
