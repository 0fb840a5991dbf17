/** `syllabus init`: sets a repository up for Syllabus (a kb.toml, a first topic, scripts, and with --github the workflows). */
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import { generatedFiles, planInit } from './init/plan.ts';
import { readProjectState, writeChanges } from './init/project-files.ts';
import { ALREADY_SET_UP, describeChange, describeConflicts, nextSteps } from './init/report.ts';
import { DEFAULT_FOLDER, readableTitle, type InitSettings } from './init/settings.ts';
import type { CommandIo } from './io.ts';
import { packageVersion } from '../build/package-info.ts';
import { parseCommandArgs } from './parse-args.ts';

export const INIT_HELP = `Usage: syllabus init [FOLDER] [--github] [--force]

Sets the current folder (a repository's root) up for Syllabus: FOLDER/kb.toml with a first
topic and a starter subject that explains how to add knowledge, dist/ and .syllabus-cache/ in
.gitignore, and kb:build, kb:dev and kb:check scripts in package.json when there is one.
FOLDER is relative to the current folder (default ${DEFAULT_FOLDER}, where every command looks for
kb.toml without --config). Nothing is overwritten: when a file init would write already exists
with other content, init writes nothing, lists them, and exits 1.

Options:
      --github   also write .github/workflows/knowledge-deploy.yml (GitHub Pages),
                 knowledge-pr.yml and knowledge-pr-comment.yml (check, diff and a preview of
                 each pull request, posted as a comment) and .github/dependabot.yml
      --force    replace existing files and package.json scripts of the same name
  -h, --help     show this help

Exit codes: 0 set up (or already set up), 1 files or scripts already exist (nothing was
written) or a file cannot be read or written, 2 usage error.`;

/** Runs `init`; returns the exit code. */
export async function initCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { github: { type: 'boolean' }, force: { type: 'boolean' } }, 'init');
  if (values.help) {
    io.out(INIT_HELP);
    return 0;
  }
  if (positionals.length > 1) throw usageError(`init takes one FOLDER (got also ${JSON.stringify(positionals[1])}).`, 'init');
  const folder = knowledgeFolder(positionals[0], io.cwd);
  const github = values.github === true;
  const force = values.force === true;

  // Which files init writes does not depend on package.json, which is read together with them.
  const probe: InitSettings = { folder, title: readableTitle(path.basename(io.cwd)), version: packageVersion(), packageJson: false };
  const paths = generatedFiles(probe, github).map((f) => f.path);
  const state = readProjectState(io.cwd, paths);
  const settings: InitSettings = { ...probe, packageJson: state.packageJson !== undefined };
  const plan = planInit(settings, { github, force }, state);
  if (!plan.ok) throw new CliError(`${plan.problem}; nothing was written. Fix package.json, then run init again.`, 1);

  const blocking = plan.conflicts.filter((c) => !force || !c.replaceable);
  if (blocking.length > 0) {
    // With --force, only what it cannot replace is left to list.
    const rerun = force ? undefined : ['syllabus init', ...(folder === DEFAULT_FOLDER ? [] : [folder]), ...(github ? ['--github'] : []), '--force'].join(' ');
    const count = blocking.length;
    throw new CliError(`nothing was written: ${count === 1 ? 'this already exists' : `these ${count} already exist`} with other content.`, 1, describeConflicts(blocking, rerun));
  }

  let wrote = false;
  writeChanges(io.cwd, plan.changes, (change) => {
    wrote = true;
    io.err(describeChange(change)!);
  });
  if (!wrote) io.err(ALREADY_SET_UP);
  io.err('');
  for (const line of nextSteps(settings, { github, installNeeded: plan.installNeeded, packageLock: state.packageLock })) io.err(line);
  return 0;
}

/**
 * FOLDER as a path relative to the current folder with `/` separators (`.` for the folder
 * itself). It must stay inside the current folder, and keep to characters that need no quoting
 * in the scripts and workflows it is written into.
 */
function knowledgeFolder(given: string | undefined, cwd: string): string {
  if (given === undefined) return DEFAULT_FOLDER;
  const relative = path.relative(cwd, path.resolve(cwd, given));
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    throw usageError(`FOLDER must be inside the current folder, the repository's root (got ${JSON.stringify(given)}).`, 'init');
  }
  const folder = relative === '' ? '.' : relative.split(path.sep).join('/');
  if (!/^[A-Za-z0-9._/-]+$/.test(folder)) {
    throw usageError(`FOLDER may hold only letters, digits, ".", "_", "-" and "/", since it is written into scripts and workflows (got ${JSON.stringify(given)}).`, 'init');
  }
  return folder;
}
