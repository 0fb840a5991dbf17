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
