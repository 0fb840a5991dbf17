/**
 * Knowing when the files of a knowledge base change: one native watcher per folder.
 *
 * Node's `fs.watch(dir, { recursive: true })` on Linux watches every file on its own (one inotify
 * watch and one stat per file, created synchronously), and after a file is replaced by an atomic
 * save (write a temporary file, rename it over the old one) it keeps watching the old file, so
 * the second such save goes unseen. A folder's own watcher sees every change to its entries,
 * edits in place and renames alike, so folders are walked and watched one by one instead.
 */
import fs from 'node:fs';
import path from 'node:path';

/** What to watch. */
export interface WatchTargets {
  /** Folders watched with everything below them (symlinked folders followed, `.git` left out). */
  trees: readonly string[];
  /** Single files (watched through their folder, so that a replaced file is still seen). */
  files: readonly string[];
  /** Folders inside the trees that are neither walked nor watched (a build's output folder). */
  skip?: readonly string[];
}

/** Watchers over a set of folders and files. */
export interface FolderWatch {
  /**
   * Watches exactly these targets: watchers still needed are kept, new folders (created since the
   * last call) get one, the others are closed. A missing target is watched through its nearest
   * existing parent folder, so that its creation is seen. Throws when the system refuses a
   * watcher (the inotify limits); the watchers made so far are kept.
   */
  update(targets: WatchTargets): void;
  /** Closes every watcher. */
  close(): void;
}

interface Watched {
  watcher: fs.FSWatcher;
  /** The folder's inode when the watcher was made: a folder replaced since needs a new one. */
  ino: number;
  /** Names whose changes count; undefined: every name. */
  names: Set<string> | undefined;
}

/**
 * Creates the watchers; `onChange` is called (maybe many times) after anything watched changes,
 * with the path of what changed: the entry of a watched folder (for a symlinked file, in the folder
 * it really lies in), or the folder itself when it was deleted or its watcher failed.
 */
export function watchFolders(onChange: (changed: string) => void): FolderWatch {
  const watched = new Map<string, Watched>();
  let closed = false;

  const drop = (folder: string): void => {
    watched.get(folder)?.watcher.close();
    watched.delete(folder);
  };

  const watch = (folder: string, ino: number, names: Set<string> | undefined): void => {
    const self = path.basename(folder);
    const entry: Watched = {
      ino,
      names,
      watcher: fs.watch(folder, { persistent: true }, (_event, name) => {
        if (name === self) {
          // The folder itself was deleted or moved (or a child has its name): this watcher may be
          // dead, and a folder created again in its place can reuse its inode. Drop it; the next
          // update makes a new one.
          if (watched.get(folder) === entry) drop(folder);
          onChange(folder);
        } else if (entry.names === undefined || name === null || entry.names.has(name)) {
          onChange(name === null ? folder : `${folder}/${name}`);
        }
      }),
    };
    entry.watcher.on('error', () => {
      if (watched.get(folder) === entry) drop(folder);
      onChange(folder);
    });
    watched.set(folder, entry);
  };

  return {
    update(targets) {
      if (closed) return;
      const wanted = wantedFolders(targets);
      for (const [folder, entry] of watched) {
        const want = wanted.get(folder);
        if (!want || want.ino !== entry.ino) drop(folder);
        else entry.names = want.names;
      }
      for (const [folder, want] of wanted) {
        if (!watched.has(folder)) watch(folder, want.ino, want.names);
      }
    },
    close() {
      closed = true;
      for (const folder of [...watched.keys()]) drop(folder);
    },
  };
}

/** Every folder to watch, with its inode and the names that count in it (undefined: all). */
function wantedFolders(targets: WatchTargets): Map<string, { ino: number; names: Set<string> | undefined }> {
  const wanted = new Map<string, { ino: number; names: Set<string> | undefined }>();
  const want = (folder: string, ino: number, name: string | undefined): void => {
    const known = wanted.get(folder);
    if (!known) {
      wanted.set(folder, { ino, names: name === undefined ? undefined : new Set([name]) });
    } else if (name === undefined) {
      known.names = undefined;
    } else {
      known.names?.add(name);
    }
  };
  // A missing path is watched through the nearest folder that exists, for the name leading to it.
  const wantAncestor = (target: string): void => {
    let child = path.resolve(target);
    for (let parent = path.dirname(child); ; child = parent, parent = path.dirname(parent)) {
      const stat = fs.statSync(parent, { throwIfNoEntry: false });
      if (stat?.isDirectory()) return want(parent, stat.ino, path.basename(child));
      if (parent === path.dirname(parent)) return;
    }
  };
  const seenReal = new Set<string>();
  const skipped = new Set((targets.skip ?? []).map((folder) => path.resolve(folder)));
  const walk = (folder: string, stat: fs.Stats): void => {
    if (skipped.has(folder)) return;
    let real: string;
    try {
      real = fs.realpathSync(folder);
    } catch {
      return;
    }
    // A symlink loop, or two targets over the same folder: watch it once.
    if (seenReal.has(real)) return;
    seenReal.add(real);
    want(folder, stat.ino, undefined);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.name === '.git' || entry.name === '.syllabus-cache') continue;
      const child = `${folder}/${entry.name}`;
      if (entry.isDirectory()) {
        const childStat = fs.statSync(child, { throwIfNoEntry: false });
        if (childStat) walk(child, childStat);
      } else if (entry.isSymbolicLink()) {
        const target = fs.statSync(child, { throwIfNoEntry: false });
        if (target?.isDirectory()) walk(child, target);
        else if (target?.isFile()) wantFile(child);
      }
    }
  };
  // A symlinked file changes where it really is: watch that folder for its real name too.
  const wantFile = (file: string): void => {
    let real = file;
    try {
      real = fs.realpathSync(file);
    } catch {
      // A broken link: its own folder sees it appear.
    }
    for (const place of new Set([path.resolve(file), real])) {
      const folder = path.dirname(place);
      const stat = fs.statSync(folder, { throwIfNoEntry: false });
      if (stat?.isDirectory()) want(folder, stat.ino, path.basename(place));
      else wantAncestor(folder);
    }
  };

  for (const tree of targets.trees) {
    const folder = path.resolve(tree);
    const stat = fs.statSync(folder, { throwIfNoEntry: false });
    if (stat?.isDirectory()) walk(folder, stat);
    else if (stat) wantFile(folder);
    else wantAncestor(folder);
  }
  for (const file of targets.files) wantFile(file);
  return wanted;
}
