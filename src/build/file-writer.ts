/**
 * Files written in a thread of their own (content/reference/decisions.md, "Files written in a
 * thread of their own"): the build's thread hands each file to one worker thread, in batches, and
 * the worker writes them one after the other with Node's synchronous API. Through Node's thread
 * pool every file cost the build's thread a hand-over of its own (a folder, an open, a write, a
 * close), each waking one of four pool threads on a machine of two cores.
 *
 * The thread starts with the first file and keeps the process alive only while files are being
 * written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/** One file for the worker: its bytes or text (written as UTF-8), or the file to copy. */
export type FileWrite = { to: string; data: Uint8Array | string } | { to: string; from: string };

/** Files sent to the worker in one message. */
export interface WriteBatch {
  files: FileWrite[];
}

/** The worker's answer to a batch: for each file in order, null when written, else why not. */
export interface WriteResults {
  failures: (string | null)[];
}

/** A batch is sent once its files reach this many bytes, else once the event loop turns. */
const BATCH_BYTES = 256 * 1024;

/** This module's own extension: `.ts` run from the sources (tests), `.js` compiled. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const WORKER_URL = new URL(`./file-writer-worker${EXTENSION}`, import.meta.url);

type Waiting = { resolve: () => void; reject: (error: Error) => void };

interface WriterThread {
  write(file: FileWrite): Promise<void>;
}

let current: WriterThread | undefined;

/** Starts the worker; it ends when the process does, and a failed one is replaced by the next write. */
function startWriterThread(): WriterThread {
  const worker = new Worker(WORKER_URL);
  worker.unref();
  // The batches sent, oldest first, each with who waits for its files; the worker answers in order.
  const sent: Waiting[][] = [];
  let files: FileWrite[] = [];
  let waiting: Waiting[] = [];
  let bytes = 0;
  let pending = 0;
  let failure: Error | undefined;
  const settled = (count: number): void => {
    pending -= count;
    if (pending === 0) worker.unref();
  };
  const fail = (error: Error): void => {
    failure ??= error;
    if (current === thread) current = undefined;
    const all = [...sent.flat(), ...waiting];
    sent.length = 0;
    waiting = [];
    files = [];
    for (const w of all) w.reject(failure);
    settled(all.length);
  };
  worker.on('message', (reply: WriteResults) => {
    const batch = sent.shift()!;
    reply.failures.forEach((problem, n) => (problem === null ? batch[n]!.resolve() : batch[n]!.reject(new Error(problem))));
    settled(batch.length);
  });
  worker.on('error', (error) => fail(new Error(`the file writer's thread failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`the file writer's thread stopped (exit code ${code})`)));
  const send = (): void => {
    if (files.length === 0) return;
    const batch: WriteBatch = { files };
    sent.push(waiting);
    worker.postMessage(batch);
    files = [];
    waiting = [];
    bytes = 0;
  };
  const thread: WriterThread = {
    write(file) {
      if (failure) return Promise.reject(failure);
      return new Promise<void>((resolve, reject) => {
        if (pending++ === 0) worker.ref();
        // Not at the next microtask: pages are made a few at a time, and one message per page cost
        // the build's thread more than the writing saved it.
        if (files.length === 0) setImmediate(send);
        files.push(file);
        waiting.push({ resolve, reject });
        bytes += 'data' in file ? file.data.length : 0;
        if (bytes >= BATCH_BYTES) send();
      });
    },
  };
  return thread;
}

/**
 * A file at least this large is written through Node's thread pool instead: a copy of it in the
 * writer's heap would stay there until that thread next collects its garbage, and the texts that
 * grow with the site (llms-full.txt, the indexes) are tens of megabytes at 100,000 subjects.
 */
const LARGE_BYTES = 1024 * 1024;

/** Writes `data` (bytes, or text as UTF-8) to the absolute path `to`, making its folder; settles once it is written. */
export function writeFileInThread(to: string, data: Uint8Array | string): Promise<void> {
  if (data.length >= LARGE_BYTES) return writeFileInPool(to, data);
  current ??= startWriterThread();
  return current.write({ to, data });
}

/** Copies the file `from` to the absolute path `to`, making its folder; settles once it is copied. */
export function copyFileInThread(from: string, to: string): Promise<void> {
  current ??= startWriterThread();
  return current.write({ to, from });
}

/** Writes `data` to the absolute path `to` through Node's thread pool, making its folder first. */
async function writeFileInPool(to: string, data: Uint8Array | string): Promise<void> {
  try {
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.writeFile(to, data);
  } catch (error) {
    throw new Error(`could not write ${to}: ${(error as Error).message}`, { cause: error });
  }
}

/** Copies `from` to the absolute path `to` through Node's thread pool, making its folder first. */
async function copyFileInPool(from: string, to: string): Promise<void> {
  try {
    await fs.promises.mkdir(path.dirname(to), { recursive: true });
    await fs.promises.copyFile(from, to);
  } catch (error) {
    throw new Error(`could not write ${to}: ${(error as Error).message}`, { cause: error });
  }
}

/** Fewer files than this are written through Node's thread pool: starting the writer thread cost a one-subject rebuild more than it saved. */
const FILES_FOR_THREAD = 128;

/** Writing and copying files: {@link writeFileInThread} and {@link copyFileInThread}, or Node's thread pool for a few files. */
export interface FileWriter {
  write(to: string, data: Uint8Array | string): Promise<void>;
  copy(from: string, to: string): Promise<void>;
}

/** The writer for `count` files: the writer thread for many, Node's thread pool for a few. */
export function fileWriterFor(count: number): FileWriter {
  return count >= FILES_FOR_THREAD ? { write: writeFileInThread, copy: copyFileInThread } : { write: writeFileInPool, copy: copyFileInPool };
}
