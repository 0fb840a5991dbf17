/**
 * Builds taking turns at a folder they share (src/build/folder-lock.ts): a second lock of the same
 * folder waits, says so once, and is taken when the first is released.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockFolder } from '../../src/build/folder-lock.ts';
import { makeTree } from '../helpers/temp-tree.ts';

describe('lockFolder', () => {
  it('makes a second holder wait until the first releases, and says so once', async () => {
    const folder = path.join(makeTree({}), 'cache');
    const lockPath = path.join(path.dirname(folder), 'cache.build.lock');
    const first = await lockFolder(folder, { lockPath });
    expect(fs.existsSync(lockPath)).toBe(true);
    let waits = 0;
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    let taken = false;
    const second = lockFolder(folder, {
      lockPath,
      waiting: () => {
        waits++;
        waiting();
      },
    }).then((release) => {
      taken = true;
      return release;
    });
    await waited;
    expect(taken).toBe(false);
    await first();
    const release = await second;
    expect([taken, waits]).toEqual([true, 1]);
    await release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it('takes a free lock without waiting, beside the folder unless told where', async () => {
    const folder = path.join(makeTree({}), 'shared');
    let waits = 0;
    const release = await lockFolder(folder, { waiting: () => waits++ });
    expect([waits, fs.existsSync(`${folder}.lock`)]).toEqual([0, true]);
    await release();
    expect(fs.existsSync(`${folder}.lock`)).toBe(false);
  });
});
