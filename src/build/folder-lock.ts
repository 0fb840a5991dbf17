/**
 * Builds taking turns at a folder they share (the build cache, Astro's `.astro/`): a lock held
 * across the build, proper-lockfile's (a folder made with `mkdir`, which only one process can do,
 * its time refreshed while it is held). A build waits for the lock as long as the other one takes;
 * a lock whose holder died is taken once it is a minute old.
 */

/** Options of {@link lockFolder}. */
export interface FolderLockOptions {
  /** The lock's own folder: `<folder>.lock` beside the folder unless given. */
  lockPath?: string;
  /** Called once, before waiting, when another process holds the lock. */
  waiting?: () => void;
}

/** Takes the lock of `folder` (absolute; it need not exist), waiting for it as long as it takes; resolves to its release. */
export async function lockFolder(folder: string, options: FolderLockOptions = {}): Promise<() => Promise<void>> {
  const lockfile = (await import('proper-lockfile')).default;
  const settings = {
    realpath: false,
    ...(options.lockPath === undefined ? {} : { lockfilePath: options.lockPath }),
    // A build blocks its event loop for seconds at a time, so the lock is refreshed often and taken as stale late.
    stale: 60_000,
    update: 10_000,
    // Losing the lock (a frozen process) leaves the build as it would be without one.
    onCompromised: () => undefined,
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(folder, { ...settings, retries: 0 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    options.waiting?.();
    release = await lockfile.lock(folder, { ...settings, retries: { forever: true, minTimeout: 50, maxTimeout: 1000 } });
  }
  return () => release().catch(() => undefined);
}
