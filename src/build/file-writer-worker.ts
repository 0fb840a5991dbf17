/**
 * The worker thread that writes the build's files (file-writer.ts starts it): each batch is
 * written file by file, in order, and answered with what failed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { answerBatches } from './batched-thread.ts';
import type { FileWrite } from './file-writer.ts';

/** Writes one file; a missing folder is made, once, when the first write into it fails. */
function writeOne(file: FileWrite): null {
  const put = (): void => ('from' in file ? fs.copyFileSync(file.from, file.to) : fs.writeFileSync(file.to, file.data));
  try {
    put();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    fs.mkdirSync(path.dirname(file.to), { recursive: true });
    put();
  }
  return null;
}

answerBatches(writeOne, (file, error) => `could not write ${file.to}: ${error.message}`);
