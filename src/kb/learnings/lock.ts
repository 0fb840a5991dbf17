/**
 * Locking a learnings store across a read-modify-write, so that commands changing one store at the
 * same moment take turns instead of losing each other's changes. A thin fs layer over
 * proper-lockfile: the lock is the empty folder `<file>.lock` beside the store (made with `mkdir`,
 * which only one process can do), its time refreshed while it is held; a lock whose time is older
 * than {@link LOCK_STALE_MS} was left by a process that died, and is removed by the next one.
 * Expected failures (the lock is busy, its folder cannot be made) are returned as values.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How long a lock may go without its holder refreshing it (every half of this) before another
 * process takes it as left by a process that died, and removes it. proper-lockfile's default: a
 * store is read, changed and written in milliseconds, so only a dead or frozen holder gets there.
 */
export const LOCK_STALE_MS = 10_000;

/**
 * How long a command waits for a lock another process holds, unless `SYLLABUS_LOCK_TIMEOUT_MS`
 * says otherwise. Longer than {@link LOCK_STALE_MS}, so that a lock left by a process that died
 * is removed while a command waits instead of making it fail.
 */
export const LOCK_WAIT_MS = 15_000;

/** The environment variable that overrides {@link LOCK_WAIT_MS}, in milliseconds. */
export const LOCK_TIMEOUT_VARIABLE = 'SYLLABUS_LOCK_TIMEOUT_MS';

/** The first pause between two tries at a busy lock; each pause doubles, up to {@link MAX_PAUSE_MS}, with jitter. */
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 250;

/** The wait for a busy lock in an environment: {@link LOCK_TIMEOUT_VARIABLE}, else {@link LOCK_WAIT_MS}. */
export function lockWaitFromEnv(env: Readonly<Record<string, string | undefined>>): { ok: true; value: number } | { ok: false; message: string } {
  const raw = env[LOCK_TIMEOUT_VARIABLE];
  if (raw === undefined || raw === '') return { ok: true, value: LOCK_WAIT_MS };
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    return {
      ok: false,
      message: `${LOCK_TIMEOUT_VARIABLE}=${JSON.stringify(raw)} is not a number of milliseconds. Set it to a whole number, 0 or more, such as ${LOCK_WAIT_MS}, or unset it.`,
    };
  }
  return { ok: true, value };
}

/** How a lock stopped being this process's while it held it. */
export type LockLoss =
  /** proper-lockfile could not refresh it in time, or found it gone or changed. */
  | 'compromised'
  /** Its folder is gone. */
  | 'removed'
  /** Its folder is another one: another process took it as stale and locked the store itself. */
  | 'replaced';

/** A lock this process holds, as the work under it sees it. */
export interface HeldLock {
  /** The lock's folder. */
  readonly lockPath: string;
  /** Whether the lock is still this process's: check it just before writing the store. */
  lost(): LockLoss | undefined;
}

/** What {@link withLearningsLock} gave: the work's result, or why it did not run. */
export type LockOutcome<T> =
  | { ok: true; value: T }
  /** Another process held the lock for the whole wait. */
  | { ok: false; reason: 'busy'; lockPath: string; waitedMs: number }
  /** The lock's folder cannot be made (its folder is missing or not writable): `code` says why. */
  | { ok: false; reason: 'failed'; lockPath: string; code: string };

/** Options of {@link withLearningsLock}. */
export interface LearningsLockOptions {
  /** How long to wait for a lock another process holds; default {@link LOCK_WAIT_MS}. */
  waitMs?: number;
  /** When a lock counts as left by a dead process; default {@link LOCK_STALE_MS} (at least 2000). */
  staleMs?: number;
}

/**
 * A store's path through the real path of its folder, so that every process names one store (and
 * its lock, `<this>.lock`) alike: writing replaces the name in that folder. Throws when the folder
 * does not exist.
 */
function canonicalStorePath(file: string): string {
  const absolute = path.resolve(file);
  return path.join(fs.realpathSync(path.dirname(absolute)), path.basename(absolute));
}

/**
 * Runs `work` while this process holds the lock of the store `file` (which need not exist yet),
 * then releases it, also when `work` throws. A busy lock is tried again, with pauses growing from
 * 10 ms to 250 ms, until `waitMs` has passed. Only a busy lock is waited for: a folder that cannot
 * be made fails at once.
 */
export async function withLearningsLock<T>(file: string, work: (lock: HeldLock) => T | Promise<T>, options: LearningsLockOptions = {}): Promise<LockOutcome<T>> {
  const waitMs = options.waitMs ?? LOCK_WAIT_MS;
  const staleMs = Math.max(options.staleMs ?? LOCK_STALE_MS, 2000);
  let store: string;
  try {
    store = canonicalStorePath(file);
  } catch (error) {
    return { ok: false, reason: 'failed', lockPath: `${path.resolve(file)}.lock`, code: codeOf(error) };
  }
  const lockPath = `${store}.lock`;
  const lockfile = (await import('proper-lockfile')).default;
  const ops = lockFolderOps(lockPath, staleMs);
  let compromised = false;
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  let release: () => Promise<void>;
  for (;;) {
    try {
      release = await lockfile.lock(store, {
        realpath: false,
        lockfilePath: lockPath,
        stale: staleMs,
        retries: 0,
        fs: ops,
        // proper-lockfile's default throws, from a timer: that would end the process.
        onCompromised: () => {
          compromised = true;
        },
      });
      break;
    } catch (error) {
      const code = codeOf(error);
      if (code !== 'ELOCKED') return { ok: false, reason: 'failed', lockPath, code };
      const left = started + waitMs - Date.now();
      if (left <= 0) return { ok: false, reason: 'busy', lockPath, waitedMs: waitMs };
      await sleep(Math.min(left, pause * (0.5 + Math.random())));
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    }
  }
  const held: HeldLock = {
    lockPath,
    lost: () => (compromised ? 'compromised' : ops.lost()),
  };
  try {
    return { ok: true, value: await work(held) };
  } finally {
    // A lock already lost is not this process's to remove (release says so, and removes nothing).
    await release().catch(() => undefined);
  }
}

/** The file operations proper-lockfile uses on one lock, as {@link lockFolderOps} gives them. */
export interface LockFolderOps {
  mkdir(file: string, callback: (error: NodeJS.ErrnoException | null) => void): void;
  stat(file: string, callback: (error: NodeJS.ErrnoException | null, stats: fs.Stats) => void): void;
  utimes(file: string, atime: Date, mtime: Date, callback: (error: NodeJS.ErrnoException | null) => void): void;
  rmdir(file: string, callback: (error: NodeJS.ErrnoException | null) => void): void;
  rmdirSync(file: string): void;
  /** Whether the lock folder this process made is gone or another one (undefined: still there). */
  lost(): 'removed' | 'replaced' | undefined;
}

/**
 * The file operations given to proper-lockfile for the lock folder `lockPath`. They remove a
 * folder only when it is the one this process made, or when it is stale — checked again, one
 * process at a time, under the guard folder `<lockPath>.recover`. proper-lockfile alone removes a
 * folder it found stale a moment earlier: when two processes find it so at once, the later one
 * removes the lock the earlier one has just made, and both go on (its issue #121).
 */
export function lockFolderOps(lockPath: string, staleMs: number): LockFolderOps {
  // The folder this process made, as of its last change by this process. A folder removed and
  // made again may get the same inode number; its change time then differs: a process takes a
  // lock over only once its time is older than `staleMs`.
  let mine: fs.BigIntStats | undefined;
  const identify = (): fs.BigIntStats | undefined => fs.statSync(lockPath, { bigint: true, throwIfNoEntry: false });
  const lost = (): 'removed' | 'replaced' | undefined => {
    const now = identify();
    if (!now) return 'removed';
    return mine && now.dev === mine.dev && now.ino === mine.ino && now.ctimeNs === mine.ctimeNs ? undefined : 'replaced';
  };
  const remove = (): void => {
    if (!mine) {
      removeStaleLock(lockPath, staleMs);
      return;
    }
    const ours = lost() === undefined;
    mine = undefined;
    if (ours) removeFolder(lockPath);
  };
  return {
    mkdir: (file, callback) => {
      fs.mkdir(file, (error) => {
        if (!error && file === lockPath) mine = identify();
        callback(error);
      });
    },
    stat: (file, callback) => fs.stat(file, callback),
    utimes: (file, atime, mtime, callback) => {
      const ours = file === lockPath && mine !== undefined && lost() === undefined;
      fs.utimes(file, atime, mtime, (error) => {
        if (!error && ours) mine = identify();
        callback(error);
      });
    },
    rmdir: (file, callback) => {
      if (file !== lockPath) return fs.rmdir(file, callback);
      try {
        remove();
        callback(null);
      } catch (error) {
        callback(error as NodeJS.ErrnoException);
      }
    },
    rmdirSync: (file) => {
      if (file === lockPath) remove();
      else fs.rmdirSync(file);
    },
    lost,
  };
}

/**
 * Removes the lock folder `lockPath`, found stale, if it still is. One process at a time: the one
 * that makes the guard folder `<lockPath>.recover` looks again and removes it; the others leave it
 * and try the lock again later. A guard is held for a few system calls; one older than `staleMs`
 * was left by a process that died in them, and is removed.
 */
function removeStaleLock(lockPath: string, staleMs: number): void {
  const guard = `${lockPath}.recover`;
  try {
    fs.mkdirSync(guard);
  } catch (error) {
    if (codeOf(error) !== 'EEXIST') throw error;
    const stats = fs.statSync(guard, { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < Date.now() - staleMs) removeFolder(guard);
    return;
  }
  try {
    const stats = fs.statSync(lockPath, { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < Date.now() - staleMs) removeFolder(lockPath);
  } finally {
    removeFolder(guard);
  }
}

/** Removes an empty folder; one already gone is fine. */
function removeFolder(folder: string): void {
  try {
    fs.rmdirSync(folder);
  } catch (error) {
    if (codeOf(error) !== 'ENOENT') throw error;
  }
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
