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
import { promisify } from 'node:util';
import { startBatchedThread, type BatchedThread } from './batched-thread.ts';
import { moduleUrl } from './module-url.ts';

/** One file for the worker: its bytes or text (written as UTF-8), or the file to copy. */
export type FileWrite = { to: string; data: Uint8Array | string } | { to: string; from: string };

/** A batch is sent once its files reach this many bytes, else once the event loop turns. */
const BATCH_BYTES = 256 * 1024;

const WORKER_URL = moduleUrl('./file-writer-worker', import.meta.url);

let current: BatchedThread<FileWrite, null> | undefined;

/** The writer thread, started with the first file; a failed one is replaced by the next write. */
function writerThread(): BatchedThread<FileWrite, null> {
  if (!current || current.failed)
    current = startBatchedThread<FileWrite, null>({
      url: WORKER_URL,
      name: 'the file writer',
      batchSize: BATCH_BYTES,
      sizeOf: (file) => ('data' in file ? file.data.length : 0),
      // Not at the next microtask: pages are made a few at a time, and one message per page cost
      // the build's thread more than the writing saved it.
      yields: 'immediate',
      idleUnref: true,
    });
  return current;
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
  return writerThread()
    .ask({ to, data })
    .then(() => undefined);
}

/** Copies the file `from` to the absolute path `to`, making its folder; settles once it is copied. */
export function copyFileInThread(from: string, to: string): Promise<void> {
  return writerThread()
    .ask({ to, from })
    .then(() => undefined);
}

// Node's callback API, not fs.promises: through fs.promises each file is a FileHandle, which costs
// the calling thread about half as much again.
const writeFile = promisify(fs.writeFile);
const makeFolder = promisify(fs.mkdir);
const copyFile = promisify(fs.copyFile);

/** Writes `data` to the absolute path `to` through Node's thread pool, making its folder first. */
async function writeFileInPool(to: string, data: Uint8Array | string): Promise<void> {
  try {
    await makeFolder(path.dirname(to), { recursive: true });
    await writeFile(to, data);
  } catch (error) {
    throw new Error(`could not write ${to}: ${(error as Error).message}`, { cause: error });
  }
}

/** Copies `from` to the absolute path `to` through Node's thread pool, making its folder first. */
async function copyFileInPool(from: string, to: string): Promise<void> {
  try {
    await makeFolder(path.dirname(to), { recursive: true });
    await copyFile(from, to);
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
