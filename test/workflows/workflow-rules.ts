/**
 * The rules the project's GitHub Actions workflows follow, each a check that returns its problems
 * (an empty list when the workflow keeps the rule). Nothing here can run a workflow, so these rules
 * are what make the workflows trustworthy: they read the YAML, the shell of `run:` steps, the
 * package.json scripts and the CLI's own help.
 */
import YAML from 'yaml';

/** A workflow file, parsed. */
export interface Workflow {
  file: string;
  name: string | undefined;
  /** The events of `on:`, whatever its form (string, list or map). */
  events: string[];
  /** Top-level `permissions:` as written; `undefined` when absent. */
  permissions: unknown;
  jobs: Job[];
  /** `on.workflow_run.workflows`: the workflows whose runs start this one. */
  triggeringWorkflows: string[];
}

/** A job of a workflow. */
export interface Job {
  id: string;
  /** Job-level `permissions:` as written; `undefined` when absent (the job then has the workflow's). */
  permissions: unknown;
  steps: Step[];
}

/** A step of a job. */
export interface Step {
  /** Where the step is, for messages: `file › job › step N "name"`. */
  where: string;
  uses: string | undefined;
  run: string | undefined;
  with: Record<string, unknown>;
}

/** What the CLI offers: each command and the options its `--help` names. */
export interface CliSurface {
  commands: Record<string, readonly string[]>;
}

/** Events whose runs can carry a pull request's code or data. */
const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target', 'workflow_run'];

/** Parses a workflow file; throws on YAML that is not a workflow. */
export function parseWorkflow(file: string, text: string): Workflow {
  const doc = YAML.parse(text) as unknown;
  if (!isRecord(doc) || !isRecord(doc['jobs'])) throw new Error(`${file}: not a workflow (no jobs).`);
  const on = doc['on'];
  const events = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : isRecord(on) ? Object.keys(on) : [];
  const workflowRun = isRecord(on) && isRecord(on['workflow_run']) ? on['workflow_run']['workflows'] : undefined;
  const jobs = Object.entries(doc['jobs']).map(([id, value]): Job => {
    const job = isRecord(value) ? value : {};
    const steps = Array.isArray(job['steps']) ? job['steps'] : [];
    return {
      id,
      permissions: job['permissions'] ?? undefined,
      steps: steps.map((raw: unknown, index): Step => {
        const step = isRecord(raw) ? raw : {};
        const name = typeof step['name'] === 'string' ? step['name'] : typeof step['id'] === 'string' ? step['id'] : undefined;
        return {
          where: `${file} › ${id} › step ${index + 1}${name ? ` "${name}"` : ''}`,
          uses: typeof step['uses'] === 'string' ? step['uses'] : undefined,
          run: typeof step['run'] === 'string' ? step['run'] : undefined,
          with: isRecord(step['with']) ? step['with'] : {},
        };
      }),
    };
  });
  return {
    file,
    name: typeof doc['name'] === 'string' ? doc['name'] : undefined,
    events,
    permissions: doc['permissions'] ?? undefined,
    jobs,
    triggeringWorkflows: typeof workflowRun === 'string' ? [workflowRun] : Array.isArray(workflowRun) ? workflowRun.map(String) : [],
  };
}

/** Reads the CLI's commands and each command's options from the texts of `--help`. */
export function readCliSurface(mainHelp: string, commandHelp: (command: string) => string): CliSurface {
  const section = mainHelp.split(/^Commands:$/m)[1] ?? '';
  const names = [...section.matchAll(/^ {2}([a-z][a-z-]*) +\S/gm)].map((m) => m[1]!);
  const commands: Record<string, readonly string[]> = {};
  for (const name of names) {
    const help = commandHelp(name);
    commands[name] = [...new Set([...help.matchAll(/(?<![\w-])(--?[A-Za-z][\w-]*)/g)].map((m) => m[1]!))].sort();
  }
  return { commands };
}

/**
 * (a) Every `npm run X` names a script of package.json, and every `syllabus <command>`
 * (`npx syllabus`, `node …/bin/syllabus.js`, or a package.json script that runs one, with the
 * arguments after `--`) names a command the CLI has, with options its `--help` lists.
 */
export function commandProblems(workflow: Workflow, scripts: Record<string, string>, cli: CliSurface): string[] {
  const problems: string[] = [];
  for (const step of allSteps(workflow)) {
    if (step.run === undefined) continue;
    for (const words of shellCommands(step.run)) {
      const command = commandWords(words);
      const npmScript = npmScriptOf(command);
      if (npmScript) {
        const body = scripts[npmScript.name];
        if (body === undefined) {
          problems.push(`${step.where}: npm run ${npmScript.name}: package.json has no script "${npmScript.name}".`);
          continue;
        }
        // npm appends the arguments after `--` to the script's text: they reach its last command.
        const inner = shellCommands(body);
        inner.forEach((innerWords, i) => {
          const invocation = syllabusInvocation(commandWords(innerWords));
          const extra = i === inner.length - 1 ? npmScript.extra : [];
          if (invocation) problems.push(...invocationProblems(step.where, { ...invocation, args: [...invocation.args, ...extra] }, cli));
        });
        continue;
      }
      const invocation = syllabusInvocation(command);
      if (invocation) problems.push(...invocationProblems(step.where, invocation, cli));
    }
  }
  return problems;
}

/**
 * (b) No job that can write runs the pull request's code, or any code from the workspace: it
 * checks nothing out in a workflow a pull request can start, checks out no pull request head,
 * runs no npm, npx, node or script file, and uses no local action. `pull_request_target` is not
 * used at all.
 */
export function untrustedCodeProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  if (workflow.events.includes('pull_request_target')) {
    problems.push(
      `${workflow.file}: uses pull_request_target, whose runs hold a write token and the secrets next to the pull request's code; use pull_request, and workflow_run for what must write.`,
    );
  }
  const prEvents = workflow.events.filter((e) => PULL_REQUEST_EVENTS.includes(e));
  for (const job of workflow.jobs) {
    const writes = effectiveWrites(workflow, job);
    if (writes.length === 0) continue;
    const can = `its token can write (${writes.join(', ')})`;
    for (const step of job.steps) {
      if (step.uses?.startsWith('actions/checkout@')) {
        const ref = [step.with['ref'], step.with['repository']].filter((value) => typeof value === 'string').join(' ');
        if (prEvents.length > 0) problems.push(`${step.where}: checks out code in a ${prEvents.join('/')} workflow, and ${can}.`);
        else if (/pull_request\.head|head_ref|workflow_run\.head|refs\/pull\//.test(ref)) problems.push(`${step.where}: checks out a pull request's head, and ${can}.`);
      }
      if (step.uses?.startsWith('./')) problems.push(`${step.where}: uses a local action (${step.uses}), code from the workspace, and ${can}.`);
      if (step.run !== undefined) {
        for (const word of new Set(workspaceCommands(step.run))) problems.push(`${step.where}: runs ${word}, code from the workspace, and ${can}.`);
      }
      const script = step.uses?.startsWith('actions/github-script@') ? step.with['script'] : undefined;
      if (typeof script === 'string' && /\b(require|import)\s*\(\s*['"`](\.|\$\{)|GITHUB_WORKSPACE/.test(script)) {
        problems.push(`${step.where}: its script loads code from the workspace, and ${can}.`);
      }
    }
  }
  return problems;
}

/**
 * (c) The top level sets `permissions:` explicitly (without it every job gets the repository's
 * default token, which may write) and grants no write: writes belong to the jobs that need them.
 */
export function permissionProblems(workflow: Workflow): string[] {
  const writes = grantedWrites(workflow.permissions);
  if (writes === 'unset')
    return [
      `${workflow.file}: sets no top-level permissions, so every job without its own gets the repository's default token, which may write; add "permissions:" with the least the jobs need.`,
    ];
  if (writes.length > 0) return [`${workflow.file}: grants write at the top level (${writes.join(', ')}); grant writes only to the jobs that need them.`];
  return [];
}

/** (d) Every action is pinned to a major version tag at least (`@v4`, `@v4.1.2`) or to a commit SHA. */
export function pinningProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  for (const step of allSteps(workflow)) {
    const uses = step.uses;
    if (uses === undefined || uses.startsWith('./')) continue;
    const pinned = uses.startsWith('docker://') ? /@sha256:[0-9a-f]{64}$/.test(uses) : /^[\w.-]+\/[\w.-]+(\/[^@]+)?@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/.test(uses);
    if (!pinned) problems.push(`${step.where}: ${uses} is not pinned to a version tag (@vN) or a commit SHA.`);
  }
  return problems;
}

/**
 * (e) A workflow that pull requests start runs their code, so every job's token is read-only and
 * no secret is read (GITHUB_TOKEN aside).
 */
export function pullRequestTokenProblems(workflow: Workflow, text: string): string[] {
  if (!workflow.events.some((e) => e === 'pull_request' || e === 'pull_request_target')) return [];
  const problems: string[] = [];
  for (const job of workflow.jobs) {
    const writes = effectiveWrites(workflow, job);
    if (writes.length > 0) problems.push(`${workflow.file} › ${job.id}: runs on pull requests with a token that can write (${writes.join(', ')}); it must be read-only.`);
  }
  const secrets = [...new Set([...text.matchAll(/secrets\.(\w+)/g)].map((m) => m[1]!).filter((name) => name !== 'GITHUB_TOKEN'))];
  if (secrets.length > 0) problems.push(`${workflow.file}: runs on pull requests and reads secrets (${secrets.join(', ')}).`);
  return problems;
}

/**
 * (f) No `${{ … }}` expression is written into a shell or github-script script, where a value
 * such as a branch name or a pull request title would become code; values go through `env:`.
 */
export function injectionProblems(workflow: Workflow): string[] {
  const problems: string[] = [];
  for (const step of allSteps(workflow)) {
    const script = step.run ?? (step.uses?.startsWith('actions/github-script@') ? step.with['script'] : undefined);
    if (typeof script === 'string' && script.includes('${{')) problems.push(`${step.where}: writes a \${{ … }} expression into its script; pass the value through env: instead.`);
  }
  return problems;
}

/**
 * Across workflows: a workflow_run workflow names workflows that exist, and downloads only
 * artifacts that one of them uploads.
 */
export function crossWorkflowProblems(workflows: readonly Workflow[]): string[] {
  const problems: string[] = [];
  for (const workflow of workflows) {
    if (workflow.triggeringWorkflows.length === 0) continue;
    const triggering = workflows.filter((w) => w.name !== undefined && workflow.triggeringWorkflows.includes(w.name));
    for (const name of workflow.triggeringWorkflows) {
      if (!triggering.some((w) => w.name === name)) problems.push(`${workflow.file}: runs after workflow "${name}", which no workflow file names.`);
    }
    const uploaded = new Set(
      triggering
        .flatMap((w) => allSteps(w))
        .filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
        .map((s) => String(s.with['name'])),
    );
    for (const step of allSteps(workflow)) {
      if (!step.uses?.startsWith('actions/download-artifact@')) continue;
      const name = String(step.with['name']);
      if (!uploaded.has(name)) problems.push(`${step.where}: downloads artifact "${name}", which ${workflow.triggeringWorkflows.join(', ')} does not upload.`);
    }
  }
  return problems;
}

/**
 * The simple commands of a shell script, each as its words with quotes removed: split at
 * newlines, `;`, `&&`, `||`, `|`, `&`, parentheses and command substitutions (whose commands are
 * listed too); redirections and comments dropped. Enough for the scripts of workflow steps.
 */
export function shellCommands(script: string): string[][] {
  const commands: string[][] = [];
  const text = script.replace(/\\\r?\n/g, '');
  let words: string[] = [];
  let word: string | null = null;
  let redirect = false;
  const endWord = (): void => {
    if (word === null) return;
    if (redirect) redirect = false;
    else words.push(word);
    word = null;
  };
  const endCommand = (): void => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  /** The end of a `$(…)` starting at `open` (the `(`), counting nested parentheses. */
  const closing = (open: number): number => {
    let depth = 0;
    for (let j = open; j < text.length; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')' && --depth === 0) return j;
    }
    return text.length;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end < 0 ? text.length : end;
      word = (word ?? '') + text.slice(i + 1, stop);
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
        } else if (text[j] === '$' && text[j + 1] === '(') {
          const end = closing(j + 1);
          commands.push(...shellCommands(text.slice(j + 2, end)));
          value += '$(…)';
          j = end + 1;
        } else {
          value += text[j];
          j++;
        }
      }
      word = (word ?? '') + value;
      i = j;
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[i + 1];
      i++;
    } else if (c === '#' && word === null) {
      const end = text.indexOf('\n', i);
      i = (end < 0 ? text.length : end) - 1;
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else if (c === '$' && text[i + 1] === '(') {
      const end = closing(i + 1);
      commands.push(...shellCommands(text.slice(i + 2, end)));
      word = (word ?? '') + '$(…)';
      i = end;
    } else if ('\n;&|()`'.includes(c)) {
      endCommand();
    } else if (c === '>' || c === '<') {
      // `2>`: the number is the redirected stream, not a word; `>>`, `>&`: one operator.
      if (word !== null && /^\d+$/.test(word)) word = null;
      else endWord();
      while (text[i + 1] === '>' || text[i + 1] === '&') i++;
      redirect = true;
    } else {
      word = (word ?? '') + c;
    }
  }
  endCommand();
  return commands;
}

/** The words of a command from the command name on: shell keywords and `VAR=value` prefixes removed. */
function commandWords(words: readonly string[]): string[] {
  let start = 0;
  while (start < words.length && (SHELL_KEYWORDS.has(words[start]!) || /^[A-Za-z_]\w*=/.test(words[start]!))) start++;
  return words.slice(start);
}

const SHELL_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '!', '{', '}', 'time', 'exec']);

/** `npm run X [-- args]` (and `npm test`): the script and the arguments passed on to it. */
function npmScriptOf(words: readonly string[]): { name: string; extra: string[] } | undefined {
  if (words[0] !== 'npm') return undefined;
  const skipOptions = (from: number): number => {
    let i = from;
    while (words[i]?.startsWith('-') && words[i] !== '--') i++;
    return i;
  };
  const verbAt = skipOptions(1);
  const verb = words[verbAt];
  let nameAt: number;
  if (verb === 'run' || verb === 'run-script') nameAt = skipOptions(verbAt + 1);
  else if (verb === 'test' || verb === 't' || verb === 'start' || verb === 'stop' || verb === 'restart') nameAt = verbAt;
  else return undefined;
  const name = words[nameAt] === 't' ? 'test' : words[nameAt];
  if (name === undefined || name === '--') return undefined;
  const after = words.slice(nameAt + 1);
  const dashes = after.indexOf('--');
  return { name, extra: dashes < 0 ? [] : after.slice(dashes + 1) };
}

/** A run of the syllabus CLI: `syllabus …`, `npx [opts] syllabus …`, `node [opts] <path>/bin/syllabus.js …`. */
function syllabusInvocation(words: readonly string[]): { command: string | undefined; args: string[] } | undefined {
  let rest: string[];
  const [first, ...others] = words;
  if (first === 'syllabus') rest = others;
  else if (first === 'npx') {
    const i = others.findIndex((w) => !w.startsWith('-'));
    if (i < 0 || others[i] !== 'syllabus') return undefined;
    rest = others.slice(i + 1);
  } else if (first === 'node' || first?.endsWith('/node')) {
    const i = others.findIndex((w) => !w.startsWith('-'));
    if (i < 0 || !/(^|\/)bin\/syllabus\.js$/.test(others[i]!)) return undefined;
    rest = others.slice(i + 1);
  } else return undefined;
  return { command: rest[0], args: rest.slice(1) };
}

function invocationProblems(where: string, invocation: { command: string | undefined; args: string[] }, cli: CliSurface): string[] {
  const { command, args } = invocation;
  const names = Object.keys(cli.commands);
  if (command === undefined || command.startsWith('-')) return [`${where}: syllabus is run without a command.`];
  const options = cli.commands[command];
  if (options === undefined) return [`${where}: syllabus ${command}: the CLI has no such command (it has ${names.join(', ')}).`];
  const problems: string[] = [];
  const end = args.indexOf('--');
  for (const arg of end < 0 ? args : args.slice(0, end)) {
    if (!arg.startsWith('-') || arg === '-') continue;
    const option = arg.split('=')[0]!;
    if (!options.includes(option)) problems.push(`${where}: syllabus ${command} ${option}: ${command} has no such option (its help lists ${options.join(', ')}).`);
  }
  return problems;
}

/** The command words of a script that run code from the workspace. */
function workspaceCommands(script: string): string[] {
  const found: string[] = [];
  for (const words of shellCommands(script)) {
    const [name, ...args] = commandWords(words);
    if (name === undefined) continue;
    if (PACKAGE_RUNNERS.has(name)) found.push(name);
    else if (INTERPRETERS.has(name)) {
      const inline = args.indexOf('-c');
      if (inline >= 0 && args[inline + 1] !== undefined) found.push(...workspaceCommands(args[inline + 1]!));
      else if (args.some((a) => !a.startsWith('-'))) found.push(`${name} ${args.find((a) => !a.startsWith('-'))}`);
    } else if (name.includes('/') && !/^\/(usr\/)?s?bin\//.test(name)) found.push(name);
  }
  return found;
}

/** Commands that run a project's own code by nature (package.json scripts, JavaScript, makefiles). */
const PACKAGE_RUNNERS = new Set(['node', 'npm', 'npx', 'yarn', 'pnpm', 'bun', 'deno', 'corepack', 'make']);
/** Interpreters: they run workspace code when given a file (not an inline `-c` script, which is checked itself). */
const INTERPRETERS = new Set(['bash', 'sh', 'zsh', 'dash', 'python', 'python3', 'ruby', 'perl', 'source', '.']);

/** The scopes a `permissions:` value grants write to; `'unset'` when it is absent. */
export function grantedWrites(permissions: unknown): string[] | 'unset' {
  if (permissions === undefined || permissions === null) return 'unset';
  if (permissions === 'read-all') return [];
  if (permissions === 'write-all') return ['write-all'];
  if (isRecord(permissions)) {
    return Object.entries(permissions)
      .filter(([, level]) => level === 'write')
      .map(([scope]) => scope);
  }
  return [`unrecognised permissions ${JSON.stringify(permissions)}`];
}

/** The scopes a job's token can write: its own permissions, else the workflow's, else the repository default (which may write). */
export function effectiveWrites(workflow: Workflow, job: Job): string[] {
  const own = grantedWrites(job.permissions);
  if (own !== 'unset') return own;
  const top = grantedWrites(workflow.permissions);
  return top === 'unset' ? ["the repository's default token"] : top;
}

function allSteps(workflow: Workflow): Step[] {
  return workflow.jobs.flatMap((job) => job.steps);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
