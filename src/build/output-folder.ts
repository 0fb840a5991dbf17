/**
 * Writing a built site into its output folder: a full build replaces the folder at once, an
 * incremental build moves its files into the previous build and removes what no longer exists.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Puts `from` in place of `to`. The old folder is moved aside at once and deleted in the
 * background: the returned promise settles when it is gone.
 */
export function replaceFolder(from: string, to: string): Promise<void> {
  const aside = `${to}.old-${process.pid}-${Date.now()}`;
  let old: Promise<void> = Promise.resolve();
  if (fs.existsSync(to)) {
    fs.renameSync(to, aside);
    old = fs.promises.rm(aside, { recursive: true, force: true });
  }
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch {
    fs.cpSync(from, to, { recursive: true });
    fs.rmSync(from, { recursive: true, force: true });
  }
  return old;
}

/**
 * Moves the files of an incremental build (in `staging`) into the previous output `outDir`, and
 * removes the pages (URLs below `base`) and files (paths below the base) that no longer exist.
 */
export function applyChanges(staging: string, outDir: string, base: string, removedPages: readonly string[], removedFiles: readonly string[]): void {
  const move = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      const to = path.join(outDir, path.relative(staging, from));
      if (entry.isDirectory()) {
        fs.mkdirSync(to, { recursive: true });
        move(from);
      } else {
        moveFile(from, to);
      }
    }
  };
  move(staging);
  fs.rmSync(staging, { recursive: true, force: true });
  for (const url of removedPages) {
    const local = decodeURIComponent(url.slice(base.length));
    fs.rmSync(path.join(outDir, local, 'index.html'), { force: true });
    removeEmptyFolders(outDir, path.join(outDir, local));
  }
  for (const file of removedFiles) {
    fs.rmSync(path.join(outDir, file), { force: true });
    removeEmptyFolders(outDir, path.dirname(path.join(outDir, file)));
  }
}

/** Moves a file, copying it when the two places are on different file systems. */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}

function removeEmptyFolders(root: string, dir: string): void {
  for (let current = dir; current.startsWith(root + path.sep); current = path.dirname(current)) {
    try {
      fs.rmdirSync(current);
    } catch {
      return;
    }
  }
}
