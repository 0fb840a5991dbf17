/**
 * Syllabus as a team gets it: the tarball `npm pack` makes (prepack compiles lib/), installed into
 * a folder of its own with its dependencies from the registry, then used through the installed
 * `syllabus` bin, its JavaScript API, and in an existing Astro site with the integration and the
 * content loader (test/fixtures/host-site).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { findSystemNode, ROOT, runCli, userEnv, type CliRun } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let work: string;
let team: string;
let tarball: string;
let packed: string[];
let install: { stdout: string; stderr: string };

/** Runs a command to its end; throws with its output when it fails. */
function exec(command: string, args: string[], cwd: string): { stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** The installed bin, run as `npx syllabus` would run it, on the project's Node (Astro's floor). */
function syllabus(args: string[], cwd = team, node = process.execPath): CliRun {
  const result = spawnSync(node, [path.join(team, 'node_modules', 'syllabus-kb', 'bin', 'syllabus.js'), ...args], { cwd, env: userEnv(), encoding: 'utf8' });
  return { stdout: result.stdout, stderr: result.stderr, code: result.status ?? -1 };
}

function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

beforeAll(() => {
  work = makeTree({});
  const pack = JSON.parse(exec('npm', ['pack', '--json', '--pack-destination', work], ROOT).stdout) as [{ filename: string; files: { path: string }[] }];
  tarball = path.join(work, pack[0].filename);
  packed = pack[0].files.map((f) => f.path).sort();
  team = path.join(work, 'team');
  fs.mkdirSync(team);
  fs.writeFileSync(path.join(team, 'package.json'), '{\n  "name": "acme-handbook",\n  "private": true\n}\n');
  // --prefer-offline: what npm has cached (`npm ci` of this repository cached every dependency the
  // package declares) is taken without asking the registry again; the rest comes from the registry.
  install = exec('npm', ['install', '--save-dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], team);
}, 600_000);

describe('the tarball', () => {
  it('holds the compiled modules, their type declarations, the pages and the guide, and no sources, tests or fixtures', () => {
    expect(packed).toContain('bin/syllabus.js');
    expect(packed).toContain('lib/cli/main.js');
    for (const entry of ['lib/index', 'lib/astro/index', 'lib/astro/loader']) {
      expect(packed).toContain(`${entry}.js`);
      expect(packed).toContain(`${entry}.d.ts`);
    }
    expect(packed).toContain('lib/pages/[topic]/[...address].astro');
    expect(packed).toContain('lib/styles/site.css');
    expect(packed).toContain('content/kb.toml');
    expect(packed).toContain('schema/kb.schema.json');
    expect(new Set(packed.map((f) => f.split('/')[0]))).toEqual(new Set(['LICENSE', 'README.md', 'bin', 'content', 'lib', 'package.json', 'schema']));
    expect(packed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(packed.filter((f) => f.includes('.syllabus-cache') || f.startsWith('bin/compile'))).toEqual([]);
  });

  it('installs from the registry without engine warnings', () => {
    expect(`${install.stdout}${install.stderr}`).not.toContain('EBADENGINE');
  });
});

describe('the installed syllabus command', () => {
  it('prints its version', () => {
    expect(syllabus(['--version'])).toEqual({ stdout: `${VERSION}\n`, stderr: '', code: 0 });
  });

  it('says in one line which Node it needs, and how to get it, when started on an older one', () => {
    const systemNode = findSystemNode();
    const version = execFileSync(systemNode, ['--version'], { encoding: 'utf8' }).trim();
    expect(syllabus(['learn', 'project'], team, systemNode)).toEqual({
      stdout: '',
      stderr: `error: syllabus needs Node.js 22.12 or later, and this is Node.js ${version}. Install a current Node.js from https://nodejs.org/ (or with a version manager: "nvm install 22"), then run the command again.\n`,
      code: 2,
    });
  });

  it('sets the repository up, checks, builds and answers agents', () => {
    const init = syllabus(['init', '--github']);
    expect(init.code).toBe(0);
    expect(init.stderr.split('\n').filter((l) => /^(created|updated) /.test(l))).toEqual([
      'created content/kb.toml',
      'created content/project/adding-knowledge.md',
      'created .gitignore',
      'updated package.json (3 scripts)',
      'created .github/workflows/knowledge-deploy.yml',
      'created .github/workflows/knowledge-pr.yml',
      'created .github/workflows/knowledge-pr-comment.yml',
      'created .github/dependabot.yml',
    ]);
    // The kb.toml names the JSON Schema of the installed package, for editors.
    const schemaLine = fs.readFileSync(path.join(team, 'content', 'kb.toml'), 'utf8').split('\n')[0]!;
    expect(schemaLine).toBe('#:schema ../node_modules/syllabus-kb/schema/kb.schema.json');
    const named = path.resolve(team, 'content', schemaLine.slice('#:schema '.length));
    expect(fs.readFileSync(named, 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'schema', 'kb.schema.json'), 'utf8'));
    for (const workflow of ['knowledge-deploy', 'knowledge-pr']) {
      const text = fs.readFileSync(path.join(team, '.github', 'workflows', `${workflow}.yml`), 'utf8');
      expect(text).toContain('npx syllabus ');
      expect(text).not.toContain('bin/syllabus.js');
    }

    expect(syllabus(['check'])).toEqual({ stdout: '0 errors, 0 warnings\n', stderr: '', code: 0 });

    const build = syllabus(['build']);
    expect(build.code).toBe(0);
    expect(build.stderr.replace(/\d+\.\d s/g, 'T s')).toBe(
      [
        'warning[no-site-url]: content/kb.toml: [site] url is not set, so no sitemap.xml is written. Set it to the site\'s public address (e.g. url = "https://kb.example.com").',
        'read      1 topic, 1 subject (T s)',
        'pages     5 pages; 1 subject rendered, 0 unchanged (T s)',
        'search    1 pages indexed, 1 of 1 shard written (T s)',
        'Built dist/: 1 topic, 1 subject (0 hidden, 0 disabled, 0 skipped), 1 warning, T s',
        '',
      ].join('\n'),
    );
    const dist = path.join(team, 'dist');
    const built = filesBelow(dist);
    for (const file of [
      'index.html',
      '404.html',
      'project/index.html',
      'project/adding-knowledge/index.html',
      'project/adding-knowledge.md',
      'kb/index.json',
      'kb/knowledge.json',
      'llms.txt',
      'pagefind/shards.json',
    ]) {
      expect(built).toContain(file);
    }
    // Astro's own files stay in the cache, never in the team's folder.
    expect(fs.readdirSync(team).sort()).toEqual(['.github', '.gitignore', 'content', 'dist', 'node_modules', 'package-lock.json', 'package.json']);

    // The installed package answers exactly as this repository's bin does.
    const learn = syllabus(['learn', 'project', 'adding-knowledge']);
    expect(learn).toEqual(runCli(['learn', 'project', 'adding-knowledge', '--config', path.join(team, 'content', 'kb.toml')], { cwd: team }));
    expect(learn.stdout).toBe(`${fs.readFileSync(path.join(team, 'content', 'project', 'adding-knowledge.md'), 'utf8').trimEnd()}\n`);
    expect(fs.readFileSync(path.join(dist, 'project', 'adding-knowledge.md'), 'utf8')).toBe(learn.stdout.replace(/\n$/, ''));
  });

  it('offers its build and commands to JavaScript', () => {
    const script = [
      "import { build, run, BuildError } from 'syllabus-kb';",
      "const version = await run(['--version']);",
      "const failed = await build({ config: 'missing.toml' }).catch((error) => error);",
      "const schema = import.meta.resolve('syllabus-kb/kb.schema.json');",
      'console.log(JSON.stringify({ version, failed: failed instanceof BuildError, kind: failed.kind, message: failed.message, details: failed.details, schema }));',
    ].join('\n');
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: team, env: userEnv(), encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      version: { code: 0, stdout: `${VERSION}\n`, stderr: '' },
      failed: true,
      kind: 'config',
      message: 'the configuration has an error; nothing was built.',
      details: [expect.stringMatching(/^missing\.toml: .+/)],
      schema: pathToFileURL(path.join(team, 'node_modules', 'syllabus-kb', 'schema', 'kb.schema.json')).href,
    });
  });
});

describe('an existing Astro site with the integration and the content loader', () => {
  let host: string;
  let dist: string;
  let built: string[];

  beforeAll(() => {
    host = path.join(team, 'host');
    fs.cpSync(path.join(ROOT, 'test', 'fixtures', 'host-site'), host, { recursive: true });
    exec(process.execPath, [path.join(team, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], host);
    dist = path.join(host, 'dist');
    built = filesBelow(dist);
  }, 300_000);

  const read = (file: string): string => fs.readFileSync(path.join(dist, file), 'utf8');

  it('adds the knowledge pages, endpoints, twins and search below its base, and leaves the site’s own pages alone', () => {
    expect(read('index.html')).toContain('<h1>HOSTHOME_5d1c</h1>');
    for (const file of [
      'knowledge/index.html',
      'knowledge/search/index.html',
      'knowledge/handbook/index.html',
      'knowledge/handbook/welcome/index.html',
      'knowledge/handbook/guides/deploy/index.html',
      'knowledge/handbook/guides/deploy.md',
      'knowledge/kb/index.json',
      'knowledge/kb/knowledge.json',
      'knowledge/llms.txt',
      'knowledge/pagefind/shards.json',
    ]) {
      expect(built).toContain(file);
    }
    // Nothing of Syllabus lands outside its base but Astro's shared assets.
    expect(built.filter((f) => !f.startsWith('knowledge/') && !f.startsWith('_astro/')).sort()).toEqual(['index.html', 'notes/index.html']);
    const index = JSON.parse(read('knowledge/kb/index.json')) as { topics: { id: string; subjects: { slug: string }[] }[] };
    expect(index.topics.map((t) => [t.id, t.subjects.map((s) => s.slug)])).toEqual([['handbook', ['guides/deploy', 'script', 'welcome']]]);
  });

  it('rewrites links between subjects to their pages below the base', () => {
    expect(read('knowledge/handbook/welcome/index.html')).toContain('<a href="/knowledge/handbook/guides/deploy/">deploying</a>');
  });

  it('sanitises raw HTML from the content, and keeps disabled subjects out of every file', () => {
    const page = read('knowledge/handbook/script/index.html');
    expect(page).not.toContain('SCRIPTCANARY');
    expect(page).not.toContain('javascript:');
    expect(page).not.toContain('onclick');
    expect(built.filter((f) => read(f).includes('DISABLEDCANARY'))).toEqual([]);
    // A hidden subject has its own addresses, and is listed nowhere.
    expect(built.filter((f) => read(f).includes('HIDDENCANARY'))).toEqual([
      'knowledge/handbook/internal.md',
      'knowledge/handbook/internal/index.html',
      'knowledge/kb/subjects/handbook/internal.json',
    ]);
  });

  it('fills the site’s own collection with the listed subjects, rendered as the knowledge pages render them', () => {
    const notes = read('notes/index.html');
    expect([...notes.matchAll(/<li data-id="([^"]+)"><a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2], m[3]])).toEqual([
      ['handbook/guides/deploy', '/knowledge/handbook/guides/deploy/', 'Deploying'],
      ['handbook/script', '/knowledge/handbook/script/', 'Script notes'],
      ['handbook/welcome', '/knowledge/handbook/welcome/', 'Welcome'],
    ]);
    expect(notes).toContain('(Handbook, 37 tokens): How a release reaches production.');
    expect(notes).toContain('See also the <a href="/knowledge/handbook/welcome/">welcome page</a>.');
    expect(notes).toContain('<pre class="astro-code');
  });
});
