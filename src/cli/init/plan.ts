/**
 * What `init` would do, decided from the settings and the files already there, before anything is
 * written: the files to create, replace or update, and what stands in the way.
 */
import { DEPENDABOT_CONFIG, renderDependabot } from './dependabot.ts';
import { DEPLOY_WORKFLOW, renderDeployWorkflow } from './deploy-workflow.ts';
import { addGitignoreLines } from './gitignore.ts';
import { renderKbToml } from './kb-toml.ts';
import { editPackageScripts, knowledgeScripts } from './package-scripts.ts';
import { PR_COMMENT_WORKFLOW, renderPrCommentWorkflow } from './pr-comment-workflow.ts';
import { PR_WORKFLOW, renderPrWorkflow } from './pr-workflow.ts';
import { STARTER_TOPIC, configFile, inFolder, type InitSettings } from './settings.ts';
import { renderStarterSubject } from './starter-subject.ts';

/** A file `init` creates whole. */
export interface GeneratedFile {
  /** Relative to the repository root, with `/` separators. */
  path: string;
  content: string;
}

/** The files `init` creates: the config and the starter subject, and with `--github` the workflows and Dependabot's config. */
export function generatedFiles(settings: InitSettings, github: boolean): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: configFile(settings), content: renderKbToml(settings) },
    { path: inFolder(settings, `${STARTER_TOPIC.folder}/${STARTER_TOPIC.subject}.md`), content: renderStarterSubject(settings) },
  ];
  if (github) {
    files.push(
      { path: DEPLOY_WORKFLOW, content: renderDeployWorkflow(settings) },
      { path: PR_WORKFLOW, content: renderPrWorkflow(settings) },
      { path: PR_COMMENT_WORKFLOW, content: renderPrCommentWorkflow() },
      { path: DEPENDABOT_CONFIG, content: renderDependabot(settings) },
    );
  }
  return files;
}

/** What is in the repository now, for the paths `init` touches. */
export interface ProjectState {
  /** Each generated file's current text; absent when it does not exist, `null` when it is not a file (a folder). */
  existing: ReadonlyMap<string, string | null>;
  gitignore: string | undefined;
  packageJson: string | undefined;
  packageLock: boolean;
}

/** One file's change. `update` keeps the file and adds to it (.gitignore, package.json). */
export interface FileChange {
  path: string;
  action: 'create' | 'replace' | 'update' | 'unchanged';
  content: string;
  /** For `update`: what was added, as the report shows it (`+2 lines`). */
  detail?: string;
}

/** Something already there that `init` would replace. */
export interface Conflict {
  /** As listed after `exists: `. */
  what: string;
  /** False when `--force` cannot help either (a folder where a file goes). */
  replaceable: boolean;
}

/** The plan: every change in the order they are written and reported, and what stands in the way. */
export type InitPlan = { ok: true; changes: FileChange[]; conflicts: Conflict[]; installNeeded: boolean } | { ok: false; problem: string };

/**
 * Decides every change. A generated file that exists with other content is a conflict, and so is a
 * package.json script of the same name with another command; with `force` both are replaced.
 * `.gitignore` lines are only ever added.
 */
export function planInit(settings: InitSettings, options: { github: boolean; force: boolean }, state: ProjectState): InitPlan {
  const changes: FileChange[] = [];
  const conflicts: Conflict[] = [];
  const [config, subject, ...github] = generatedFiles(settings, options.github);
  const planFile = (file: GeneratedFile): void => {
    const current = state.existing.get(file.path);
    if (current === undefined) changes.push({ path: file.path, action: 'create', content: file.content });
    else if (current === file.content) changes.push({ path: file.path, action: 'unchanged', content: file.content });
    else if (current === null) conflicts.push({ what: `${file.path} (not a file: --force does not replace it)`, replaceable: false });
    else {
      conflicts.push({ what: file.path, replaceable: true });
      changes.push({ path: file.path, action: 'replace', content: file.content });
    }
  };
  planFile(config!);
  planFile(subject!);

  const gitignore = addGitignoreLines(state.gitignore);
  if (state.gitignore === undefined) changes.push({ path: '.gitignore', action: 'create', content: gitignore.text });
  else if (gitignore.added.length > 0) {
    changes.push({ path: '.gitignore', action: 'update', content: gitignore.text, detail: `+${gitignore.added.length} ${gitignore.added.length === 1 ? 'line' : 'lines'}` });
  } else changes.push({ path: '.gitignore', action: 'unchanged', content: gitignore.text });

  let installNeeded = true;
  if (state.packageJson !== undefined) {
    const edit = editPackageScripts(state.packageJson, knowledgeScripts(settings), options.force);
    if (!edit.ok) return { ok: false, problem: `package.json ${edit.problem}` };
    installNeeded = !edit.hasSyllabus;
    for (const conflict of edit.conflicts) conflicts.push({ what: `package.json script "${conflict.name}" (${JSON.stringify(conflict.current)})`, replaceable: true });
    const count = edit.written.length;
    changes.push(
      count === 0
        ? { path: 'package.json', action: 'unchanged', content: edit.text }
        : { path: 'package.json', action: 'update', content: edit.text, detail: `${count} ${count === 1 ? 'script' : 'scripts'}` },
    );
  }

  for (const file of github) planFile(file);
  return { ok: true, changes, conflicts, installNeeded };
}
