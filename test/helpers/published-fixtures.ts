/**
 * The fixtures as published sites, for the tests that compare `--remote` with local files: each
 * fixture's knowledge base written as the build writes its non-page files (readSiteData, then the
 * static files), which is what `--remote` reads, without a full Astro build per fixture, and
 * served over HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { hasContentErrors } from '../../src/kb/index.ts';
import { FIXTURES, fixtureNames, prepareFixture, readCases, type FixtureCase } from './fixtures.ts';

/** The commands `--remote` answers. */
const REMOTE_COMMANDS = new Set(['learn', 'prompt', 'schema', 'find']);

/** A fixture's knowledge base (one set of config files) as a published site. */
export interface Site {
  /** Why the site cannot be built (and its cases are not compared), or undefined. */
  skip: string | undefined;
  dir: string;
  /** Its config files, as the cases name them. */
  configs: string[];
  /** Its enabled topics' ids and titles, and its profiles' names. */
  topics: string[];
  titles: string[];
  profiles: string[];
  /** Set by {@link serveSites}. */
  server?: RunningServer;
}

/** A fixture with the cases that `--remote` can answer too, each with its site. */
export interface PublishedFixture {
  name: string;
  /** The folder its cases run in (see prepareFixture). */
  cwd: string;
  cases: (FixtureCase & { site: Site })[];
  sites: Site[];
}

const temporaryFolders: string[] = [];

/** A case's arguments without its config flags, and the config files they named (default kb.toml). */
export function splitConfigArgs(args: readonly string[]): { configs: string[]; rest: string[] } {
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

/** Whether `--remote` answers a case: a learn, prompt, schema or find that exits 0 or 1. */
export function comparesRemotely(testCase: FixtureCase): boolean {
  return REMOTE_COMMANDS.has(testCase.args[0]!) && (testCase.exit === 0 || testCase.exit === 1);
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

/**
 * Every fixture that has cases `--remote` can answer, with one site per set of config files those
 * cases name. Fixture copies are removed by removeFixtureCopies, the sites by {@link closeSites}.
 */
export async function publishFixtures(): Promise<PublishedFixture[]> {
  const fixtures: PublishedFixture[] = [];
  for (const name of fixtureNames()) {
    const cases = readCases(path.join(FIXTURES, name)).filter(comparesRemotely);
    if (cases.length === 0) continue;
    const cwd = prepareFixture(path.join(FIXTURES, name));
    const sites = new Map<string, Promise<Site>>();
    const published: (FixtureCase & { site: Site })[] = [];
    for (const testCase of cases) {
      const { configs } = splitConfigArgs(testCase.args);
      const key = JSON.stringify(configs);
      if (!sites.has(key)) sites.set(key, buildSite(cwd, configs));
      published.push({ ...testCase, site: await sites.get(key)! });
    }
    fixtures.push({ name, cwd, cases: published, sites: await Promise.all(sites.values()) });
  }
  return fixtures;
}

const servers = new Set<RunningServer>();

/** Serves every site that could be built, each on a port of its own. */
export async function serveSites(fixtures: readonly PublishedFixture[]): Promise<void> {
  for (const fixture of fixtures) {
    for (const site of fixture.sites) {
      if (site.skip === undefined) {
        site.server = await serveStatic(site.dir);
        servers.add(site.server);
      }
    }
  }
}

/** Stops the servers and removes the sites' folders. */
export async function closeSites(): Promise<void> {
  for (const server of servers) await server.close();
  servers.clear();
  for (const folder of temporaryFolders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
}

/** The arguments that ask `args` (without config flags) of the served site instead of local files. */
export function remoteArgs(site: Site, args: readonly string[]): string[] {
  const [command, ...rest] = args;
  return [command!, '--remote', `${site.server!.url}/`, ...rest];
}

/** The arguments that ask `args` (without config flags) of the site's local config files. */
export function localArgs(site: Site, args: readonly string[]): string[] {
  return [...args, ...site.configs.flatMap((c) => ['--config', c])];
}
