/**
 * Walking a topic folder (SPEC 2): every file below it, dotfiles included, `.git` folders never,
 * symlinks followed only when their real path stays inside the bound, cycles skipped.
 * A thin fs layer: decisions about slugs and visibility are made elsewhere.
 */
import fs from 'node:fs';
import type { Diagnostic } from './diagnostics.ts';
import { isOutside } from './paths.ts';

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
  const warn = (code: Diagnostic['code'], file: string, message: string): void => {
    diagnostics.push({ kind: 'warning', code, message, file });
  };

  const visit = (absDir: string, realAbsDir: string, relDir: string, ancestors: readonly string[]): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(absDir, { withFileTypes: true });
    } catch (error) {
      warn('unreadable', absDir, `Cannot read folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Its subjects are skipped; fix its permissions.`);
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      // Plain concatenation: names from readdir hold no separators, and path.join costs time per file.
      const abs = `${absDir}/${name}`;
      const rel = relDir === '' ? name : `${relDir}/${name}`;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      let real = `${realAbsDir}/${name}`;
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
        if (isDir && (ancestors.includes(real) || !isOutside(real, realAbsDir))) {
          warn('symlink-cycle', abs, `Skipped a symlink to a folder that contains it (${real}), which would loop forever. Remove the link.`);
          continue;
        }
      }
      if (isDir) {
        if (name === '.git') continue;
        visit(abs, real, rel, [...ancestors, real]);
      } else if (isFile) {
        if (relDir === '' && name === 'links.txt') continue;
        if (options.exclude.has(real)) continue;
        onFile(rel, abs);
      } else {
        warn('special-file', abs, 'Skipped an entry that is neither a file nor a folder (a socket, pipe or device). Remove it from the topic folder.');
      }
    }
  };

  visit(dir, realDir, '', [realDir]);
  return diagnostics;
}
