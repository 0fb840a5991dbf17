/**
 * Each command of `syllabus`: stdout, stderr and exit code. Builds and the start on an older Node
 * run the real bin as a child process; the other commands run the command line's `main` in this
 * process (fixtures.test.ts proves the bin prints exactly what `main` does, and holds the contract
 * cases over whole knowledge bases).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { lockFolder } from '../../src/build/folder-lock.ts';
import { findSystemNode, ROOT, runCli, runCliAsync, runCliInProcess, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const KB = {
  'kb.toml': `[site]
title = "Team"

[kb.topic.project]
title = "General Project Knowledge"
introduction = "Conventions and people of this project."
description = "Everything a contributor should know about the project."
subjects = "project"
learned = ["maintainers/*"]

[kb.topic.skills]
subjects = "skills"

[profile.reviewer]
knowledge = ["skills/ast-grep"]
`,
  'project/maintainers/jean.md': 'Jean maintains the CLI.\n',
  'project/code-quality.md': '# Code quality\n\nWrite tests.\n',
  'project/.internal-notes.md': 'hidden\n',
  'skills/ast-grep.md': 'Use ast-grep. See `skills/ast-grep/rules`.\n',
  'skills/ast-grep/.rules.toml': 'rule = "x"\n',
};

const PROMPT = `<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "General Project Knowledge">

Everything a contributor should know about the project.

<subject "maintainers/jean">
Jean maintains the CLI.
</subject>
</topic>

The following knowledge topics are available to learn:

- project (**General Project Knowledge**): Conventions and people of this project.
- skills

Use the \`learn\` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)
</knowledge>
`;

const PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title to learn about.' },
    subjects: {
      type: ['string', 'array', 'null'],
      description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.',
      items: { type: 'string' },
    },
  },
  required: ['topic'],
  additionalProperties: false,
};

let dir: string;
beforeAll(() => {
  dir = makeTree(KB);
});

const run = (args: string[], env?: Record<string, string>) => runCliInProcess([...args, '--config', 'kb.toml'], { cwd: dir, ...(env ? { env } : {}) });

describe('syllabus (no command)', () => {
  it('lists the commands with --help and exits 0', async () => {
    const result = await runCliInProcess(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: syllabus <command> \[options\]\n/);
    for (const command of ['learn', 'prompt', 'schema', 'check', 'build', 'join', 'eval', 'find', 'dev', 'preview', 'learnings'])
      expect(result.stdout).toContain(`\n  ${command} `);
    expect(result.stderr).toBe('');
  });

  it('exits 2 with the usage when no command is given', async () => {
    const result = await runCliInProcess([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^Usage: syllabus/);
  });

  it('rejects an unknown command with exit 2', async () => {
    const result = await runCliInProcess(['lern']);
    expect(result).toEqual({
      stdout: '',
      stderr:
        'error: unknown command "lern". Commands: init, learn, prompt, schema, check, build, join, diff, eval, find, dev, preview, learnings, skills, mcp.\nRun "syllabus --help" for usage.\n',
      code: 2,
    });
  });

  it.each(['init', 'learn', 'prompt', 'schema', 'check', 'build', 'join', 'eval', 'find', 'dev', 'preview', 'learnings'])(
    '%s --help prints its usage and exits 0',
    async (command) => {
      const result = await runCliInProcess([command, '--help']);
      expect(result.code).toBe(0);
      expect(result.stdout.startsWith(`Usage: syllabus ${command}`)).toBe(true);
      expect(result.stdout).toContain('Exit codes:');
      expect(result.stderr).toBe('');
    },
  );
});

describe('syllabus learn', () => {
  it('prints the listing', async () => {
    expect(await run(['learn', 'project'])).toEqual({
      stdout: `# Topic: General Project Knowledge

Everything a contributor should know about the project.

## Available subjects:

- code-quality

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
`,
      stderr: '',
      code: 0,
    });
  });

  it('loads a hidden subject by its exact slug, fenced', async () => {
    expect(await run(['learn', 'skills', 'ast-grep/rules'])).toEqual({ stdout: '```toml\nrule = "x"\n```\n', stderr: '', code: 0 });
  });

  it("exits 1 with the learn tool's message for an unknown topic", async () => {
    expect(await run(['learn', 'nope'])).toEqual({
      stdout: '',
      stderr: 'error: Unknown topic "nope". Valid topics: project (General Project Knowledge), skills.\n',
      code: 1,
    });
  });

  it("exits 1 with the learn tool's message when nothing matches", async () => {
    expect(await run(['learn', 'skills', 'x*', 'internal-notes'])).toEqual({
      stdout: '',
      stderr: 'error: No subjects in topic "skills" match "x*", "internal-notes". Call learn with only the topic to list its subjects.\n',
      code: 1,
    });
  });

  it('takes -k and --profile like prompt, so that its listing agrees with that prompt', async () => {
    expect(await run(['learn', 'skills', '--profile', 'reviewer'])).toEqual({
      stdout: '# Topic: skills\n\n## Available subjects:\n\n(none)\n\n## Already learned (in system prompt):\n\n- ast-grep\n',
      stderr: '',
      code: 0,
    });
    expect(await run(['learn', 'project', '*', '-k', 'project/code-quality'])).toEqual({
      stdout: '',
      stderr: 'error: No subjects in topic "project" match "*". Call learn with only the topic to list its subjects.\n',
      code: 1,
    });
    expect(await run(['schema', '--tool', '-k', 'skills'])).toMatchObject({ code: 0 });
    expect(JSON.parse((await run(['schema', '--tool', '-k', 'skills'])).stdout).description).toBe(
      'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)',
    );
  });

  it('exits 2 without a topic, and on an unknown flag', async () => {
    const missing = await run(['learn']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: learn needs a topic: syllabus learn <topic> [pattern…].\nRun "syllabus learn --help" for usage.\n');
    const flag = await run(['learn', 'project', '--frobnicate']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/^error: Unknown option '--frobnicate'\./);
  });

  it('reads SYLLABUS_CONFIG, and --config wins over it', async () => {
    const other = makeTree({ 'kb.toml': '[kb.topic.other]\nsubjects = "o"\n', 'o/x.md': 'x\n' });
    const fromEnv = await runCliInProcess(['learn', 'other', 'x'], { cwd: dir, env: { SYLLABUS_CONFIG: path.join(other, 'kb.toml') } });
    expect(fromEnv).toEqual({ stdout: 'x\n', stderr: '', code: 0 });
    const flagWins = await runCliInProcess(['learn', 'skills', 'ast-grep', '--config', 'kb.toml'], { cwd: dir, env: { SYLLABUS_CONFIG: path.join(other, 'kb.toml') } });
    expect(flagWins).toEqual({ stdout: 'Use ast-grep. See `skills/ast-grep/rules`.\n', stderr: '', code: 0 });
  });

  it('exits 2 naming the file when the default config does not exist', async () => {
    const empty = makeTree({ 'README.md': 'nothing here\n' });
    const result = await runCliInProcess(['learn', 'x'], { cwd: empty });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('error: content/kb.toml: The config file "content/kb.toml" does not exist. Pass the path of a kb.toml with --config (or SYLLABUS_CONFIG).\n');
  });
});

describe('syllabus prompt', () => {
  it('prints the <knowledge> section', async () => {
    expect(await run(['prompt'])).toEqual({ stdout: PROMPT, stderr: '', code: 0 });
  });

  it('pre-loads with -k and --profile, after the config’s own learned patterns', async () => {
    const result = await run(['prompt', '--profile', 'reviewer', '-k', 'project/code-quality']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "General Project Knowledge">

Everything a contributor should know about the project.

<subject "maintainers/jean">
Jean maintains the CLI.
</subject>

<subject "code-quality">
# Code quality

Write tests.
</subject>
</topic>

<topic "skills">

<subject "ast-grep">
Use ast-grep. See \`skills/ast-grep/rules\`.
</subject>
</topic>
</knowledge>
`);
  });

  it('exits 2 for an unknown topic in -k and an unknown profile', async () => {
    const unknown = await run(['prompt', '-k', 'nope/*']);
    expect(unknown).toEqual({
      stdout: '',
      stderr: 'error: -k "nope/*": unknown topic "nope". Valid topics: project, skills.\nRun "syllabus prompt --help" for usage.\n',
      code: 2,
    });
    const profile = await run(['prompt', '--profile', 'nobody']);
    expect(profile).toEqual({
      stdout: '',
      stderr: 'error: Unknown profile "nobody". Valid profiles: reviewer.\nRun "syllabus prompt --help" for usage.\n',
      code: 2,
    });
  });

  it('prints the knowledge artifact with --json', async () => {
    const result = await run(['prompt', '--json']);
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as { prompt: string; tool: { description: string }; tokens: number };
    expect(parsed.prompt).toBe(PROMPT.slice(0, -1));
    expect(parsed.tool).toEqual({
      name: 'learn',
      description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)\n- skills',
      parameters: PARAMETERS,
    });
    expect(Number.isInteger(parsed.tokens) && parsed.tokens > 100 && parsed.tokens < 400).toBe(true);
  });
});

describe('syllabus schema', () => {
  it('prints the fixed parameters schema without needing a config', async () => {
    const empty = makeTree({ 'x.txt': '' });
    const result = await runCliInProcess(['schema'], { cwd: empty });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(PARAMETERS);
  });

  it('prints the tool definition with --tool, and null when no topic is listable', async () => {
    const tool = await run(['schema', '--tool']);
    expect(tool.code).toBe(0);
    expect(JSON.parse(tool.stdout)).toEqual({
      name: 'learn',
      description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)\n- skills',
      parameters: PARAMETERS,
    });
    const allLearned = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\nlearned = ["**"]\n', 't/a.md': 'a\n' });
    expect(await runCliInProcess(['schema', '--tool', '--config', 'kb.toml'], { cwd: allLearned })).toEqual({ stdout: 'null\n', stderr: '', code: 0 });
  });
});

describe('syllabus find', () => {
  it('prints the JSON Schema of --json with --schema, and every --json case of the find fixtures is valid against it', async () => {
    const schema = await runCliInProcess(['find', '--schema']);
    expect({ code: schema.code, stderr: schema.stderr }).toEqual({ code: 0, stderr: '' });
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(schema.stdout) as object);
    const fixture = path.join(ROOT, 'test', 'fixtures', 'find-ranking');
    const outputs = fs
      .readdirSync(path.join(fixture, 'cases'))
      .map((name) => path.join(fixture, 'cases', name, 'stdout.json'))
      .filter((file) => fs.existsSync(file))
      .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
    expect(outputs.length).toBeGreaterThanOrEqual(3);
    for (const output of outputs) expect(validate(output) ? null : validate.errors).toBeNull();
    expect(validate([{ topic: 't', slug: 's', title: 'T', summary: '', exact: false, overlap: 1.5, confidence: 1, score: 1.2 }])).toBe(false);
  });

  it('takes --schema alone', async () => {
    expect(await runCliInProcess(['find', '--schema', 'x'])).toEqual({
      stdout: '',
      stderr: 'error: find --schema takes no other arguments: it prints the JSON Schema of find --json.\nRun "syllabus find --help" for usage.\n',
      code: 2,
    });
  });

  it('finds in the knowledge base named by --config, and warns about content errors as learn does', async () => {
    expect(await run(['find', 'code quality'])).toEqual({ stdout: '- project/code-quality (**Code quality**): Write tests.\n', stderr: '', code: 0 });
    const duplicate = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\n', 't/deploy.md': '# Deploy\n', 't/deploy.txt': 'Deploy.\n' });
    expect(await runCliInProcess(['find', 'deploy', '--config', 'kb.toml'], { cwd: duplicate })).toEqual({
      stdout: '- t/deploy (**Deploy**)\n',
      stderr: 'warning: t/deploy.md: Duplicate slug "deploy" in topic "t": deploy.md, deploy.txt all have it; deploy.md is used. Rename or remove the others.\n',
      code: 0,
    });
  });

  it('refuses --remote with --config', async () => {
    expect(await run(['find', 'x', '--remote', 'http://127.0.0.1:9/'])).toEqual({
      stdout: '',
      stderr:
        'error: --remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.\nRun "syllabus find --help" for usage.\n',
      code: 2,
    });
  });
});

describe('syllabus check', () => {
  it('is clean on a good knowledge base', async () => {
    expect(await run(['check'])).toEqual({ stdout: '0 errors, 0 warnings\n', stderr: '', code: 0 });
  });

  it('reports content errors with exit 1, as text, GitHub annotations and JSON', async () => {
    const broken = makeTree({
      'kb.toml': '[kb.topic.t]\nsubjects = "t"\nlearned = ["nothing/*"]\n',
      't/a.md': 'a\n',
      't/a.toml': 'a = 1\n',
    });
    const text = await runCliInProcess(['check', '--config', 'kb.toml'], { cwd: broken });
    expect(text).toEqual({
      stdout: `warning[unmatched-learned]: kb.toml:3: kb.topic.t.learned: "nothing/*" matches no subject. Fix the pattern or remove it.
error[duplicate-slug]: t/a.md: Duplicate slug "a" in topic "t": a.md, a.toml all have it; a.md is used. Rename or remove the others.
1 error, 1 warning
`,
      stderr: '',
      code: 1,
    });
    const github = await runCliInProcess(['check', '--format', 'github', '--config', 'kb.toml'], { cwd: broken });
    expect(github.code).toBe(1);
    expect(github.stdout).toBe(`::warning file=kb.toml,line=3,title=syllabus unmatched-learned::kb.topic.t.learned: "nothing/*" matches no subject. Fix the pattern or remove it.
::error file=t/a.md,title=syllabus duplicate-slug::Duplicate slug "a" in topic "t": a.md, a.toml all have it; a.md is used. Rename or remove the others.
`);
    const json = await runCliInProcess(['check', '--json', '--config', 'kb.toml'], { cwd: broken });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      diagnostics: [
        {
          kind: 'warning',
          code: 'unmatched-learned',
          message: 'kb.topic.t.learned: "nothing/*" matches no subject. Fix the pattern or remove it.',
          file: path.join(fs.realpathSync(broken), 'kb.toml'),
          line: 3,
        },
        {
          kind: 'content-error',
          code: 'duplicate-slug',
          message: 'Duplicate slug "a" in topic "t": a.md, a.toml all have it; a.md is used. Rename or remove the others.',
          file: path.join(fs.realpathSync(broken), 't/a.md'),
        },
      ],
      errors: 1,
      warnings: 1,
    });
  });

  it('exits 1 on warnings only with --strict', async () => {
    const warned = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\ndisabled = ["gone"]\n', 't/a.md': 'a\n' });
    expect((await runCliInProcess(['check', '--config', 'kb.toml'], { cwd: warned })).code).toBe(0);
    expect((await runCliInProcess(['check', '--strict', '--config', 'kb.toml'], { cwd: warned })).code).toBe(1);
  });

  it('exits 2 on configuration errors, naming file, line and column', async () => {
    const bad = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\nintroducton = "x"\n[broken\n' });
    const result = await runCliInProcess(['check', '--config', 'kb.toml'], { cwd: bad });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('error[toml-syntax]: kb.toml:4:8: TOML syntax error: illegal character in key. Fix the TOML at line 4, column 8.\n1 error, 0 warnings\n');
  });

  it('rejects an unknown format with exit 2', async () => {
    const result = await run(['check', '--format', 'xml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --format must be text or github (got "xml").\nRun "syllabus check --help" for usage.\n');
  });
});

describe('the bin on another Node', () => {
  it('re-runs itself on the project Node when started by an older system Node, from another folder', async () => {
    const systemNode = findSystemNode();
    const version = execFileSync(systemNode, ['--version'], { encoding: 'utf8' }).trim();
    expect(Number(version.slice(1).split('.')[0])).toBeLessThan(22);
    const elsewhere = makeTree({ 'notes.txt': 'unrelated\n' });
    const result = runCli(['learn', 'project', 'code-quality', '--config', path.join(dir, 'kb.toml')], { cwd: elsewhere, node: systemNode });
    expect(result).toEqual({ stdout: '# Code quality\n\nWrite tests.\n', stderr: '', code: 0 });
  });
});

describe('syllabus build', () => {
  it('builds a site that lists visible subjects only, and never disabled content', async () => {
    const site = makeTree({
      'kb.toml': '[site]\ntitle = "Canary Site"\n[kb.topic.t]\nsubjects = "t"\ndisabled = ["drafts/**"]\n',
      't/visible.md': '# Visible page\n\nvisible-canary, and a [link to nothing](gone.md).\n',
      't/.hidden.md': 'hidden-canary\n',
      't/drafts/plan.md': 'disabled-canary\n',
    });
    await withKeptPages(path.join(site, '.syllabus-cache'));
    const result = runCli(['build', '--config', 'kb.toml', '--out', 'site'], { cwd: site });
    expect(result.code).toBe(0);
    expect(result.stderr.replace(/\d+\.\d s/g, 'T s')).toBe(
      [
        // The build reports the warnings of check, content checks included
        // (content/reference/diagnostics.md).
        'warning[no-site-url]: kb.toml: [site] url is not set, so no sitemap.xml is written. Set it to the site\'s public address (e.g. url = "https://kb.example.com").',
        'warning[broken-link]: t/visible.md:3:23: Broken link "gone.md": topic "t" has no subject "gone" (it is missing or disabled). Fix the link, or add the subject.',
        'read      1 topic, 2 subjects (T s)',
        'pages     6 pages; 2 subjects rendered, 0 unchanged (T s)',
        'search    1 pages indexed, 1 of 1 shard written (T s)',
        'Built site/: 1 topic, 2 subjects (1 hidden, 1 disabled, 0 skipped), 2 warnings, T s',
        '',
      ].join('\n'),
    );
    const files = fs
      .readdirSync(path.join(site, 'site'), { recursive: true, encoding: 'utf8' })
      .filter((f) => fs.statSync(path.join(site, 'site', f)).isFile())
      .sort();
    const containing = (text: string) => files.filter((f) => fs.readFileSync(path.join(site, 'site', f), 'utf8').includes(text));
    expect(containing('<h1>Canary Site</h1>')).toEqual(['index.html']);
    expect(containing('Visible page')).toContain('t/visible/index.html');
    expect(containing('disabled-canary')).toEqual([]);
    expect(containing('drafts/plan')).toEqual([]);
    // A hidden subject is built at its own addresses only (the Pagefind index is checked in test/astro).
    expect(containing('hidden-canary')).toEqual(['kb/subjects/t/hidden.json', 't/hidden.md', 't/hidden/index.html']);
  });

  it('exits 2 and deletes nothing when the output folder holds the knowledge base or files no build made', async () => {
    const repo = makeTree({ 'kb.toml': '[kb.topic.notes]\nsubjects = "notes"\n', 'notes/a.md': '# A\n', 'docs/readme.md': 'Ours.\n' });
    const before = fs.readdirSync(repo, { recursive: true, encoding: 'utf8' }).sort();
    const fix = 'Build into a folder of its own, outside the knowledge base (--out DIR).';
    expect(await runCliInProcess(['build', '--config', 'kb.toml', '--out', 'notes'], { cwd: repo })).toEqual({
      stdout: '',
      stderr: `error: The output folder notes/ holds the folder of topic "notes" (notes/), and an output folder is replaced whole: it would be deleted. ${fix}\n`,
      code: 2,
    });
    expect(await runCliInProcess(['build', '--config', path.join(repo, 'kb.toml'), '--out', '..'], { cwd: path.join(repo, 'docs') })).toEqual({
      stdout: '',
      stderr: `error: The output folder ${repo}/ holds the config file ${repo}/kb.toml, and an output folder is replaced whole: it would be deleted. ${fix}\n`,
      code: 2,
    });
    expect(await runCliInProcess(['build', '--config', 'kb.toml', '--out', 'docs'], { cwd: repo })).toEqual({
      stdout: '',
      stderr:
        'error: The output folder docs/ holds files that no Syllabus build made (readme.md; a folder a build wrote holds a .syllabus-build file), and an output folder is replaced whole: they would be deleted. Move them away, or build into another folder (--out DIR).\n',
      code: 2,
    });
    expect(fs.readdirSync(repo, { recursive: true, encoding: 'utf8' }).sort()).toEqual(before);
  });

  it('waits for another build that holds its cache, says so, then builds', async () => {
    const site = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\n', 't/a.md': '# A\n\nFirst.\n' });
    const cache = path.join(site, '.syllabus-cache');
    await withKeptPages(cache);
    // The other build, as this process: it holds the lock a build takes on its cache.
    fs.mkdirSync(cache, { recursive: true });
    const release = await lockFolder(cache, { lockPath: path.join(cache, 'build.lock') });
    let waiting!: () => void;
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const build = runCliAsync(['build', '--config', 'kb.toml', '--out', 'site'], {
      cwd: site,
      onStderr: (sofar) => {
        if (sofar.includes('\n')) waiting();
      },
    });
    await waited;
    // Nothing is read or written while it waits.
    expect(fs.existsSync(path.join(site, 'site'))).toBe(false);
    await release();
    const run = await build;
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n')[0]).toBe('waiting   another build with the cache .syllabus-cache/ is under way; this one starts when it ends');
    expect(run.stderr).toContain('Built site/: 1 topic, 1 subject');
    expect(fs.readFileSync(path.join(site, 'site', 't', 'a', 'index.html'), 'utf8')).toContain('First.');
  });

  it('builds nothing and exits 1 when the content has errors', async () => {
    const broken = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "t"\n', 't/a.md': 'a\n', 't/a.txt': 'a\n' });
    const result = runCli(['build', '--config', 'kb.toml', '--out', 'site'], { cwd: broken });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: the knowledge base has 1 content error; nothing was built.\nerror: t/a.md: Duplicate slug "a" in topic "t": a.md, a.txt all have it; a.md is used. Rename or remove the others.\n',
    );
    expect(fs.existsSync(path.join(broken, 'site'))).toBe(false);
  });

  it('prints a summary as JSON on stdout with --json, and its phase lines on stderr; builds from any folder, and leaves nothing in it', async () => {
    const site = makeTree({ 'kb.toml': '[site]\nurl = "https://kb.example.com"\n[kb.topic.t]\nsubjects = "t"\n', 't/a.md': '# A\n\nFirst.\n', 't/.b.md': '# B\n' });
    const elsewhere = makeTree({ 'notes.txt': 'unrelated\n' });
    const first = runCli(['build', '--json', '--out', path.join(site, 'site'), '--config', path.join(site, 'kb.toml')], { cwd: elsewhere });
    expect(fs.readdirSync(elsewhere)).toEqual(['notes.txt']);
    expect(fs.readdirSync(site).sort()).toEqual(['.syllabus-cache', 'kb.toml', 'site', 't']);
    expect(fs.existsSync(path.join(site, 'site', 't', 'a', 'index.html'))).toBe(true);
    const again = runCli(['build', '--json', '--out', 'site', '--config', 'kb.toml'], { cwd: site });
    const timeless = (run: CliRun): unknown => JSON.parse(run.stdout.replace(/"seconds": [\d.]+/g, '"seconds": 0'));
    const phase = (name: string, text: string) => ({ name, text, seconds: 0 });
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(first.stderr.replace(/\d+\.\d s/g, 'T s').split('\n')[0]).toBe('read      1 topic, 2 subjects (T s)');
    expect(timeless(first)).toEqual({
      out: path.join(fs.realpathSync(site), 'site'),
      mode: 'full',
      counts: { topics: 1, subjects: 2, hidden: 1, disabled: 0, skipped: 0, pages: 6, rendered: 2, indexed: 1 },
      warnings: [],
      phases: [phase('read', '1 topic, 2 subjects'), phase('pages', '6 pages; 2 subjects rendered, 0 unchanged'), phase('search', '1 pages indexed, 1 of 1 shard written')],
      seconds: 0,
    });
    expect(timeless(again)).toEqual({
      out: path.join(fs.realpathSync(site), 'site'),
      mode: 'none',
      counts: { topics: 1, subjects: 2, hidden: 1, disabled: 0, skipped: 0, pages: 0, rendered: 0, indexed: 0 },
      warnings: [],
      phases: [phase('read', '1 topic, 2 subjects'), phase('pages', 'nothing changed since the last build of site/')],
      seconds: 0,
    });
  });
});

/** A Node on PATH that is not the project's own (node_modules/.bin comes first under npm). */
