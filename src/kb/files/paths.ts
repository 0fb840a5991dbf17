/** Path containment, the rule behind every "must lie inside" check. */
import fs from 'node:fs';
import path from 'node:path';

/** Whether `target` lies outside `folder` (both absolute; a folder is inside itself). */
export function isOutside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '..' || relative.startsWith('../') || path.isAbsolute(relative);
}

/** The build cache's folder name, beside the first config file by default; never walked for subjects. */
export const CACHE_FOLDER_NAME = '.syllabus-cache';

/** The real path of a file or folder, or the path itself when it does not exist. */
export function realPathOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

/** Symbolic links followed at most, as the system does (Linux's ELOOP). */
const MAX_LINKS = 40;

/**
 * The real path of `file`, which may not exist yet: the symbolic links of the part that exists
 * are followed, a link to a place not made yet too.
 */
export function realPathAsMade(file: string): string {
  return realPathFollowing(file, 0);
}

/** {@link realPathAsMade}, `links` symbolic links followed already. */
function realPathFollowing(file: string, links: number): string {
  const missing: string[] = [];
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...missing.reverse());
    } catch {
      if (links < MAX_LINKS && fs.lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) {
        return path.join(realPathFollowing(path.resolve(path.dirname(at), fs.readlinkSync(at)), links + 1), ...missing.reverse());
      }
      if (path.dirname(at) === at) return path.resolve(file);
      missing.push(path.basename(at));
    }
  }
}
