/**
 * Walking a topic folder (content/guide/concepts/topics-and-subjects.md): every file below it,
 * dotfiles included, `.git` folders never, names agents could be misled by never, symlinks
 * followed only when their real path stays inside the bound and their target's own rules allow
 * it, cycles skipped. A thin fs layer: what a link's target may show is judged by the caller.
 */
import fs from 'node:fs';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { CACHE_FOLDER_NAME, isOutside } from '../files/paths.ts';
import { holdsGlobCharacters, isUnsafeName } from './slug.ts';

/** A file found below a topic folder. */
export interface WalkedFile {
  /** Path relative to the topic folder, `/`-separated, names as on disk. */
  path: string;
  /** Absolute path, through any followed symlink. */
  file: string;
  /** True when the file is reached through a symlink whose target is hidden where it lies. */
  hiddenByLink?: boolean;
}

/**
 * What a symlink's target may show: everything (`follow`), only as a hidden subject (`hide`, for
 * files), or nothing (`skip`); `reason` is the warning that names why.
 */
export type LinkVerdict = { show: 'follow' } | { show: 'hide' | 'skip'; reason: string };

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
  /**
   * Judges the real path of every file or folder reached through a symlink (inside the bound):
   * a link never shows what its target's own rules hide. Default: everything is followed.
   */
  judgeLink?: (real: string, kind: 'file' | 'folder') => LinkVerdict;
}

/**
 * Lists the files below a topic folder (whose real path is `realDir`). `links.txt` at the top is
 * left out (URL sources, content/reference/subject-formats.md). Problems are warnings; the walk
 * always goes on.
 */
export function walkTopicFolder(dir: string, realDir: string, options: WalkOptions): WalkResult {
  const files: WalkedFile[] = [];
  const diagnostics = visitTopicFolder(dir, realDir, options, (path, file, hiddenByLink) => files.push(hiddenByLink ? { path, file, hiddenByLink } : { path, file }));
  return { files, diagnostics };
}

/**
 * Calls `onFile` with the relative and absolute path of every file {@link walkTopicFolder} would
 * list, without building the list (large topics walk faster); returns the warnings.
 */
export function visitTopicFolder(dir: string, realDir: string, options: WalkOptions, onFile: (path: string, file: string, hiddenByLink: boolean) => void): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const visit = (folder: Folder): void => {
    for (const entry of readFolder(folder, options, diagnostics)) {
      if (entry.folder) visit(entry.folder);
      else onFile(entry.path, entry.file, entry.hiddenByLink);
    }
  };
  visit({ abs: dir, real: realDir, rel: '', ancestors: [realDir], linked: false });
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
        found.push(entry.hiddenByLink ? { path: entry.path, file: entry.file, hiddenByLink: true } : { path: entry.path, file: entry.file });
      }
    }
  };
  visit({ abs: dir, real: realDir, rel: '', ancestors: [realDir], linked: false }, 0);
  return found;
}

/**
 * A folder being walked: its path, real path, path relative to the topic, real ancestors, and
 * whether it was reached through a symlink (then every entry's target is judged).
 */
interface Folder {
  abs: string;
  real: string;
  rel: string;
  ancestors: readonly string[];
  linked: boolean;
}

/** An entry of a folder that the walk keeps: a file (`folder` undefined) or a folder to enter. */
interface FolderEntry {
  path: string;
  file: string;
  folder: Folder | undefined;
  hiddenByLink: boolean;
}

/**
 * Reads one folder and applies every rule of content/guide/concepts/topics-and-subjects.md to its
 * entries: names agents could be misled by, `.git` folders, the top `links.txt` and config files
 * left out; symlinks followed only inside the bound, never into a folder that contains them, and
 * only as far as their target's own rules allow (`judgeLink`); names holding glob characters
 * noted. Only names `accept` allows are looked at. Problems become warnings.
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
    if (isUnsafeName(name)) {
      // Named by its JSON form in a message about its folder: the raw name could forge lines.
      warn(
        'unsafe-name',
        folder.abs,
        `Skipped ${JSON.stringify(name)}: a name holding a control character, a line break, ", < or > could break the framing of what agents read. Rename it.`,
      );
      continue;
    }
    // Plain concatenation: names from readdir hold no separators, and path.join costs time per file.
    const abs = `${folder.abs}/${name}`;
    const rel = folder.rel === '' ? name : `${folder.rel}/${name}`;
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    let real = `${folder.real}/${name}`;
    let hiddenByLink = false;
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
    if ((folder.linked || entry.isSymbolicLink()) && options.judgeLink && (isDir || isFile)) {
      const verdict = options.judgeLink(real, isDir ? 'folder' : 'file');
      if (verdict.show === 'skip') {
        warn('skipped-symlink', abs, verdict.reason);
        continue;
      }
      if (verdict.show === 'hide') {
        warn('hidden-symlink', abs, verdict.reason);
        hiddenByLink = true;
      }
    }
    if ((isDir || isFile) && holdsGlobCharacters(name)) {
      warn(
        'glob-name',
        abs,
        `${isDir ? "The folder's" : 'The'} name holds a glob character (* ? [ ] { } \\): a pattern that names ${isDir ? 'its subjects' : 'it'} exactly is also a glob, and in disabled covers everything that glob matches. Rename it, or escape the characters in patterns (\\*).`,
      );
    }
    if (isDir) {
      // Git's folder and Syllabus's own build cache are never knowledge.
      if (name === '.git' || name === CACHE_FOLDER_NAME) continue;
      kept.push({ path: rel, file: abs, folder: { abs, real, rel, ancestors: [...folder.ancestors, real], linked: folder.linked || entry.isSymbolicLink() }, hiddenByLink });
    } else if (isFile) {
      if (folder.rel === '' && name === 'links.txt') continue;
      if (options.exclude.has(real)) continue;
      kept.push({ path: rel, file: abs, folder: undefined, hiddenByLink });
    } else {
      warn('special-file', abs, 'Skipped an entry that is neither a file nor a folder (a socket, pipe or device). Remove it from the topic folder.');
    }
  }
  return kept;
}
