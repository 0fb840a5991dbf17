/**
 * Replacing a file whole, the one way every writer of Syllabus does it: a temporary file in the
 * same folder, renamed over the file, so that a reader sees the old file or the new one, never
 * half of one (content/reference/decisions.md, "Libraries and hand-written code").
 */
import fs from 'node:fs';
import path from 'node:path';

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

/** Options of {@link writeFileAtomically}. */
export interface AtomicWriteOptions {
  /**
   * Whether the new file and its folder are flushed to disk (default true), so that a crash of the
   * machine leaves the old file or the new one. Without it, only a reader is sure of that.
   */
  flush?: boolean;
  /** The file operations (default Node's). */
  ops?: AtomicWriteOps;
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
 * Replaces `file` with `text` (or bytes) atomically: writes `.<name>.<pid>.<random>.tmp` in the same folder
 * (with the old file's permissions, if there was one), flushes it to disk, renames it over
 * `file`, then flushes the folder. On any failure the temporary file is removed, `file` is left
 * as it was, and the error is thrown. The folder must exist.
 */
export function writeFileAtomically(file: string, text: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const { flush = true, ops = NODE_OPS } = options;
  const folder = path.dirname(file);
  // A dotfile: in a topic folder, a temporary file left by a crash is never taken for a subject.
  const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  const mode = fs.statSync(file, { throwIfNoEntry: false })?.mode ?? 0o666;
  let fd: number | undefined;
  try {
    fd = ops.openSync(temporary, 'wx', mode & 0o777);
    const data = typeof text === 'string' ? Buffer.from(text) : text;
    for (let written = 0; written < data.length;) written += ops.writeSync(fd, data, written);
    if (flush) ops.fsyncSync(fd);
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
  if (flush) syncFolder(folder);
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
