/** Path containment, the rule behind every "must lie inside" check. */
import path from 'node:path';

/** Whether `target` lies outside `folder` (both absolute; a folder is inside itself). */
export function isOutside(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '..' || relative.startsWith('../') || path.isAbsolute(relative);
}
