/**
 * Walking a topic folder (SPEC 2): every file below it, dotfiles included, `.git` folders never,
 * symlinks followed only when their real path stays inside the bound, cycles skipped.
 * A thin fs layer: decisions about slugs and visibility are made elsewhere.
 */
import fs from 'node:fs';
import type { Diagnostic } from './diagnostics.ts';
import { CACHE_FOLDER_NAME, isOutside } from './paths.ts';

/** A file found below a topic folder. */
export interface WalkedFile {
  /** Path relative to the topic folder, `/`-separated, names as on disk. */
  path: string;
  /** Absolute path, through any followed symlink. */
  file: string;
}

/** What a walk found. */
export interface WalkResult {
  files: WalkedFile[];
  diagnostics: Diagnostic[];
}

/** Options of {@link walkTopicFolder}. */
export interface WalkOptions {
  /** Real path of the folder symlinks may not leave. */
  bound: string;
  /** Real paths of files that are never subjects (the knowledge base's config files). */
  exclude: ReadonlySet<string>;
}

/**
 * Lists the files below a topic folder (whose real path is `realDir`). `links.txt` at the top is
 * left out (URL sources, SPEC 8). Problems are warnings; the walk always goes on.
 */
export function walkTopicFolder(dir: string, realDir: string, options: WalkOptions): WalkResult {
  const files: WalkedFile[] = [];
  const diagnostics = visitTopicFolder(dir, realDir, options, (path, file) => files.push({ path, file }));
  return { files, diagnostics };
}

/**
 * Calls `onFile` with the relative and absolute path of every file {@link walkTopicFolder} would
 * list, without building the list (large topics walk faster); returns the warnings.
 */
export function visitTopicFolder(
  dir: string,
  realDir: string,
  options: WalkOptions,
  onFile: (path: string, file: string) => void,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const visit = (folder: Folder): void => {
    for (const entry of readFolder(folder, options, diagnostics)) {
      if (entry.folder) visit(entry.folder);
      else onFile(entry.path, entry.file);
    }
  };
  visit({ abs: dir, real: realDir, rel: '', ancestors: [realDir] });
  return diagnostics;
}

/**
 * Finds the files below a topic folder whose path, component by component, satisfies the tests:
 * `folder(name, depth)` for folders on the way, `file(name)` for files at `depth` (the last).
 * The same rules as the whole walk apply, but only matching folders are read: a point lookup.
 */
export function findTopicFiles(
  dir: string,
  realDir: string,
  options: WalkOptions,
  depth: number,
  tests: { folder: (name: string, depth: number) => boolean; file: (name: string) => boolean },
): WalkedFile[] {
  const found: WalkedFile[] = [];
  const visit = (folder: Folder, level: number): void => {
    const accept = level === depth ? tests.file : (name: string) => tests.folder(name, level);
    for (const entry of readFolder(folder, options, [], accept)) {
      if (entry.folder) {
        if (level < depth) visit(entry.folder, level + 1);
      } else if (level === depth) {
        found.push({ path: entry.path, file: entry.file });
      }
    }
  };
  visit({ abs: dir, real: realDir, rel: '', ancestors: [realDir] }, 0);
  return found;
}

/** A folder being walked: its path, real path, path relative to the topic, and real ancestors. */
interface Folder {
  abs: string;
  real: string;
  rel: string;
  ancestors: readonly string[];
}

/** An entry of a folder that the walk keeps: a file (`folder` undefined) or a folder to enter. */
interface FolderEntry {
  path: string;
  file: string;
  folder: Folder | undefined;
}

/**
 * Reads one folder and applies every rule of SPEC 2 to its entries: `.git` folders, the top
 * `links.txt` and config files left out, symlinks followed only inside the bound and never into a
 * folder that contains them. Only names `accept` allows are looked at. Problems become warnings.
 */
function readFolder(folder: Folder, options: WalkOptions, diagnostics: Diagnostic[], accept?: (name: string) => boolean): FolderEntry[] {
  const warn = (code: Diagnostic['code'], file: string, message: string): void => {
    diagnostics.push({ kind: 'warning', code, message, file });
  };
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder.abs, { withFileTypes: true });
  } catch (error) {
    warn('unreadable', folder.abs, `Cannot read folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Its subjects are skipped; fix its permissions.`);
    return [];
  }
  const kept: FolderEntry[] = [];
  for (const entry of entries) {
    const name = entry.name;
    if (accept && !accept(name)) continue;
    // Plain concatenation: names from readdir hold no separators, and path.join costs time per file.
    const abs = `${folder.abs}/${name}`;
    const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    let real = `${folder.real}/${name}`;
    if (entry.isSymbolicLink()) {
      try {
        real = fs.realpathSync(abs);
      } catch {
        warn('skipped-symlink', abs, 'Skipped a broken symlink: its target does not exist. Remove the link or restore its target.');
        continue;
      }
      if (isOutside(options.bound, real)) {
        warn('skipped-symlink', abs, `Skipped a symlink that leaves the knowledge base (to ${real}). Copy the file into the topic folder instead.`);
        continue;
      }
      const stat = fs.statSync(real, { throwIfNoEntry: false });
      isDir = stat?.isDirectory() ?? false;
      isFile = stat?.isFile() ?? false;
      if (isDir && (folder.ancestors.includes(real) || !isOutside(real, folder.real))) {
        warn('symlink-cycle', abs, `Skipped a symlink to a folder that contains it (${real}), which would loop forever. Remove the link.`);
        continue;
      }
    }
    if (isDir) {
      // Git's folder and Syllabus's own build cache are never knowledge.
      if (name === '.git' || name === CACHE_FOLDER_NAME) continue;
      kept.push({ path: rel, file: abs, folder: { abs, real, rel, ancestors: [...folder.ancestors, real] } });
    } else if (isFile) {
      if (folder.rel === '' && name === 'links.txt') continue;
      if (options.exclude.has(real)) continue;
      kept.push({ path: rel, file: abs, folder: undefined });
    } else {
      warn('special-file', abs, 'Skipped an entry that is neither a file nor a folder (a socket, pipe or device). Remove it from the topic folder.');
    }
  }
  return kept;
}
