/** What `init` prints on stderr: a line per file it wrote, then the next steps. */
import { DEPLOY_WORKFLOW_NAME } from './deploy-workflow.ts';
import type { Conflict, FileChange } from './plan.ts';
import { INSTALL_COMMAND, STARTER_TOPIC, inFolder, localCommand, type InitSettings } from './settings.ts';

/** The line for a written file: `created content/kb.toml`, `updated .gitignore (+2 lines)`; `undefined` for an unchanged one. */
export function describeChange(change: FileChange): string | undefined {
  switch (change.action) {
    case 'create':
      return `created ${change.path}`;
    case 'replace':
      return `replaced ${change.path}`;
    case 'update':
      return `updated ${change.path} (${change.detail})`;
    case 'unchanged':
      return undefined;
  }
}

/** The line printed when every file is already as `init` would write it. */
export const ALREADY_SET_UP = 'Everything is already set up: nothing was changed.';

/** What the repository still needs: installing Syllabus, a first look at the site, and Pages with `--github`. */
export function nextSteps(settings: InitSettings, options: { github: boolean; installNeeded: boolean; packageLock: boolean }): string[] {
  const steps: [string, string][] = [];
  // The workflows install with npm ci, which needs package-lock.json in the repository.
  const lockNeeded = options.github && settings.packageJson && !options.packageLock;
  if (options.installNeeded) {
    const why = settings.packageJson ? 'install Syllabus: package.json does not list it yet' : 'install Syllabus in this repository (this creates package.json)';
    steps.push([INSTALL_COMMAND, lockNeeded ? `${why}; commit package-lock.json too, the workflows need it` : why]);
  } else if (lockNeeded) steps.push(['npm install', 'writes package-lock.json; commit it, the workflows install with npm ci']);
  steps.push([localCommand(settings, 'dev'), `see the site at http://127.0.0.1:4321/ while you add subjects to ${inFolder(settings, STARTER_TOPIC.folder)}/`]);
  const width = Math.max(...steps.map(([command]) => command.length)) + 2;
  const lines = ['Next steps:', ...steps.map(([command, why]) => `  ${command.padEnd(width)}${why}`)];
  if (options.github) lines.push(`  On GitHub, Settings → Pages → Source: GitHub Actions, so that ${DEPLOY_WORKFLOW_NAME} can publish the site.`);
  return lines;
}

/** The lines of a refusal: each conflict, then the command that replaces them (when there is one to suggest). */
export function describeConflicts(conflicts: readonly Conflict[], rerun: string | undefined): string[] {
  const lines = conflicts.map((c) => `exists: ${c.what}`);
  if (rerun !== undefined && conflicts.some((c) => c.replaceable)) lines.push(`Rerun with --force to replace them: ${rerun}`);
  return lines;
}
