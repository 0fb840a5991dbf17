/**
 * `syllabus init` in temporary repositories: the files it writes, compared whole with
 * `test/fixtures/init-*\/expected/`, its stderr compared whole, its refusals, and the knowledge
 * base it writes checked and learned too. The commands run the command line's `main` in this
 * process; one runs through the real bin as well, which must do exactly the same. Then the pure
 * steps it is made of: the templates, the .gitignore and package.json edits, and the plan.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadConfig } from '../../src/kb/index.ts';
import { INIT_HELP } from '../../src/cli/init.ts';
import { ACTION_PINS } from '../../src/cli/init/action-pins.ts';
import { addGitignoreLines } from '../../src/cli/init/gitignore.ts';
import { configSchemaReference, configurationReferenceCommand, renderKbToml, tomlString } from '../../src/cli/init/kb-toml.ts';
import { editPackageScripts, knowledgeScripts } from '../../src/cli/init/package-scripts.ts';
import { generatedFiles, planInit, type ProjectState } from '../../src/cli/init/plan.ts';
import { nextSteps } from '../../src/cli/init/report.ts';
import { readableTitle, type InitSettings } from '../../src/cli/init/settings.ts';
import { packageVersion } from '../../src/build/package-info.ts';
import { ROOT, runCli, runCliInProcess, type CliRun } from '../helpers/run-cli.ts';
import { makeTree, writeTree } from '../helpers/temp-tree.ts';
import {
  crossWorkflowProblems,
  injectionProblems,
  parseWorkflow,
  permissionProblems,
  pinningProblems,
  pullRequestTokenProblems,
  shellCommands,
  untrustedCodeProblems,
} from '../workflows/workflow-rules.ts';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');
/** The repository folder every case runs in: its name is the site's title. */
const REPO = 'acme-handbook';
const VERSION = packageVersion();

/** Runs `syllabus <args>` in a repository folder. */
const syllabus = (args: string[], cwd: string): Promise<CliRun> => runCliInProcess(args, { cwd });
const init = (argv: string[], cwd: string): Promise<CliRun> => syllabus(['init', ...argv], cwd);

/** A fresh repository folder named `acme-handbook`, holding `test/fixtures/<fixture>/input/` when there is one. */
function repository(fixture?: string): string {
  const folder = path.join(makeTree({}), REPO);
  const input = fixture && path.join(FIXTURES, fixture, 'input');
  if (input && fs.existsSync(input)) fs.cpSync(input, folder, { recursive: true });
  else fs.mkdirSync(folder);
  return folder;
}

/** Every file below a folder, by relative path with `/`, with its text. */
function readTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(root, file).split(path.sep).join('/')] = fs.readFileSync(file, 'utf8');
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));
}

/** A fixture's expected tree and stderr; `<version>` stands for this Syllabus's version. */
function expected(fixture: string): { tree: Record<string, string>; stderr: string } {
  const tree = readTree(path.join(FIXTURES, fixture, 'expected'));
  for (const name of Object.keys(tree)) tree[name] = tree[name]!.replaceAll('<version>', VERSION);
  return { tree, stderr: fs.readFileSync(path.join(FIXTURES, fixture, 'stderr'), 'utf8') };
}

it('does through the real bin exactly what main does', async () => {
  const [viaBin, inProcess] = [repository(), repository()];
  expect({ ...runCli(['init', '--github'], { cwd: viaBin }), tree: readTree(viaBin) }).toEqual({ ...(await init(['--github'], inProcess)), tree: readTree(inProcess) });
});

describe('syllabus init writes a knowledge base that works', () => {
  it('in a bare folder: kb.toml, the starter subject and .gitignore', async () => {
    const repo = repository();
    const result = await init([], repo);
    const want = expected('init-bare');
    expect(result).toEqual({ stdout: '', stderr: want.stderr, code: 0 });
    expect(readTree(repo)).toEqual(want.tree);
  });

  it('passes check with no error or warning, and learn lists the starter subject', async () => {
    const repo = repository();
    await init([], repo);
    expect(await syllabus(['check'], repo)).toEqual({ stdout: '0 errors, 0 warnings\n', stderr: '', code: 0 });
    expect(await syllabus(['learn', 'project'], repo)).toEqual({
      stdout: '# Topic: Project Knowledge\n\n## Available subjects:\n\n- adding-knowledge\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n',
      stderr: '',
      code: 0,
    });
  });

  it('with a package.json: adds the kb:* scripts in its own formatting, and says to install syllabus-kb', async () => {
    const repo = repository('init-package-json');
    const result = await init([], repo);
    const want = expected('init-package-json');
    expect(result).toEqual({ stdout: '', stderr: want.stderr, code: 0 });
    expect(readTree(repo)).toEqual(want.tree);
  });

  it('with --github and a package.json that lists syllabus-kb: workflows that npm ci, then npx syllabus', async () => {
    const repo = repository('init-github');
    const result = await init(['--github'], repo);
    const want = expected('init-github');
    expect(result).toEqual({ stdout: '', stderr: want.stderr, code: 0 });
    expect(readTree(repo)).toEqual(want.tree);
  });

  it('with --github, no package.json and a FOLDER: workflows that run this version with npx, --config everywhere', async () => {
    const repo = repository();
    const result = await init(['docs/kb', '--github'], repo);
    const want = expected('init-github-bare');
    expect(result).toEqual({ stdout: '', stderr: want.stderr, code: 0 });
    expect(readTree(repo)).toEqual(want.tree);
    expect(await syllabus(['check', '--config', 'docs/kb/kb.toml'], repo)).toEqual({ stdout: '0 errors, 0 warnings\n', stderr: '', code: 0 });
  });

  it('run again with everything in place, says so and changes nothing', async () => {
    const repo = repository('init-github');
    await init(['--github'], repo);
    const before = readTree(repo);
    expect(await init(['--github'], repo)).toEqual({
      stdout: '',
      stderr: `Everything is already set up: nothing was changed.

Next steps:
  npx syllabus dev  see the site at http://127.0.0.1:4321/ while you add subjects to content/project/
  On GitHub, Settings → Pages → Source: GitHub Actions, so that knowledge-deploy can publish the site.
`,
      code: 0,
    });
    expect(readTree(repo)).toEqual(before);
  });

  it('run again with --github after a plain init, adds only the workflows', async () => {
    const repo = repository('init-github');
    await init([], repo);
    const result = await init(['--github'], repo);
    expect(result.stderr.split('\n\n')[0]).toBe(
      [
        'created .github/workflows/knowledge-deploy.yml',
        'created .github/workflows/knowledge-pr.yml',
        'created .github/workflows/knowledge-pr-comment.yml',
        'created .github/dependabot.yml',
      ].join('\n'),
    );
    expect(readTree(repo)).toEqual(expected('init-github').tree);
  });
});

describe('syllabus init never overwrites', () => {
  const existing = {
    'content/kb.toml': '[kb.topic.notes]\nsubjects = "notes"\n',
    '.github/workflows/knowledge-pr.yml': 'name: ours\n',
    'package.json': '{\n  "name": "acme-handbook",\n  "scripts": {\n    "kb:build": "vite build",\n    "kb:check": "syllabus check"\n  }\n}\n',
  };

  it('writes nothing, lists every conflict and exits 1', async () => {
    const repo = repository();
    writeTree(repo, existing);
    const result = await init(['--github'], repo);
    expect(result).toEqual({
      stdout: '',
      stderr: `error: nothing was written: these 3 already exist with other content.
exists: content/kb.toml
exists: package.json script "kb:build" ("vite build")
exists: .github/workflows/knowledge-pr.yml
Rerun with --force to replace them: syllabus init --github --force
`,
      code: 1,
    });
    expect(readTree(repo)).toEqual(existing);
  });

  it('names FOLDER in the command to rerun', async () => {
    const repo = repository();
    writeTree(repo, { 'kb/kb.toml': 'x = 1\n' });
    expect((await init(['kb'], repo)).stderr).toBe(
      'error: nothing was written: this already exists with other content.\nexists: kb/kb.toml\nRerun with --force to replace them: syllabus init kb --force\n',
    );
  });

  it('with --force replaces them, and keeps the scripts that already match', async () => {
    const repo = repository();
    writeTree(repo, existing);
    const result = await init(['--github', '--force'], repo);
    expect(result.code).toBe(0);
    expect(result.stderr.split('\n\n')[0]).toBe(
      [
        'replaced content/kb.toml',
        'created content/project/adding-knowledge.md',
        'created .gitignore',
        'updated package.json (2 scripts)',
        'created .github/workflows/knowledge-deploy.yml',
        'replaced .github/workflows/knowledge-pr.yml',
        'created .github/workflows/knowledge-pr-comment.yml',
        'created .github/dependabot.yml',
      ].join('\n'),
    );
    const tree = readTree(repo);
    expect(tree['package.json']).toBe(
      '{\n  "name": "acme-handbook",\n  "scripts": {\n    "kb:build": "syllabus build",\n    "kb:check": "syllabus check",\n    "kb:dev": "syllabus dev"\n  }\n}\n',
    );
    expect(tree['content/kb.toml']).toBe(expected('init-github').tree['content/kb.toml']);
    expect(tree['.github/workflows/knowledge-pr.yml']).toBe(expected('init-github').tree['.github/workflows/knowledge-pr.yml']);
  });

  it('refuses a folder where a file goes, even with --force, and then lists only that', async () => {
    const repo = repository();
    const tree = { 'content/kb.toml/x': 'x\n', 'package.json': '{ "scripts": { "kb:dev": "vite" } }\n' };
    writeTree(repo, tree);
    expect(await init(['--force'], repo)).toEqual({
      stdout: '',
      stderr: 'error: nothing was written: this already exists with other content.\nexists: content/kb.toml (not a file: --force does not replace it)\n',
      code: 1,
    });
    expect(readTree(repo)).toEqual(tree);
  });

  it('leaves a package.json that is not JSON alone, and writes nothing', async () => {
    const repo = repository();
    writeTree(repo, { 'package.json': '{ "name": ' });
    const result = await init([], repo);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: package\.json is not valid JSON \(.+\); nothing was written\. Fix package\.json, then run init again\.\n$/);
    expect(readTree(repo)).toEqual({ 'package.json': '{ "name": ' });
  });
});

describe('syllabus init usage', () => {
  it('prints its help', async () => {
    expect(await init(['--help'], repository())).toEqual({ stdout: `${INIT_HELP}\n`, stderr: '', code: 0 });
    expect(INIT_HELP).toMatch(/^Usage: syllabus init \[FOLDER\] \[--github\] \[--force\]\n[^]*\nOptions:\n[^]*\nExit codes: 0 /);
  });

  it.each([
    [['../elsewhere'], 'error: FOLDER must be inside the current folder, the repository\'s root (got "../elsewhere").'],
    [['my docs'], 'error: FOLDER may hold only letters, digits, ".", "_", "-" and "/", since it is written into scripts and workflows (got "my docs").'],
    [['a', 'b'], 'error: init takes one FOLDER (got also "b").'],
  ])('exits 2 on %j', async (argv, message) => {
    const repo = repository();
    expect(await init(argv, repo)).toEqual({ stdout: '', stderr: `${message}\nRun "syllabus init --help" for usage.\n`, code: 2 });
    expect(readTree(repo)).toEqual({});
  });

  it('exits 2 on an unknown flag', async () => {
    const result = await init(['--frobnicate'], repository());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: Unknown option '--frobnicate'\.\nRun "syllabus init --help" for usage\.\n$/);
  });

  it('accepts the current folder itself as FOLDER', async () => {
    const repo = repository();
    await init(['.', '--github'], repo);
    const tree = readTree(repo);
    expect(Object.keys(tree)).toEqual([
      '.github/dependabot.yml',
      '.github/workflows/knowledge-deploy.yml',
      '.github/workflows/knowledge-pr-comment.yml',
      '.github/workflows/knowledge-pr.yml',
      '.gitignore',
      'kb.toml',
      'project/adding-knowledge.md',
    ]);
    expect(tree['.github/workflows/knowledge-deploy.yml']).toContain('  KB_CONFIG: kb.toml\n');
    expect(tree['.github/workflows/knowledge-deploy.yml']).toContain('          path: .syllabus-cache\n');
    expect(await syllabus(['check', '--config', 'kb.toml'], repo)).toEqual({ stdout: '0 errors, 0 warnings\n', stderr: '', code: 0 });
  });
});

describe('the generated workflows', () => {
  const cases = [
    { fixture: 'init-github', config: 'content/kb.toml', syllabus: ['npx', 'syllabus'] },
    { fixture: 'init-github-bare', config: 'docs/kb/kb.toml', syllabus: ['npx', '--yes', `--package=syllabus-kb@${VERSION}`, 'syllabus'] },
  ];

  describe.each(cases)('$fixture', ({ fixture, syllabus }) => {
    const tree = expected(fixture).tree;
    const files = ['knowledge-deploy.yml', 'knowledge-pr.yml', 'knowledge-pr-comment.yml'];
    const workflows = files.map((file) => parseWorkflow(file, tree[`.github/workflows/${file}`]!));

    it('are YAML, and so is the Dependabot config', async () => {
      for (const file of [...files.map((f) => `.github/workflows/${f}`), '.github/dependabot.yml']) expect(() => YAML.parse(tree[file]!)).not.toThrow();
      expect(YAML.parse(tree['.github/dependabot.yml']!)).toEqual({
        version: 2,
        updates: [
          { 'package-ecosystem': 'github-actions', directory: '/', schedule: { interval: 'weekly' } },
          ...(fixture === 'init-github' ? [{ 'package-ecosystem': 'npm', directory: '/', schedule: { interval: 'weekly' } }] : []),
        ],
      });
    });

    it('pin every action by commit, with its tag in a comment', async () => {
      for (const file of files) {
        const uses = tree[`.github/workflows/${file}`]!.split('\n').filter((line) => /^\s+(- )?uses: /.test(line));
        expect(uses.length).toBeGreaterThan(0);
        for (const line of uses) expect(line).toMatch(/^\s+(- )?uses: actions\/[a-z-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      }
    });

    it("keep the rules of the project's own workflows: least permissions, no PR code where a token can write, no injection", async () => {
      for (const workflow of workflows) {
        const text = tree[`.github/workflows/${workflow.file}`]!;
        expect([
          ...untrustedCodeProblems(workflow),
          ...permissionProblems(workflow),
          ...pinningProblems(workflow),
          ...pullRequestTokenProblems(workflow, text),
          ...injectionProblems(workflow),
        ]).toEqual([]);
      }
      expect(crossWorkflowProblems(workflows)).toEqual([]);
      const pr = workflows.find((w) => w.file === 'knowledge-pr.yml')!;
      expect(pr.permissions).toEqual({ contents: 'read' });
      expect(pr.jobs.map((job) => [job.id, job.permissions])).toEqual([
        ['check', undefined],
        ['preview', undefined],
      ]);
    });

    it('run the installed package, never the bin of a checkout, with these commands', async () => {
      const commands = workflows.flatMap((w) => w.jobs.flatMap((job) => job.steps.flatMap((step) => (step.run ? shellCommands(step.run) : []))));
      const runs = commands.filter((words) => words.includes('syllabus') || words.some((w) => w.includes('bin/syllabus.js')));
      expect(runs.map((words) => words.slice(0, syllabus.length))).toEqual(runs.map(() => syllabus));
      expect(runs.map((words) => words.slice(syllabus.length).join(' '))).toEqual([
        'build --config $KB_CONFIG --config $RUNNER_TEMP/pages.toml',
        'check --config $KB_CONFIG --format github',
        'diff $BASE_CONFIG $KB_CONFIG',
        'diff $BASE_CONFIG $KB_CONFIG --json',
        'build --config $BASE_CONFIG --out ../site-base',
        'build --config $KB_CONFIG --out ../site-preview --base ../site-base',
        'diff $BASE_CONFIG $KB_CONFIG --fail-on-regression',
      ]);
      const installs = commands.filter((words) => words[0] === 'npm');
      expect(installs).toEqual(
        fixture === 'init-github'
          ? [
              ['npm', 'ci'],
              ['npm', 'ci'],
              ['npm', 'ci'],
            ]
          : [],
      );
    });

    it('tell reviewers to serve the preview with the published package', async () => {
      expect(tree['.github/workflows/knowledge-pr-comment.yml']).toContain('run \\`npx syllabus-kb preview --out <folder>\\` and open \\`/changes/\\`.');
    });
  });

  it('pins every action to a 40-hex commit and a full release tag', async () => {
    for (const pin of Object.values(ACTION_PINS)) {
      expect(pin.name).toMatch(/^actions\/[a-z-]+$/);
      expect(pin.sha).toMatch(/^[0-9a-f]{40}$/);
      expect(pin.tag).toMatch(/^v\d+\.\d+\.\d+$/);
    }
  });
});

const SETTINGS: InitSettings = { folder: 'content', title: 'Acme Handbook', version: '1.2.3', packageJson: false };

describe('the kb.toml template', () => {
  it('loads without a diagnostic', async () => {
    const loaded = loadConfig([{ file: '/repo/content/kb.toml', text: renderKbToml(SETTINGS) }]);
    expect(loaded.diagnostics).toEqual([]);
  });

  it('has only valid keys in its comments too: uncommented, it still loads without an error', async () => {
    const uncommented = renderKbToml(SETTINGS).replace(/^# ([a-z_]+ = .*)$/gm, '$1');
    expect(uncommented).toContain('\nurl = "https://kb.example.com/"\n');
    expect(uncommented).toContain('\nlearned = ["adding-knowledge"]\n');
    expect(uncommented).toContain('\ndisabled = ["drafts/**"]\n');
    const loaded = loadConfig([{ file: '/repo/content/kb.toml', text: uncommented }]);
    expect(loaded.diagnostics.filter((d) => d.kind === 'config-error')).toEqual([]);
    expect(loaded.config?.site.url).toBe('https://kb.example.com/');
  });

  it("points to a reference subject that Syllabus's own guide has", async () => {
    const command = configurationReferenceCommand();
    expect(command).toBe('npx syllabus learn reference configuration --config node_modules/syllabus-kb/content/kb.toml');
    // Installed, node_modules/syllabus-kb is this package: its content/kb.toml is the guide.
    const result = await syllabus(['learn', 'reference', 'configuration', '--config', path.join(ROOT, 'content', 'kb.toml')], ROOT);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('---\ntitle: Configuration reference\n')).toBe(true);
  });

  it("names the JSON Schema on its first line: the installed package's, relative to kb.toml, or without a package.json this version's on jsDelivr", async () => {
    const installed = ['content', 'docs/kb', '.'].map((folder) => configSchemaReference({ ...SETTINGS, folder, packageJson: true }));
    expect(installed).toEqual([
      '../node_modules/syllabus-kb/schema/kb.schema.json',
      '../../node_modules/syllabus-kb/schema/kb.schema.json',
      './node_modules/syllabus-kb/schema/kb.schema.json',
    ]);
    expect(configSchemaReference(SETTINGS)).toBe('https://cdn.jsdelivr.net/npm/syllabus-kb@1.2.3/schema/kb.schema.json');
    expect(
      renderKbToml({ ...SETTINGS, packageJson: true })
        .split('\n')
        .slice(0, 2),
    ).toEqual(['#:schema ../node_modules/syllabus-kb/schema/kb.schema.json', '']);
  });

  it('escapes the title as a TOML string', async () => {
    expect(tomlString('Acme "Docs" \\ v2\t\u007f')).toBe('"Acme \\"Docs\\" \\\\ v2\\t\\u007f"');
    expect(loadConfig([{ file: '/kb.toml', text: renderKbToml({ ...SETTINGS, title: 'A "b" \\ c' }) }]).config?.site.title).toBe('A "b" \\ c');
  });

  it.each([
    ['acme-handbook', 'Acme Handbook'],
    ['my_team.docs', 'My Team Docs'],
    ['syllabusKB', 'SyllabusKB'],
    ['---', 'Knowledge'],
    ['', 'Knowledge'],
  ])('titles the folder %j as %j', async (name, title) => {
    expect(readableTitle(name)).toBe(title);
  });
});

describe('addGitignoreLines', () => {
  it('creates the lines when there is no .gitignore', async () => {
    expect(addGitignoreLines(undefined)).toEqual({ text: 'dist/\n.syllabus-cache/\n', added: ['dist/', '.syllabus-cache/'] });
  });

  it('appends after a last line without a line break, keeping CRLF line endings', async () => {
    expect(addGitignoreLines('node_modules/')).toEqual({ text: 'node_modules/\ndist/\n.syllabus-cache/\n', added: ['dist/', '.syllabus-cache/'] });
    expect(addGitignoreLines('node_modules/\r\n')).toEqual({ text: 'node_modules/\r\ndist/\r\n.syllabus-cache/\r\n', added: ['dist/', '.syllabus-cache/'] });
  });

  it('adds only the lines that are missing, with or without the trailing slash; dist also anchored', async () => {
    expect(addGitignoreLines('/dist\n.syllabus-cache\n')).toEqual({ text: '/dist\n.syllabus-cache\n', added: [] });
    expect(addGitignoreLines('dist\n/.syllabus-cache/\n')).toEqual({ text: 'dist\n/.syllabus-cache/\n.syllabus-cache/\n', added: ['.syllabus-cache/'] });
  });
});

describe('editPackageScripts', () => {
  const scripts = knowledgeScripts({ folder: 'content' });

  it('are kb:build, kb:dev and kb:check, with --config outside content/', async () => {
    expect(scripts).toEqual({ 'kb:build': 'syllabus build', 'kb:dev': 'syllabus dev', 'kb:check': 'syllabus check' });
    expect(knowledgeScripts({ folder: 'docs' })).toEqual({
      'kb:build': 'syllabus build --config docs/kb.toml',
      'kb:dev': 'syllabus dev --config docs/kb.toml',
      'kb:check': 'syllabus check --config docs/kb.toml',
    });
  });

  it('appends to "scripts" with four spaces, keeping one-line arrays and key order', async () => {
    const text = '{\n    "name": "x",\n    "scripts": {\n        "test": "vitest"\n    },\n    "files": ["a", "b"]\n}';
    expect(editPackageScripts(text, scripts, false)).toEqual({
      ok: true,
      text: '{\n    "name": "x",\n    "scripts": {\n        "test": "vitest",\n        "kb:build": "syllabus build",\n        "kb:dev": "syllabus dev",\n        "kb:check": "syllabus check"\n    },\n    "files": ["a", "b"]\n}',
      written: ['kb:build', 'kb:dev', 'kb:check'],
      conflicts: [],
      hasSyllabus: false,
    });
  });

  it('creates "scripts" at the end, with tabs and CRLF', async () => {
    const text = '{\r\n\t"name": "x",\r\n\t"dependencies": {\r\n\t\t"syllabus-kb": "1.0.0"\r\n\t}\r\n}\r\n';
    const edit = editPackageScripts(text, { 'kb:build': 'syllabus build' }, false);
    expect(edit).toMatchObject({ ok: true, hasSyllabus: true });
    expect(edit.ok && edit.text).toBe(
      '{\r\n\t"name": "x",\r\n\t"dependencies": {\r\n\t\t"syllabus-kb": "1.0.0"\r\n\t},\r\n\t"scripts": {\r\n\t\t"kb:build": "syllabus build"\r\n\t}\r\n}\r\n',
    );
  });

  it('fills an empty "scripts", and an empty file object', async () => {
    const empty = editPackageScripts('{\n  "scripts": {}\n}\n', { 'kb:dev': 'syllabus dev' }, false);
    expect(empty.ok && empty.text).toBe('{\n  "scripts": {\n    "kb:dev": "syllabus dev"\n  }\n}\n');
    const bare = editPackageScripts('{}\n', { 'kb:dev': 'syllabus dev' }, false);
    expect(bare.ok && bare.text).toBe('{\n  "scripts": {\n    "kb:dev": "syllabus dev"\n  }\n}\n');
  });

  it('keeps a one-line file on one line', async () => {
    const edit = editPackageScripts('{"name":"x","scripts":{"test":"t"}}', { 'kb:dev': 'syllabus dev' }, false);
    expect(edit.ok && edit.text).toBe('{"name":"x","scripts":{"test":"t","kb:dev":"syllabus dev"}}');
    const created = editPackageScripts('{"name": "x"}', { 'kb:dev': 'syllabus dev' }, false);
    expect(created.ok && created.text).toBe('{"name": "x", "scripts": {"kb:dev": "syllabus dev"}}');
  });

  it('reports a script with another command as a conflict, and replaces it only when forced', async () => {
    const text = '{\n  "scripts": {\n    "kb:build": "astro build",\n    "kb:dev": "syllabus dev"\n  }\n}\n';
    expect(editPackageScripts(text, scripts, false)).toEqual({
      ok: true,
      text: '{\n  "scripts": {\n    "kb:build": "astro build",\n    "kb:dev": "syllabus dev",\n    "kb:check": "syllabus check"\n  }\n}\n',
      written: ['kb:check'],
      conflicts: [{ name: 'kb:build', current: 'astro build' }],
      hasSyllabus: false,
    });
    expect(editPackageScripts(text, scripts, true)).toMatchObject({
      ok: true,
      text: '{\n  "scripts": {\n    "kb:build": "syllabus build",\n    "kb:dev": "syllabus dev",\n    "kb:check": "syllabus check"\n  }\n}\n',
      written: ['kb:build', 'kb:check'],
    });
  });

  it('changes nothing when every script is there', async () => {
    const text = '{ "scripts": { "kb:build": "syllabus build", "kb:dev": "syllabus dev", "kb:check": "syllabus check" } }';
    expect(editPackageScripts(text, scripts, true)).toEqual({ ok: true, text, written: [], conflicts: [], hasSyllabus: false });
  });

  it('keeps a byte order mark, and leaves strings with braces and escapes alone', async () => {
    const text = '\uFEFF{\n  "description": "a {b} \\"c\\" [d]",\n  "scripts": {\n    "x": "echo }"\n  }\n}\n';
    const edit = editPackageScripts(text, { 'kb:dev': 'syllabus dev' }, false);
    expect(edit.ok && edit.text).toBe('\uFEFF{\n  "description": "a {b} \\"c\\" [d]",\n  "scripts": {\n    "x": "echo }",\n    "kb:dev": "syllabus dev"\n  }\n}\n');
  });

  it.each([
    ['{ "name": ', /^is not valid JSON \(/],
    ['[]', /^is not a JSON object$/],
    ['{ "scripts": [] }', /^"scripts" is not an object$/],
  ])('refuses %j', async (text, problem) => {
    const edit = editPackageScripts(text, scripts, false);
    expect(edit.ok).toBe(false);
    expect(!edit.ok && edit.problem).toMatch(problem);
  });
});

describe('planInit', () => {
  const state = (existing: Record<string, string | null>, more: Partial<ProjectState> = {}): ProjectState => ({
    existing: new Map(Object.entries(existing)),
    gitignore: undefined,
    packageJson: undefined,
    packageLock: false,
    ...more,
  });
  const files = generatedFiles(SETTINGS, true);

  it('creates every file in a bare folder, in the order they are reported', async () => {
    const plan = planInit(SETTINGS, { github: true, force: false }, state({}));
    expect(plan.ok && plan.changes.map((c) => [c.action, c.path])).toEqual([
      ['create', 'content/kb.toml'],
      ['create', 'content/project/adding-knowledge.md'],
      ['create', '.gitignore'],
      ['create', '.github/workflows/knowledge-deploy.yml'],
      ['create', '.github/workflows/knowledge-pr.yml'],
      ['create', '.github/workflows/knowledge-pr-comment.yml'],
      ['create', '.github/dependabot.yml'],
    ]);
    expect(plan.ok && plan.conflicts).toEqual([]);
    expect(plan.ok && plan.installNeeded).toBe(true);
  });

  it('keeps identical files, and lists different ones as conflicts', async () => {
    const existing = Object.fromEntries(files.map((f) => [f.path, f.content]));
    existing['.github/dependabot.yml'] = 'version: 2\n';
    const plan = planInit(SETTINGS, { github: true, force: false }, state(existing, { gitignore: 'dist/\n.syllabus-cache/\n' }));
    expect(plan.ok && plan.changes.map((c) => [c.action, c.path])).toEqual([
      ['unchanged', 'content/kb.toml'],
      ['unchanged', 'content/project/adding-knowledge.md'],
      ['unchanged', '.gitignore'],
      ['unchanged', '.github/workflows/knowledge-deploy.yml'],
      ['unchanged', '.github/workflows/knowledge-pr.yml'],
      ['unchanged', '.github/workflows/knowledge-pr-comment.yml'],
      ['replace', '.github/dependabot.yml'],
    ]);
    expect(plan.ok && plan.conflicts).toEqual([{ what: '.github/dependabot.yml', replaceable: true }]);
  });

  it('writes the workflows only with --github', async () => {
    expect(generatedFiles(SETTINGS, false).map((f) => f.path)).toEqual(['content/kb.toml', 'content/project/adding-knowledge.md']);
  });
});

describe('nextSteps', () => {
  const withPackage = { ...SETTINGS, packageJson: true };

  it('asks for package-lock.json when the workflows will run npm ci without one', async () => {
    expect(nextSteps(withPackage, { github: true, installNeeded: true, packageLock: false })).toEqual([
      'Next steps:',
      '  npm install -D syllabus-kb  install Syllabus: package.json does not list it yet; commit package-lock.json too, the workflows need it',
      '  npx syllabus dev            see the site at http://127.0.0.1:4321/ while you add subjects to content/project/',
      '  On GitHub, Settings → Pages → Source: GitHub Actions, so that knowledge-deploy can publish the site.',
    ]);
    expect(nextSteps(withPackage, { github: true, installNeeded: false, packageLock: false }).slice(1, 2)).toEqual([
      '  npm install       writes package-lock.json; commit it, the workflows install with npm ci',
    ]);
  });

  it('has only the dev server when Syllabus is installed and there are no workflows', async () => {
    expect(nextSteps(withPackage, { github: false, installNeeded: false, packageLock: false })).toEqual([
      'Next steps:',
      '  npx syllabus dev  see the site at http://127.0.0.1:4321/ while you add subjects to content/project/',
    ]);
  });
});
