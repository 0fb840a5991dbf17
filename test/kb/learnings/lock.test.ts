/**
 * The lock of a learnings store: held across the work and released after it, busy and failed
 * outcomes as values, a lock lost while held, and the removal of stale locks, which must never
 * remove a lock another process has just made.
 */
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { describe, expect, it, vi } from 'vitest';
import { LOCK_WAIT_MS, lockFolderOps, lockWaitFromEnv, withLearningsLock } from '../../../src/kb/learnings/lock.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

/** Makes a folder whose time is a minute old: a lock whose process died. */
function staleFolder(folder: string): void {
  fs.mkdirSync(folder);
  const minuteAgo = new Date(Date.now() - 60_000);
  fs.utimesSync(folder, minuteAgo, minuteAgo);
}

const inode = (folder: string): number => fs.statSync(folder).ino;

/** Puts another folder where the lock folder was: another process's lock. */
function replaceFolder(lockPath: string): void {
  fs.mkdirSync(`${lockPath}.other`);
  fs.rmdirSync(lockPath);
  fs.renameSync(`${lockPath}.other`, lockPath);
}

describe('withLearningsLock', () => {
  it('holds <file>.lock while the work runs, on a store that does not exist yet, and removes it after', async () => {
    const dir = makeTree({});
    const file = path.join(dir, 'knowledge.json');
    const outcome = await withLearningsLock(file, (lock) => {
      expect(lock.lockPath).toBe(path.join(fs.realpathSync(dir), 'knowledge.json.lock'));
      expect(fs.readdirSync(dir)).toEqual(['knowledge.json.lock']);
      return lock.lost() ?? 'held';
    });
    expect(outcome).toEqual({ ok: true, value: 'held' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('releases the lock when the work throws', async () => {
    const dir = makeTree({});
    await expect(
      withLearningsLock(path.join(dir, 'knowledge.json'), () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('gives up on a lock another process holds once the wait has passed, without running the work', async () => {
    const dir = makeTree({});
    const file = path.join(dir, 'knowledge.json');
    const release = await lockfile.lock(file, { realpath: false });
    try {
      const work = vi.fn();
      expect(await withLearningsLock(file, work, { waitMs: 50 })).toEqual({ ok: false, reason: 'busy', lockPath: `${file}.lock`, waitedMs: 50 });
      expect(await withLearningsLock(file, work, { waitMs: 0 })).toEqual({ ok: false, reason: 'busy', lockPath: `${file}.lock`, waitedMs: 0 });
      expect(work).not.toHaveBeenCalled();
    } finally {
      await release();
    }
  });

  it('fails at once, without waiting, when the lock folder cannot be made', async () => {
    const dir = makeTree({ 'file.txt': 'x' });
    expect(await withLearningsLock(path.join(dir, 'missing', 'knowledge.json'), () => 1, { waitMs: 60_000 })).toEqual({
      ok: false,
      reason: 'failed',
      lockPath: path.join(dir, 'missing', 'knowledge.json.lock'),
      code: 'ENOENT',
    });
    expect(await withLearningsLock(path.join(dir, 'file.txt', 'knowledge.json'), () => 1, { waitMs: 60_000 })).toMatchObject({ ok: false, reason: 'failed', code: 'ENOTDIR' });
  });

  it('takes over a lock left by a process that died', async () => {
    const dir = makeTree({});
    staleFolder(path.join(dir, 'knowledge.json.lock'));
    expect(await withLearningsLock(path.join(dir, 'knowledge.json'), (lock) => lock.lost() ?? 'held', { waitMs: 0 })).toEqual({ ok: true, value: 'held' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('says when the lock was removed or replaced while held, and then leaves the replacement alone', async () => {
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    const outcome = await withLearningsLock(path.join(dir, 'knowledge.json'), (lock) => {
      fs.rmdirSync(lockPath);
      const removed = lock.lost();
      fs.mkdirSync(lockPath);
      replaceFolder(lockPath);
      return [removed, lock.lost()];
    });
    expect(outcome).toEqual({ ok: true, value: ['removed', 'replaced'] });
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json.lock']);
  });

  it('reports a lock proper-lockfile finds compromised, instead of throwing from its timer', async () => {
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    // With a stale time of 2 s, proper-lockfile refreshes the lock every second.
    const outcome = await withLearningsLock(
      path.join(dir, 'knowledge.json'),
      async (lock) => {
        fs.rmdirSync(lockPath);
        await vi.waitFor(() => expect(lock.lost()).toBe('compromised'), { timeout: 10_000, interval: 50 });
        return 'reported';
      },
      { staleMs: 2000 },
    );
    expect(outcome).toEqual({ ok: true, value: 'reported' });
  });
});

describe('lockFolderOps', () => {
  const noError = (run: (callback: (error: NodeJS.ErrnoException | null) => void) => void): Promise<void> =>
    new Promise((resolve, reject) => run((error) => (error ? reject(error) : resolve())));

  it('never removes, as stale, a lock another process made after it was found stale', async () => {
    // proper-lockfile saw a stale lock and asks to remove it; meanwhile another process removed
    // that one and made its own. Removing by name would remove the new lock (its issue #121).
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    fs.mkdirSync(lockPath);
    const fresh = inode(lockPath);
    await noError((callback) => lockFolderOps(lockPath, 10_000).rmdir(lockPath, callback));
    expect(inode(lockPath)).toBe(fresh);
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json.lock']);
  });

  it('removes a lock that is still stale, leaving no guard folder', async () => {
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    staleFolder(lockPath);
    await noError((callback) => lockFolderOps(lockPath, 10_000).rmdir(lockPath, callback));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('leaves a stale lock to the process whose guard folder is there, and removes a guard left by a dead one', async () => {
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    staleFolder(lockPath);
    fs.mkdirSync(`${lockPath}.recover`);
    await noError((callback) => lockFolderOps(lockPath, 10_000).rmdir(lockPath, callback));
    expect(fs.readdirSync(dir).sort()).toEqual(['knowledge.json.lock', 'knowledge.json.lock.recover']);
    fs.rmdirSync(`${lockPath}.recover`);
    staleFolder(`${lockPath}.recover`);
    await noError((callback) => lockFolderOps(lockPath, 10_000).rmdir(lockPath, callback));
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json.lock']);
    await noError((callback) => lockFolderOps(lockPath, 10_000).rmdir(lockPath, callback));
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('releases only the lock folder it made, not one that replaced it', async () => {
    const dir = makeTree({});
    const lockPath = path.join(dir, 'knowledge.json.lock');
    const ops = lockFolderOps(lockPath, 10_000);
    await noError((callback) => ops.mkdir(lockPath, callback));
    expect(ops.lost()).toBeUndefined();
    replaceFolder(lockPath);
    const other = inode(lockPath);
    expect(ops.lost()).toBe('replaced');
    ops.rmdirSync(lockPath);
    expect(inode(lockPath)).toBe(other);
  });
});

describe('lockWaitFromEnv', () => {
  it('reads SYLLABUS_LOCK_TIMEOUT_MS, a whole number of milliseconds, 0 or more', () => {
    expect(lockWaitFromEnv({})).toEqual({ ok: true, value: LOCK_WAIT_MS });
    expect(lockWaitFromEnv({ SYLLABUS_LOCK_TIMEOUT_MS: '' })).toEqual({ ok: true, value: LOCK_WAIT_MS });
    expect(lockWaitFromEnv({ SYLLABUS_LOCK_TIMEOUT_MS: '0' })).toEqual({ ok: true, value: 0 });
    expect(lockWaitFromEnv({ SYLLABUS_LOCK_TIMEOUT_MS: '2500' })).toEqual({ ok: true, value: 2500 });
    for (const raw of ['-1', '1.5', '1e3', 'soon']) {
      expect(lockWaitFromEnv({ SYLLABUS_LOCK_TIMEOUT_MS: raw })).toEqual({
        ok: false,
        message: `SYLLABUS_LOCK_TIMEOUT_MS=${JSON.stringify(raw)} is not a number of milliseconds. Set it to a whole number, 0 or more, such as 15000, or unset it.`,
      });
    }
  });
});
