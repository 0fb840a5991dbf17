/**
 * The worker thread that writes the build's files (file-writer.ts starts it): each batch is
 * written file by file, in order, and answered with what failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import type { FileWrite, WriteBatch, WriteResults } from './file-writer.ts';

const port = parentPort!;

/** Writes one file; a missing folder is made, once, when the first write into it fails. */
function writeOne(file: FileWrite): void {
  const put = (): void => ('from' in file ? fs.copyFileSync(file.from, file.to) : fs.writeFileSync(file.to, file.data));
  try {
    put();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(path.dirname(file.to), { recursive: true });
    put();
  }
}

port.on('message', (batch: WriteBatch) => {
  const reply: WriteResults = {
    failures: batch.files.map((file) => {
      try {
        writeOne(file);
        return null;
      } catch (error) {
        return `could not write ${file.to}: ${(error as Error).message}`;
      }
    }),
  };
  port.postMessage(reply);
});
