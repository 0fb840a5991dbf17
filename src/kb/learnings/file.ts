/**
 * Reading and writing learnings store files: a thin fs layer over `learnings/store.ts`. Writing is
 * atomic (a temporary file in the same folder, flushed to disk, then renamed over the store), so a
 * crash leaves either the old store or the new one, never a mix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseLearningsStore, type LearningsStore } from './store.ts';

/** What reading a store file gave. */
export type StoreFileReading =
  | { ok: true; store: LearningsStore }
  | { ok: false; missing: boolean; problem: string; fix: string; line?: number; column?: number };

/** Reads and parses a store file (UTF-8, a BOM dropped). */
export function readLearningsFile(file: string): StoreFileReading {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, missing: true, problem: 'does not exist', fix: 'Check the path.' };
    if (code === 'EISDIR') return { ok: false, missing: false, problem: 'is a folder, not a file', fix: 'Name the JSON file of the store.' };
    return { ok: false, missing: false, problem: `cannot be read (${code ?? String(error)})`, fix: 'Fix its permissions.' };
  }
  const reading = parseLearningsStore(new TextDecoder('utf-8').decode(bytes));
  return reading.ok ? reading : { ...reading, missing: false };
}

/** The file operations {@link writeFileAtomically} uses; tests replace one to simulate a failure. */
export interface AtomicWriteOps {
  openSync: typeof fs.openSync;
  /** Writes `data` from `offset` on; returns how many bytes were written. */
  writeSync: (fd: number, data: Uint8Array, offset: number) => number;
  fsyncSync: typeof fs.fsyncSync;
  closeSync: typeof fs.closeSync;
  renameSync: typeof fs.renameSync;
  rmSync: typeof fs.rmSync;
}

const NODE_OPS: AtomicWriteOps = {
  openSync: fs.openSync,
  writeSync: (fd, data, offset) => fs.writeSync(fd, data, offset),
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
  rmSync: fs.rmSync,
};

/**
 * Replaces `file` with `text` atomically: writes `.<name>.<pid>.<random>.tmp` in the same folder
 * (with the old file's permissions, if there was one), flushes it to disk, renames it over
 * `file`, then flushes the folder. On any failure the temporary file is removed, `file` is left
 * as it was, and the error is thrown.
 */
export function writeFileAtomically(file: string, text: string, ops: AtomicWriteOps = NODE_OPS): void {
  const folder = path.dirname(file);
  const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const mode = fs.statSync(file, { throwIfNoEntry: false })?.mode ?? 0o666;
  let fd: number | undefined;
  try {
    fd = ops.openSync(temporary, 'wx', mode & 0o777);
    const data = Buffer.from(text);
    for (let written = 0; written < data.length; ) written += ops.writeSync(fd, data, written);
    ops.fsyncSync(fd);
    ops.closeSync(fd);
    fd = undefined;
    ops.renameSync(temporary, file);
  } catch (error) {
    if (fd !== undefined) {
      try {
        ops.closeSync(fd);
      } catch {
        // Already failing: the first error is the one to report.
      }
    }
    ops.rmSync(temporary, { force: true });
    throw error;
  }
  syncFolder(folder);
}

/** Flushes a folder's entries (the rename) to disk, where the system allows it. */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some systems cannot open or flush a folder; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
