/**
 * `--remote` gives the same answers as local files: every fixture case of `learn`, `prompt`,
 * `schema` and `find` that exits 0 or 1 runs twice through the real bin — on the fixture's files, and on the
 * endpoints of the fixture's site served over HTTP — and stdout and exit code must be equal byte
 * for byte, and the learn tool's error on stderr too where the case pins one.
 *
 * Each site is also asked what no case asks: `prompt --json` and `schema --tool` (with each
 * profile too), for each topic its listing under each profile and with `-k <topic>`, and `find`
 * for each topic's id and title (in that topic and in all, as JSON with the scores).
 *
 * Each site is written as the build writes its non-page files (readSiteData, then the static
 * files), which is what `--remote` reads, without a full Astro build per fixture.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { hasContentErrors } from '../../src/kb/index.ts';
import { prepareFixture, removeFixtureCopies } from '../helpers/fixtures.ts';
import { ROOT, runCliAsync } from '../helpers/run-cli.ts';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const COMMANDS = new Set(['learn', 'prompt', 'schema', 'find']);

const temporaryFolders: string[] = [];

/** A case's arguments without its config flags, and the config files they named (default kb.toml). */
function splitConfigArgs(args: readonly string[]): { configs: string[]; rest: string[] } {
  const configs: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--config' || arg === '-c') configs.push(args[++i]!);
    else if (arg.startsWith('--config=')) configs.push(arg.slice('--config='.length));
    else rest.push(arg);
  }
  return { configs: configs.length > 0 ? configs : ['kb.toml'], rest };
}

interface Case {
  name: string;
  folder: string;
  args: string[];
  exit: number;
}

interface Site {
  /** Why the site cannot be built (and its cases do not run), or undefined. */
  skip: string | undefined;
  dir: string;
  /** Its config files, as the cases name them. */
  configs: string[];
  /** Its enabled topics' ids and titles, and its profiles' names. */
  topics: string[];
  titles: string[];
  profiles: string[];
  server?: RunningServer;
}

/** Writes the endpoints of the knowledge base of `configs` into a fresh folder, or says why it cannot. */
async function buildSite(cwd: string, configs: string[]): Promise<Site> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-remote-site-'));
  temporaryFolders.push(dir);
  const site: Site = { skip: undefined, dir, configs, topics: [], titles: [], profiles: [] };
  let data;
  try {
    data = await readSiteData(configs, cwd);
  } catch {
    return { ...site, skip: 'the configuration has errors, so no site can be built' };
  }
  if (hasContentErrors(data.diagnostics)) {
    const codes = [...new Set(data.diagnostics.filter((d) => d.kind === 'content-error').map((d) => d.code))].sort();
    return { ...site, skip: `the knowledge base has content errors (${codes.join(', ')}), so the build fails` };
  }
  writeStaticFiles(dir, staticFilesOf(data));
  const { topics } = data.catalog;
  return { ...site, topics: topics.map((t) => t.id), titles: topics.flatMap((t) => (t.title === undefined ? [] : [t.title])), profiles: [...data.catalog.profiles.keys()] };
}

const fixtures: { name: string; cwd: string; cases: (Case & { site: Site })[]; sites: Site[] }[] = [];
for (const name of fs.readdirSync(FIXTURES).sort()) {
  const casesFolder = path.join(FIXTURES, name, 'cases');
  if (!fs.existsSync(casesFolder)) continue;
  const cwd = prepareFixture(path.join(FIXTURES, name));
  const sites = new Map<string, Promise<Site>>();
  const cases: (Case & { site: Site })[] = [];
  for (const caseName of fs.readdirSync(casesFolder).sort()) {
    const folder = path.join(casesFolder, caseName);
    if (!fs.statSync(folder).isDirectory()) continue;
    const args = JSON.parse(fs.readFileSync(path.join(folder, 'args'), 'utf8')) as string[];
    const exitFile = path.join(folder, 'exit');
    const exit = fs.existsSync(exitFile) ? Number(fs.readFileSync(exitFile, 'utf8').trim()) : 0;
    if (!COMMANDS.has(args[0]!) || (exit !== 0 && exit !== 1)) continue;
    const { configs } = splitConfigArgs(args);
    const key = JSON.stringify(configs);
    if (!sites.has(key)) sites.set(key, buildSite(cwd, configs));
    cases.push({ name: caseName, folder, args, exit, site: await sites.get(key)! });
  }
  if (cases.length > 0) fixtures.push({ name, cwd, cases, sites: await Promise.all(sites.values()) });
}

const servers = new Set<RunningServer>();
beforeAll(async () => {
  for (const fixture of fixtures) {
    for (const site of fixture.sites) {
      if (site.skip === undefined) {
        site.server = await serveStatic(site.dir);
        servers.add(site.server);
      }
    }
  }
});

/** Runs `args` on the local files of `configs` and on the site, in `cwd`. */
async function runBoth(cwd: string, args: readonly string[], site: Site) {
  const [command, ...rest] = args;
  const localArgs = [...args, ...site.configs.flatMap((c) => ['--config', c])];
  const remoteArgs = [command!, '--remote', `${site.server!.url}/`, ...rest];
  const [local, remote] = await Promise.all([runCliAsync(localArgs, { cwd }), runCliAsync(remoteArgs, { cwd })]);
  return { local, remote };
}

/** Questions no case asks, for every site: JSON output, the tool, profiles, and -k in learn. */
function derivedQuestions(site: Site): string[][] {
  const questions = [['prompt', '--json'], ['schema', '--tool']];
  for (const profile of site.profiles) questions.push(['prompt', '--json', '--profile', profile], ['schema', '--tool', '--profile', profile]);
  for (const topic of site.topics) {
    questions.push(['learn', topic, '-k', topic]);
    for (const profile of site.profiles) questions.push(['learn', topic, '--profile', profile]);
    questions.push(['find', topic, '--json', '--limit', '50'], ['find', topic, '--topic', topic]);
  }
  for (const title of site.titles) questions.push(['find', title, '--json', '--limit', '50']);
  return questions;
}

afterAll(async () => {
  for (const server of servers) await server.close();
  for (const folder of temporaryFolders) fs.rmSync(folder, { recursive: true, force: true });
  removeFixtureCopies();
});

it('finds cases to compare, in most fixtures', () => {
  const runnable = fixtures.flatMap((f) => f.cases).filter((c) => c.site.skip === undefined);
  expect(runnable.length).toBeGreaterThan(200);
  expect(fixtures.filter((f) => f.cases.some((c) => c.site.skip === undefined)).length).toBeGreaterThan(20);
});

it('publishes every fixture except those whose build must fail', () => {
  const unpublished = fixtures.flatMap((f) => f.sites.filter((s) => s.skip !== undefined).map((s) => `${f.name}: ${s.skip}`));
  expect(unpublished).toEqual([
    'duplicate-slugs: the knowledge base has content errors (duplicate-slug), so the build fails',
    'learnings-malformed: the knowledge base has content errors (duplicate-slug), so the build fails',
    'learnings-unusable-stores: the knowledge base has content errors (invalid-store, missing-store), so the build fails',
    'missing-folder: the knowledge base has content errors (missing-folder), so the build fails',
  ]);
});

for (const fixture of fixtures) {
  if (fixture.cases.every((c) => c.site.skip !== undefined)) continue;
  describe(fixture.name, () => {
    for (const testCase of fixture.cases) {
      if (testCase.site.skip !== undefined) continue;
      it.concurrent(testCase.name, async () => {
        const { local, remote } = await runBoth(fixture.cwd, splitConfigArgs(testCase.args).rest, testCase.site);

        expect(local.code, `the local run itself should exit as the case says; stderr:\n${local.stderr}`).toBe(testCase.exit);
        expect({ exit: remote.code, stdout: remote.stdout }, `remote stderr:\n${remote.stderr}`).toEqual({ exit: local.code, stdout: local.stdout });
        if (fs.existsSync(path.join(testCase.folder, 'stderr'))) expect(remote.stderr).toBe(local.stderr);
        else if (remote.code === 0) expect(remote.stderr).toBe('');
      });
    }
  });
}

for (const fixture of fixtures) {
  for (const site of fixture.sites) {
    if (site.skip !== undefined) continue;
    describe(`${fixture.name}, ${site.configs.join(' + ')}: questions no case asks`, () => {
      for (const question of derivedQuestions(site)) {
        it.concurrent(question.join(' '), async () => {
          const { local, remote } = await runBoth(fixture.cwd, question, site);
          expect(local.code, `the local run should succeed; stderr:\n${local.stderr}`).toBe(0);
          expect({ exit: remote.code, stdout: remote.stdout, stderr: remote.stderr }).toEqual({ exit: 0, stdout: local.stdout, stderr: '' });
        });
      }
    });
  }
}
