/** Last-updated dates of files from git: one `git log` pass for the whole knowledge base. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { realPathOrSelf } from '../kb/files/paths.ts';
import type { FileHistory } from './route-data.ts';

const NO_HISTORY: FileHistory = { updated: new Map(), root: undefined, realPathOf: (file) => file };

/**
 * Reads when each file under `folders` was last committed. Outside a git repository, or without
 * git, returns no dates: pages then show none.
 */
export function readFileHistory(cwd: string, folders: string[]): FileHistory {
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd, encoding: 'utf8' });
  if (top.status !== 0 || top.error) return NO_HISTORY;
  const root = top.stdout.trim();
  // Git names files by their real paths; the catalog by the paths it was given (maybe through symlinks).
  const aliases = folders.map((given) => ({ given, real: realPathOrSelf(given) }));
  const log = spawnSync('git', ['log', '--format=%x00%ct', '--name-only', '--no-renames', '-z', '--', ...aliases.map((a) => a.real)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const toGiven = (real: string): string => {
    const alias = aliases.find((a) => real.startsWith(a.real + path.sep));
    return alias ? alias.given + real.slice(alias.real.length) : real;
  };
  const realPathOf = (file: string): string => {
    const alias = aliases.find((a) => file.startsWith(a.given + path.sep));
    return alias ? alias.real + file.slice(alias.given.length) : file;
  };
  const updated = new Map<string, number>();
  if (log.status === 0 && !log.error) for (const [file, time] of parseGitLog(log.stdout, root)) updated.set(toGiven(file), time);
  return { updated, root, realPathOf };
}

/**
 * Parses `git log --format=%x00%ct --name-only -z` output. Fields are NUL-separated: an empty
 * field, then a commit's time, then its files (the first after a line break). Newest commits come
 * first, so the first time a file appears is its last change.
 */
export function parseGitLog(output: string, root: string): Map<string, number> {
  const updated = new Map<string, number>();
  let time = 0;
  let expectTime = true;
  for (const field of output.split('\0')) {
    if (field === '') {
      expectTime = true;
    } else if (expectTime) {
      time = Number(field);
      expectTime = false;
    } else {
      const file = path.join(root, field.replace(/^\n/, ''));
      if (!updated.has(file)) updated.set(file, time);
    }
  }
  return updated;
}
