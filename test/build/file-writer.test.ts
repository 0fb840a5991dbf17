/**
 * The build's files are written by a thread of its own (src/build/file-writer.ts): every byte
 * arrives, folders are made as needed, and a failure names the file while the other writes go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyFileInThread, fileWriterFor, writeFileInThread } from '../../src/build/file-writer.ts';
import { makeTree } from '../helpers/temp-tree.ts';

describe('the file writer thread', () => {
  it('writes bytes, text and copies into folders it makes, across batches over the size limit', async () => {
    const dir = makeTree({ 'source.bin': new Uint8Array([0, 1, 2, 255]) });
    // 40 files of 10 kB: more than one batch of 256 kB, sent without waiting between them.
    const big = (n: number) => new Uint8Array(10_000).fill(n);
    await Promise.all([
      ...Array.from({ length: 40 }, (_, n) => writeFileInThread(path.join(dir, 'out', `t${n % 3}`, `p${n}`, 'index.html'), big(n))),
      writeFileInThread(path.join(dir, 'out', 'kb', 'note.txt'), 'héllo\n'),
      copyFileInThread(path.join(dir, 'source.bin'), path.join(dir, 'out', 'raw', 'deep', 'copy.bin')),
    ]);
    for (let n = 0; n < 40; n++) expect(fs.readFileSync(path.join(dir, 'out', `t${n % 3}`, `p${n}`, 'index.html')).equals(Buffer.from(big(n)))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'out', 'kb', 'note.txt'), 'utf8')).toBe('héllo\n');
    expect([...fs.readFileSync(path.join(dir, 'out', 'raw', 'deep', 'copy.bin'))]).toEqual([0, 1, 2, 255]);
  });

  it('writes a file of a megabyte or more too, into a folder it makes, and names it when that fails', async () => {
    const dir = makeTree({ 'a-file': 'not a folder' });
    const large = 'line of the index\n'.repeat(70_000);
    await writeFileInThread(path.join(dir, 'kb', 'llms-full.txt'), large);
    expect(fs.readFileSync(path.join(dir, 'kb', 'llms-full.txt'), 'utf8')).toBe(large);
    const blocked = path.join(dir, 'a-file', 'index.json');
    await expect(writeFileInThread(blocked, large)).rejects.toThrow(`could not write ${blocked}: EEXIST`);
  });

  it('rejects the write that failed with the file it names, and goes on writing the others', async () => {
    const dir = makeTree({ 'a-file': 'not a folder' });
    const blocked = path.join(dir, 'a-file', 'page.html');
    const results = await Promise.allSettled([
      writeFileInThread(path.join(dir, 'ok-1.txt'), '1'),
      writeFileInThread(blocked, 'x'),
      writeFileInThread(path.join(dir, 'ok-2.txt'), '2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(((results[1] as PromiseRejectedResult).reason as Error).message).toMatch(new RegExp(`^could not write ${blocked.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOTDIR`));
    expect(fs.readFileSync(path.join(dir, 'ok-2.txt'), 'utf8')).toBe('2');
    // A copy of a file that is not there fails too, and names where it was going.
    await expect(copyFileInThread(path.join(dir, 'missing'), path.join(dir, 'out', 'copy'))).rejects.toThrow(`could not write ${path.join(dir, 'out', 'copy')}: ENOENT`);
    await writeFileInThread(path.join(dir, 'after.txt'), 'still writing');
    expect(fs.readFileSync(path.join(dir, 'after.txt'), 'utf8')).toBe('still writing');
  });

  it('writes a few files through the thread pool just the same', async () => {
    const dir = makeTree({ 'source.bin': new Uint8Array([7, 8]), 'a-file': 'not a folder' });
    const few = fileWriterFor(2);
    expect(few.write).not.toBe(writeFileInThread);
    await few.write(path.join(dir, 'out', 'deep', 'page.html'), new Uint8Array([60, 62]));
    await few.copy(path.join(dir, 'source.bin'), path.join(dir, 'out', 'raw', 'copy.bin'));
    expect([...fs.readFileSync(path.join(dir, 'out', 'deep', 'page.html'))]).toEqual([60, 62]);
    expect([...fs.readFileSync(path.join(dir, 'out', 'raw', 'copy.bin'))]).toEqual([7, 8]);
    const blocked = path.join(dir, 'a-file', 'page.html');
    await expect(few.write(blocked, 'x')).rejects.toThrow(`could not write ${blocked}: EEXIST`);
    expect(fileWriterFor(5000).write).toBe(writeFileInThread);
  });
});
