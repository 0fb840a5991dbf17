/**
 * Reading learnings store files: a thin fs layer over `learnings/store.ts`. A store is written
 * with `writeFileAtomically` (files/atomic-write.ts), flushed to disk, so that a crash leaves
 * either the old store or the new one, never a mix.
 */
import fs from 'node:fs';
import { parseLearningsStore, type LearningsStore } from './store.ts';

/** What reading a store file gave. */
export type StoreFileReading = { ok: true; store: LearningsStore } | { ok: false; missing: boolean; problem: string; fix: string; line?: number; column?: number };

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
