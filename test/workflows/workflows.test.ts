/**
 * The GitHub Actions workflows in .github/workflows keep the rules of workflow-rules.ts: they run
 * only npm scripts and CLI commands that exist, no job that can write runs a pull request's code,
 * permissions are explicit and least, actions are pinned, and the pull request workflow's token
 * is read-only. Nothing can run the workflows here, so each rule is also shown to catch a small
 * workflow that breaks it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ROOT, runCli } from '../helpers/run-cli.ts';
import { makeTree, type TreeEntry } from '../helpers/temp-tree.ts';
import {
  commandProblems,
  crossWorkflowProblems,
  injectionProblems,
  parseWorkflow,
  permissionProblems,
  pinningProblems,
  pullRequestTokenProblems,
  readCliSurface,
  shellCommands,
  untrustedCodeProblems,
  type CliSurface,
} from './workflow-rules.ts';

const DIR = path.join(ROOT, '.github', 'workflows');
const FILES = fs
  .readdirSync(DIR)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const TEXTS = new Map(FILES.map((f) => [f, fs.readFileSync(path.join(DIR, f), 'utf8')]));
const WORKFLOWS = FILES.map((f) => parseWorkflow(f, TEXTS.get(f)!));
const SCRIPTS = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

describe('the workflows of .github/workflows', () => {
  let cli: CliSurface;
  beforeAll(() => {
    const help = (args: string[]): string => {
      const run = runCli(args);
      if (run.code !== 0) throw new Error(`syllabus ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
      return run.stdout;
    };
    cli = readCliSurface(help(['--help']), (command) => help([command, '--help']));
  });

  it('are the deploy, pull request and comment workflows', () => {
    expect(WORKFLOWS.map((w) => ({ file: w.file, name: w.name, events: w.events }))).toEqual([
      { file: 'deploy.yml', name: 'deploy', events: ['push', 'workflow_dispatch'] },
      { file: 'knowledge-pr-comment.yml', name: 'knowledge-pr-comment', events: ['workflow_run'] },
      { file: 'knowledge-pr.yml', name: 'knowledge-pr', events: ['pull_request'] },
    ]);
  });

  it("reads the CLI's commands and options from its help", () => {
    expect(Object.keys(cli.commands)).toEqual(expect.arrayContaining(['learn', 'prompt', 'schema', 'check', 'build', 'dev', 'preview', 'mcp']));
    expect(cli.commands['check']).toEqual(expect.arrayContaining(['--config', '--format', '--help', '--strict', '-c', '-h']));
  });

  // knowledge-pr.yml runs diff and build --base (content/guide/reviewing-changes.md): like every
  // command a workflow runs, they must be in the CLI's help.
  it.each(FILES)('%s: (a) runs only npm scripts, syllabus commands and options that exist', (file) => {
    expect(commandProblems(WORKFLOWS[FILES.indexOf(file)]!, SCRIPTS, cli)).toEqual([]);
  });

  it.each(FILES)('%s: (b) no job that can write runs code from a pull request or the workspace', (file) => {
    expect(untrustedCodeProblems(WORKFLOWS[FILES.indexOf(file)]!)).toEqual([]);
  });

  it.each(FILES)('%s: (c) top-level permissions are explicit and grant no write', (file) => {
    expect(permissionProblems(WORKFLOWS[FILES.indexOf(file)]!)).toEqual([]);
  });

  it.each(FILES)('%s: (d) every action is pinned to a version tag or a commit', (file) => {
    expect(pinningProblems(WORKFLOWS[FILES.indexOf(file)]!)).toEqual([]);
  });

  it.each(FILES)('%s: (e) on pull requests, every token is read-only and no secret is read', (file) => {
    expect(pullRequestTokenProblems(WORKFLOWS[FILES.indexOf(file)]!, TEXTS.get(file)!)).toEqual([]);
  });

  it('(e) the pull request workflow is among them, read-only in every job', () => {
    const pr = WORKFLOWS.find((w) => w.events.includes('pull_request'))!;
    expect(pr.permissions).toEqual({ contents: 'read' });
    expect(pr.jobs.map((job) => [job.id, job.permissions])).toEqual([
      ['check', undefined],
      ['preview', undefined],
    ]);
  });

  it.each(FILES)('%s: (f) no ${{ }} expression is written into a script', (file) => {
    expect(injectionProblems(WORKFLOWS[FILES.indexOf(file)]!)).toEqual([]);
  });

  it('the comment workflow follows the pull request workflow and downloads what it uploads', () => {
    expect(crossWorkflowProblems(WORKFLOWS)).toEqual([]);
  });
});

describe('each rule catches a workflow that breaks it', () => {
  const CLI: CliSurface = {
    commands: {
      build: ['--cache', '--config', '--help', '--out', '-c', '-h', '-o'],
      check: ['--config', '--format', '--help', '--json', '--strict', '-c', '-h'],
    },
  };
  const PACKAGE_SCRIPTS = { build: 'node bin/syllabus.js build --config content/kb.toml', test: 'vitest run' };

  it('splits a step script into simple commands', () => {
    const script = [
      'KB=x node bin/syllabus.js build \\',
      '  --out "../site preview"   # a comment',
      "if [[ -f a ]]; then npx syllabus check --format=github 2>&1 | tee 'out.txt'; fi",
      'echo "$(syllabus learn guide)" > out.md && cat out.md',
    ].join('\n');
    expect(shellCommands(script)).toEqual([
      ['KB=x', 'node', 'bin/syllabus.js', 'build', '--out', '../site preview'],
      ['if', '[[', '-f', 'a', ']]'],
      ['then', 'npx', 'syllabus', 'check', '--format=github'],
      ['tee', 'out.txt'],
      ['fi'],
      ['syllabus', 'learn', 'guide'],
      ['echo', '$(…)'],
      ['cat', 'out.md'],
    ]);
  });

  it('(a) an npm script, a command or an option that does not exist', () => {
    const workflow = parseWorkflow(
      'a.yml',
      `
name: a
on: push
permissions:
  contents: read
jobs:
  site:
    runs-on: ubuntu-latest
    steps:
      - run: npm ci && npm test
      - run: npm run nope
      - run: npx syllabus frobnicate
      - name: Build
        run: |
          node bin/syllabus.js build --config kb.toml -o dist \\
            --bogus 1
      - run: npm run build -- --base ../base-site
      - run: echo "$(node ../head/bin/syllabus.js diff a/kb.toml b/kb.toml)" > diff.md
      - run: npx syllabus check --format=github --config kb.toml -- --not-an-option
      - run: syllabus --config kb.toml
`,
    );
    const lists = 'build, check';
    const buildOptions = '--cache, --config, --help, --out, -c, -h, -o';
    expect(commandProblems(workflow, PACKAGE_SCRIPTS, CLI)).toEqual([
      'a.yml › site › step 2: npm run nope: package.json has no script "nope".',
      `a.yml › site › step 3: syllabus frobnicate: the CLI has no such command (it has ${lists}).`,
      `a.yml › site › step 4 "Build": syllabus build --bogus: build has no such option (its help lists ${buildOptions}).`,
      `a.yml › site › step 5: syllabus build --base: build has no such option (its help lists ${buildOptions}).`,
      `a.yml › site › step 6: syllabus diff: the CLI has no such command (it has ${lists}).`,
      'a.yml › site › step 8: syllabus is run without a command.',
    ]);
  });

  it('(b) pull_request_target, and a writing job that checks out and runs the pull request', () => {
    const workflow = parseWorkflow(
      'b1.yml',
      `
name: b1
on: pull_request_target
permissions:
  contents: read
jobs:
  comment:
    runs-on: ubuntu-latest
    permissions:
      pull-requests: write
    steps:
      - uses: actions/checkout@v5
        with:
          ref: \${{ github.event.pull_request.head.sha }}
      - run: npm ci && npm test
`,
    );
    expect(untrustedCodeProblems(workflow)).toEqual([
      "b1.yml: uses pull_request_target, whose runs hold a write token and the secrets next to the pull request's code; use pull_request, and workflow_run for what must write.",
      'b1.yml › comment › step 1: checks out code in a pull_request_target workflow, and its token can write (pull-requests).',
      'b1.yml › comment › step 2: runs npm, code from the workspace, and its token can write (pull-requests).',
    ]);
  });

  it('(b) a writing workflow_run job that checks out, runs a script file, a local action or a required module', () => {
    const workflow = parseWorkflow(
      'b2.yml',
      `
name: b2
on:
  workflow_run:
    workflows: [knowledge-pr]
    types: [completed]
permissions: {}
jobs:
  comment:
    runs-on: ubuntu-latest
    permissions:
      actions: read
      pull-requests: write
    steps:
      - uses: actions/checkout@v5
      - run: bash scripts/comment.sh
      - uses: ./.github/actions/comment
      - uses: actions/github-script@v8
        with:
          script: require('./scripts/comment.js')(github)
`,
    );
    const can = 'its token can write (pull-requests)';
    expect(untrustedCodeProblems(workflow)).toEqual([
      `b2.yml › comment › step 1: checks out code in a workflow_run workflow, and ${can}.`,
      `b2.yml › comment › step 2: runs bash scripts/comment.sh, code from the workspace, and ${can}.`,
      `b2.yml › comment › step 3: uses a local action (./.github/actions/comment), code from the workspace, and ${can}.`,
      `b2.yml › comment › step 4: its script loads code from the workspace, and ${can}.`,
    ]);
  });

  it("(b) on push: a writing job that checks out a pull request's head or runs workspace code; a job with the default token", () => {
    const workflow = parseWorkflow(
      'b3.yml',
      `
name: b3
on: push
jobs:
  build:
    runs-on: ubuntu-latest
    permissions:
      contents: read
    steps:
      - uses: actions/checkout@v5
      - run: npm ci && npm run build
  release:
    runs-on: ubuntu-latest
    permissions:
      contents: write
    steps:
      - uses: actions/checkout@v5
        with:
          ref: refs/pull/7/head
      - run: |
          git tag v1
          ./scripts/release.sh
          sh -c 'node tools/publish.js'
  other:
    runs-on: ubuntu-latest
    steps:
      - run: npx prettier --check .
`,
    );
    expect(untrustedCodeProblems(workflow)).toEqual([
      "b3.yml › release › step 1: checks out a pull request's head, and its token can write (contents).",
      'b3.yml › release › step 2: runs ./scripts/release.sh, code from the workspace, and its token can write (contents).',
      'b3.yml › release › step 2: runs node, code from the workspace, and its token can write (contents).',
      "b3.yml › other › step 1: runs npx, code from the workspace, and its token can write (the repository's default token).",
    ]);
  });

  it('(c) top-level permissions absent, write-all, or granting write', () => {
    const withPermissions = (permissions: string): string => `name: c\non: push\n${permissions}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo\n`;
    expect(permissionProblems(parseWorkflow('c1.yml', withPermissions('')))).toEqual([
      `c1.yml: sets no top-level permissions, so every job without its own gets the repository's default token, which may write; add "permissions:" with the least the jobs need.`,
    ]);
    expect(permissionProblems(parseWorkflow('c2.yml', withPermissions('permissions: write-all')))).toEqual([
      'c2.yml: grants write at the top level (write-all); grant writes only to the jobs that need them.',
    ]);
    expect(permissionProblems(parseWorkflow('c3.yml', withPermissions('permissions:\n  contents: read\n  pages: write\n  id-token: write')))).toEqual([
      'c3.yml: grants write at the top level (pages, id-token); grant writes only to the jobs that need them.',
    ]);
    expect(permissionProblems(parseWorkflow('c4.yml', withPermissions('permissions: read-all')))).toEqual([]);
    expect(permissionProblems(parseWorkflow('c5.yml', withPermissions('permissions: {}')))).toEqual([]);
  });

  it('(d) actions on a branch, on no ref, or on a movable image tag', () => {
    const workflow = parseWorkflow(
      'd.yml',
      `
name: d
on: push
permissions: {}
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@main
      - uses: actions/setup-node
      - uses: someone/action@latest
      - uses: docker://alpine:3
      - uses: actions/checkout@v5
      - uses: actions/cache/restore@v4.2.0
      - uses: actions/checkout@08eba0b27e820071cde6df949e0beb9ba4906955
      - uses: docker://alpine@sha256:${'a'.repeat(64)}
      - uses: ./.github/actions/local
`,
    );
    expect(pinningProblems(workflow)).toEqual([
      'd.yml › j › step 1: actions/checkout@main is not pinned to a version tag (@vN) or a commit SHA.',
      'd.yml › j › step 2: actions/setup-node is not pinned to a version tag (@vN) or a commit SHA.',
      'd.yml › j › step 3: someone/action@latest is not pinned to a version tag (@vN) or a commit SHA.',
      'd.yml › j › step 4: docker://alpine:3 is not pinned to a version tag (@vN) or a commit SHA.',
    ]);
  });

  it('(e) a pull request workflow with a job that can write, the default token, or a secret', () => {
    const text = `
name: e
on: [pull_request]
permissions:
  contents: read
jobs:
  preview:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write
    steps:
      - run: echo
  publish:
    runs-on: ubuntu-latest
    steps:
      - run: echo
        env:
          TOKEN: \${{ secrets.NPM_TOKEN }}
          GH: \${{ secrets.GITHUB_TOKEN }}
`;
    expect(pullRequestTokenProblems(parseWorkflow('e1.yml', text), text)).toEqual([
      'e1.yml › preview: runs on pull requests with a token that can write (pull-requests); it must be read-only.',
      'e1.yml: runs on pull requests and reads secrets (NPM_TOKEN).',
    ]);
    const unset = text.replace('permissions:\n  contents: read\n', '');
    expect(pullRequestTokenProblems(parseWorkflow('e2.yml', unset), unset)).toEqual([
      'e2.yml › preview: runs on pull requests with a token that can write (pull-requests); it must be read-only.',
      "e2.yml › publish: runs on pull requests with a token that can write (the repository's default token); it must be read-only.",
      'e2.yml: runs on pull requests and reads secrets (NPM_TOKEN).',
    ]);
  });

  it('(f) an expression written into a shell script or a github-script script', () => {
    const workflow = parseWorkflow(
      'f.yml',
      `
name: f
on: pull_request
permissions:
  contents: read
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.pull_request.title }}"
      - uses: actions/github-script@v8
        with:
          script: core.info('\${{ github.head_ref }}')
      - run: echo "$TITLE"
        env:
          TITLE: \${{ github.event.pull_request.title }}
`,
    );
    expect(injectionProblems(workflow)).toEqual([
      'f.yml › j › step 1: writes a ${{ … }} expression into its script; pass the value through env: instead.',
      'f.yml › j › step 2: writes a ${{ … }} expression into its script; pass the value through env: instead.',
    ]);
  });

  it('a workflow_run workflow naming a workflow that does not exist, or downloading what nothing uploads', () => {
    const pr = parseWorkflow(
      'pr.yml',
      `
name: pr
on: pull_request
permissions:
  contents: read
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/upload-artifact@v5
        with:
          name: diff
          path: review
`,
    );
    const comment = parseWorkflow(
      'comment.yml',
      `
name: comment
on:
  workflow_run:
    workflows: [pr, pr-old]
    types: [completed]
permissions: {}
jobs:
  j:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/download-artifact@v5
        with:
          name: diff
      - uses: actions/download-artifact@v5
        with:
          name: preview
`,
    );
    expect(crossWorkflowProblems([pr, comment])).toEqual([
      'comment.yml: runs after workflow "pr-old", which no workflow file names.',
      'comment.yml › j › step 2: downloads artifact "preview", which pr, pr-old does not upload.',
    ]);
  });
});

describe("the comment workflow's script, against a fake GitHub", () => {
  const workflow = YAML.parse(TEXTS.get('knowledge-pr-comment.yml')!) as { jobs: { comment: { steps: { uses?: string; with?: { script?: string } }[] } } };
  const SCRIPT = workflow.jobs.comment.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!.with!.script!;
  const RUN = {
    id: 42,
    run_number: 7,
    html_url: 'https://github.com/acme/kb/actions/runs/42',
    head_sha: 'abcdef0123456789abcdef0123456789abcdef01',
    head_branch: 'fix-typo',
    head_repository: { full_name: 'fork/kb' },
  };
  const PR = { number: 12, state: 'open', head: { sha: RUN.head_sha, ref: 'fix-typo', repo: { full_name: 'fork/kb' } } };
  // A blank line before the rule: after a line of text, "---" would make that line a heading.
  const FOOTER = [
    '',
    '',
    '---',
    '**Preview:** [download the built site](https://github.com/acme/kb/actions/runs/42/artifacts/99), unzip it, run `npx syllabus preview --out <folder>` and open `/changes/`.',
    'Built from abcdef0 by [knowledge-pr run 7](https://github.com/acme/kb/actions/runs/42); `check` annotations are on the run\'s "check" job.',
  ].join('\n');

  interface Outcome {
    calls: string[];
    failed: string[];
    notices: string[];
    warnings: string[];
  }

  /** Runs the script as actions/github-script does, on an artifact folder and a fake API. */
  async function runScript(artifact: Record<string, TreeEntry>, options: { pr?: object; comments?: object[]; preview?: boolean } = {}): Promise<Outcome> {
    const dir = makeTree(artifact);
    const outcome: Outcome = { calls: [], failed: [], notices: [], warnings: [] };
    const call =
      (name: string, data: (params: Record<string, unknown>) => unknown) =>
      async (params: Record<string, unknown>): Promise<{ data: unknown }> => {
        outcome.calls.push(`${name} ${JSON.stringify(params)}`);
        return { data: data(params) };
      };
    const github = {
      rest: {
        pulls: { get: call('pulls.get', () => options.pr ?? PR) },
        actions: {
          listWorkflowRunArtifacts: call('actions.listWorkflowRunArtifacts', () => ({
            artifacts: options.preview === false ? [] : [{ id: 99, name: 'knowledge-preview', expired: false }],
          })),
        },
        issues: {
          listComments: call('issues.listComments', () => options.comments ?? []),
          updateComment: call('issues.updateComment', () => ({ html_url: 'u' })),
          createComment: call('issues.createComment', () => ({ html_url: 'c' })),
        },
      },
      paginate: async (method: (params: Record<string, unknown>) => Promise<{ data: unknown }>, params: Record<string, unknown>) => (await method(params)).data,
    };
    const core = {
      setFailed: (m: string) => outcome.failed.push(m),
      notice: (m: string) => outcome.notices.push(m),
      warning: (m: string) => outcome.warnings.push(m),
      info: () => undefined,
    };
    const context = { payload: { workflow_run: RUN }, repo: { owner: 'acme', repo: 'kb' } };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
    await new AsyncFunction('require', 'github', 'context', 'core', 'process', SCRIPT)(createRequire(import.meta.url), github, context, core, { env: { ARTIFACT_DIR: dir } });
    return outcome;
  }

  const DIFF = '## Knowledge diff\n\nSubjects: 1 changed.\n';
  const JSON_CHANGED = '{"equal": false}';

  it('posts one comment: the marker, the diff and the preview', async () => {
    const outcome = await runScript({ 'pr-number': '12\n', 'diff.md': DIFF, 'diff.json': JSON_CHANGED });
    const body = `<!-- syllabus-diff -->\n## Knowledge diff\n\nSubjects: 1 changed.${FOOTER}`;
    expect(outcome).toEqual({
      calls: [
        'pulls.get {"owner":"acme","repo":"kb","pull_number":12}',
        'actions.listWorkflowRunArtifacts {"owner":"acme","repo":"kb","run_id":42,"name":"knowledge-preview"}',
        'issues.listComments {"owner":"acme","repo":"kb","issue_number":12,"per_page":100}',
        `issues.createComment ${JSON.stringify({ owner: 'acme', repo: 'kb', issue_number: 12, body })}`,
      ],
      failed: [],
      notices: [],
      warnings: [],
    });
  });

  it("updates its own comment, not someone else's that carries the marker", async () => {
    const comments = [
      { id: 1, user: { login: 'mallory' }, body: '<!-- syllabus-diff -->\nfake' },
      { id: 2, user: { login: 'github-actions[bot]' }, body: '<!-- syllabus-diff -->\nold' },
    ];
    const outcome = await runScript({ 'pr-number': '12', 'diff.md': DIFF, 'diff.json': '{"equal": true}' }, { comments, preview: false });
    const footer = FOOTER.replace(/\*\*Preview:\*\*.*/, '**Preview:** none; the site did not build (see [the run](https://github.com/acme/kb/actions/runs/42)).');
    expect(outcome.calls.at(-1)).toEqual(
      `issues.updateComment ${JSON.stringify({ owner: 'acme', repo: 'kb', comment_id: 2, body: `<!-- syllabus-diff -->\n## Knowledge diff\n\nSubjects: 1 changed.${footer}` })}`,
    );
  });

  it('posts nothing new when the knowledge is unchanged', async () => {
    const outcome = await runScript({ 'pr-number': '12', 'diff.md': DIFF, 'diff.json': '{"equal": true}' });
    expect(outcome.calls.map((c) => c.split(' ')[0])).toEqual(['pulls.get', 'actions.listWorkflowRunArtifacts', 'issues.listComments']);
  });

  it.each(['12; rm -rf /', '../12', '', '1e3', '0x0C', '12345678901'])('refuses the pull request number %j', async (number) => {
    const outcome = await runScript({ 'pr-number': number, 'diff.md': DIFF });
    expect(outcome).toEqual({ calls: [], failed: ['The artifact holds no valid pull request number; nothing was posted.'], notices: [], warnings: [] });
  });

  it.each([
    ['another head commit', { ...PR, head: { ...PR.head, sha: '0'.repeat(40) } }],
    ['another branch', { ...PR, head: { ...PR.head, ref: 'main' } }],
    ['another repository', { ...PR, head: { ...PR.head, repo: { full_name: 'acme/kb' } } }],
    ['a deleted fork', { ...PR, head: { ...PR.head, repo: null } }],
  ])('posts nothing on a pull request with %s than the run', async (_, pr) => {
    const outcome = await runScript({ 'pr-number': '12', 'diff.md': DIFF }, { pr });
    expect(outcome).toEqual({
      calls: ['pulls.get {"owner":"acme","repo":"kb","pull_number":12}'],
      failed: [],
      notices: ['Pull request #12 is not the one this run built (or it has new commits since): nothing was posted.'],
      warnings: [],
    });
  });

  it('reads no file through a link planted in the artifact', async () => {
    const secret = makeTree({ 'secret.txt': 'TOKEN=s3cr3t\n' });
    const outcome = await runScript({ 'pr-number': '12', 'diff.md': { symlink: path.join(secret, 'secret.txt') }, 'diff.json': JSON_CHANGED });
    expect(outcome.warnings).toEqual(['Ignoring diff.md in the artifact: not a regular file of at most 4194304 bytes.']);
    expect(outcome.calls.at(-1)).toEqual(
      `issues.createComment ${JSON.stringify({ owner: 'acme', repo: 'kb', issue_number: 12, body: `<!-- syllabus-diff -->\n## Knowledge diff\n\n_No diff was produced; see [the run](https://github.com/acme/kb/actions/runs/42)._${FOOTER}` })}`,
    );
  });

  it('cuts a diff too long for a comment at a line end and closes its open fence', async () => {
    const long = `## Knowledge diff\n\n\`\`\`diff\n${'+ a line of ten\n'.repeat(5000)}\`\`\`\n`;
    const outcome = await runScript({ 'pr-number': '12', 'diff.md': long, 'diff.json': JSON_CHANGED });
    const body = (JSON.parse(outcome.calls.at(-1)!.slice('issues.createComment '.length)) as { body: string }).body;
    const kept = Math.floor((60000 - '## Knowledge diff\n\n```diff\n'.length) / 16);
    expect(body).toEqual(
      `<!-- syllabus-diff -->\n## Knowledge diff\n\n\`\`\`diff\n${'+ a line of ten\n'.repeat(kept)}\`\`\`\n\n_The diff is longer than a comment can hold: the full diff is in the run's \`knowledge-diff\` artifact._${FOOTER}`,
    );
  });
});
