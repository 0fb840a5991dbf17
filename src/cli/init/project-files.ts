/** The thin fs steps of `init`: reading what is there, and writing the plan's changes. */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomically } from '../../kb/files/atomic-write.ts';
import { CliError } from '../errors.ts';
import type { FileChange, ProjectState } from './plan.ts';

/** Reads the repository's `.gitignore`, package.json and lockfile, and each path `init` would create. */
export function readProjectState(root: string, paths: readonly string[]): ProjectState {
  const existing = new Map<string, string | null>();
  for (const relative of paths) {
    const text = readText(root, relative);
    if (text !== undefined) existing.set(relative, text);
  }
  const gitignore = readText(root, '.gitignore');
  const packageJson = readText(root, 'package.json');
  return {
    existing,
    gitignore: gitignore ?? undefined,
    packageJson: packageJson ?? undefined,
    packageLock: fs.existsSync(path.join(root, 'package-lock.json')),
  };
}

/** A file's text; `undefined` when it does not exist, `null` when it is a folder or another non-file. */
function readText(root: string, relative: string): string | null | undefined {
  const file = path.join(root, relative);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    if (code === 'EISDIR') return null;
    throw new CliError(`cannot read ${relative} (${code ?? String(error)}); nothing was written. Check its permissions.`, 1);
  }
}

/**
 * Writes each change that is not `unchanged`, creating folders as needed, and calls `written`
 * after each; a failure stops there, naming the file (the ones reported before it were written).
 */
export function writeChanges(root: string, changes: readonly FileChange[], written: (change: FileChange) => void): void {
  for (const change of changes) {
    if (change.action === 'unchanged') continue;
    const file = path.join(root, change.path);
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomically(file, change.content);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new CliError(`cannot write ${change.path} (${code}); the files listed above were written. Fix the permissions and run init again.`, 1);
    }
    written(change);
  }
}
