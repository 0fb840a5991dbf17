/**
 * Incremental builds against full builds: after changes to shared data (a topic's title, a
 * renamed subject) and to subjects (edited, added, removed), the output of the rebuild must be
 * the output a build from scratch of the same knowledge gives, byte for byte. The rebuild makes its
 * pages from the compiled pages the first build kept, without Astro's build (src/astro/pages-bundle.ts):
 * Astro's project folder is made unusable before it, so that a rebuild that started Astro fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliRun } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'site');

/** Every file below `dir` (the build's own marker left out), Pagefind's gzipped files decompressed. */
/** Files Pagefind names by a hash of their content, and the file naming them. */
const PAGEFIND_HASHED = /^pagefind\/.*_[0-9a-f]{7,}\.pf_(fragment|index|filter|meta)$/;
const PAGEFIND_ENTRY = /^pagefind\/[^/]+\/pagefind-entry\.json$/;

function readOutput(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const full = path.join(dir, name);
    // The marker names the manifest of the build, whose keys include the cache's absolute paths.
    // Pagefind's hashed files and the entry naming them are left out, as in the deterministic-build
    // test: with more than one topic, the topic filter's file may differ between a full and an
    // incremental build (content/reference/decisions.md, "The search index's files").
    const relative = name.split(path.sep).join('/');
    if (name === '.syllabus-build' || PAGEFIND_HASHED.test(relative) || PAGEFIND_ENTRY.test(relative) || !fs.statSync(full).isFile()) continue;
    let bytes = fs.readFileSync(full);
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
    files.set(name.split(path.sep).join('/'), bytes.toString('latin1'));
  }
  return files;
}

function build(dir: string, env: Record<string, string> = {}): CliRun {
  const run = runCli(['build', '--config', path.join(dir, 'kb.toml'), '--out', path.join(dir, 'dist'), '--cache', path.join(dir, '.cache')], { cwd: dir, env });
  expect(run.code, run.stderr).toBe(0);
  return run;
}

/** The phase lines of a build's report, times masked. */
function phases(run: CliRun): string[] {
  return run.stderr
    .split('\n')
    .filter((line) => /^(read|pages|search) /.test(line))
    .map((line) => line.replace(/\(\d+\.\d s\)/, '(T s)'));
}

/** The report of a build, times masked. */
const masked = (run: CliRun): string => run.stderr.replace(/\d+\.\d s\b/g, 'T s');

let rebuilt: CliRun;
let incremental: Map<string, string>;
let full: Map<string, string>;
/** The same two builds with the catalog's work in the build's own thread (a knowledge base over the thread's limit). */
let unthreaded: { first: CliRun; rebuilt: CliRun; output: Map<string, string> };
let threadedFirst: CliRun;

/** Builds a copy of the fixture, changes shared data and subjects, and builds it again; returns both runs and the output. */
function buildTwice(env: Record<string, string> = {}): { first: CliRun; rebuilt: CliRun; output: Map<string, string>; work: string } {
  const work = makeTree({});
  fs.cpSync(FIXTURE, work, { recursive: true });
  const first = build(work, env);
  const toml = path.join(work, 'kb.toml');
  fs.writeFileSync(toml, fs.readFileSync(toml, 'utf8').replace('title = "Team Handbook"', 'title = "Crew Handbook"'));
  fs.renameSync(path.join(work, 'handbook/guides/deploy.md'), path.join(work, 'handbook/guides/shipping.md'));
  fs.writeFileSync(path.join(work, 'handbook/many/item-05.md'), '# Item 05\n\nNow about quince-jam.\n');
  fs.writeFileSync(path.join(work, 'handbook/guides/rollback.md'), '# Rolling back\n\nUndo a release with `make rollback`.\n');
  fs.rmSync(path.join(work, 'handbook/many/item-30.md'));
  expect(fs.existsSync(path.join(work, '.cache', 'pages-bundle', 'bundle.json'))).toBe(true);
  fs.rmSync(path.join(work, '.cache', 'astro'), { recursive: true, force: true });
  fs.writeFileSync(path.join(work, '.cache', 'astro'), 'not a folder: Astro cannot build here\n');
  const again = build(work, env);
  return { first, rebuilt: again, output: readOutput(path.join(work, 'dist')), work };
}

beforeAll(() => {
  const threaded = buildTwice();
  threadedFirst = threaded.first;
  rebuilt = threaded.rebuilt;
  incremental = threaded.output;

  const fresh = makeTree({});
  fs.cpSync(threaded.work, fresh, { recursive: true, filter: (from) => !/[\\/](dist|\.cache)$/.test(from) });
  build(fresh);
  full = readOutput(path.join(fresh, 'dist'));

  unthreaded = buildTwice({ SYLLABUS_CATALOG_THREAD_CHARACTERS: '0' });
});

describe("the catalog's work in the build's own thread", () => {
  it('gives the same reports and the same files as in a thread of its own, in a full build and in a rebuild', () => {
    expect(masked(unthreaded.first)).toBe(masked(threadedFirst));
    expect(masked(unthreaded.rebuilt)).toBe(masked(rebuilt));
    expect(masked(rebuilt)).toContain('warning[broken-link]');
    expect([...unthreaded.output.keys()]).toEqual([...incremental.keys()]);
    expect([...incremental].filter(([name, body]) => unthreaded.output.get(name) !== body).map(([name]) => name)).toEqual([]);
  });
});

describe('an incremental build after shared data changed', () => {
  it('builds again only the pages that show what changed', () => {
    // Every subject and topic page shows the topic's title (43 subjects, 2 topic pages: the header's
    // topic switcher lists every topic); 2 pages went (the removed and the renamed subject's old
    // address); 3 contents are new.
    expect(phases(rebuilt)).toEqual([
      'read      2 topics, 43 subjects (T s)',
      'pages     45 pages changed, 2 removed; 3 subjects rendered, 40 unchanged (T s)',
      'search    40 pages indexed, 1 of 1 shard written (T s)',
    ]);
  });

  it('writes exactly the files a build from scratch writes', () => {
    expect([...incremental.keys()]).toEqual([...full.keys()]);
    const differing = [...full].filter(([name, body]) => incremental.get(name) !== body).map(([name]) => name);
    expect(differing).toEqual([]);
  });

  it('shows the new topic title on every page of the topic, and the old one nowhere', () => {
    const pages = [...incremental].filter(([name]) => /^handbook\/.+index\.html$/.test(name));
    expect(pages.length).toBe(41);
    for (const [name, body] of pages) expect(body, name).toContain('<li><a href="/handbook/">Crew Handbook</a></li>');
    expect([...incremental].filter(([, body]) => body.includes('Team Handbook')).map(([name]) => name)).toEqual([]);
  });

  it('moves a renamed subject to its new address and links it from its neighbours', () => {
    expect(incremental.has('handbook/guides/deploy/index.html')).toBe(false);
    expect(incremental.has('handbook/guides/deploy.md')).toBe(false);
    expect(incremental.get('handbook/guides/shipping.md')).toBe(fs.readFileSync(path.join(FIXTURE, 'handbook/guides/deploy.md'), 'latin1').replace(/\n+$/, ''));
    expect(incremental.get('handbook/guides/rollback/index.html')).toContain('<a class="next" href="/handbook/guides/shipping/" rel="next"><span>Next</span>Deploying</a>');
    expect(incremental.get('handbook/index.html')).toContain('<a href="/handbook/guides/shipping/">Deploying</a>');
    // Only the author's own link in welcome.md still points there (check reports it as broken).
    expect([...incremental].filter(([, body]) => body.includes('/handbook/guides/deploy/')).map(([name]) => name)).toEqual(['handbook/welcome/index.html']);
  });
});
