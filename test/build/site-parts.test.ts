/**
 * A site built in parts and joined (`syllabus build --part`, `syllabus join`;
 * content/reference/cli/build.md, "Building in parts"): test/fixtures/site built as two parts, one
 * per topic, joins into the very site one build of the whole makes (the shared build), but for the
 * search index's shard folders; and the join refuses parts that do not make one site.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { readDistFiles } from '../helpers/dist-files.ts';
import { ROOT, runCliAsync, runCliInProcess } from '../helpers/run-cli.ts';
import { builtSiteFixture } from '../helpers/shared-build.ts';
import { makeTree, writeTree } from '../helpers/temp-tree.ts';

const CONFIG = path.join(ROOT, 'test', 'fixtures', 'site', 'kb.toml');
/** As the shared build of the site (test/helpers/shared-build.ts): several shards per part. */
const ENV = { SYLLABUS_SEARCH_SHARD_PAGES: '10' };

let whole: string;
let work: string;
const parts = { handbook: '', oncall: '' };
const summaries: Record<string, { stderr: string; json: { part?: string[]; counts: { pages: number } } }> = {};

beforeAll(async () => {
  whole = await builtSiteFixture();
  work = makeTree({});
  await Promise.all(
    (['handbook', 'oncall'] as const).map(async (topic) => {
      parts[topic] = path.join(work, `part-${topic}`);
      const cache = await withKeptPages(path.join(work, `cache-${topic}`), 'site');
      const run = await runCliAsync(['build', '--config', CONFIG, '--out', parts[topic], '--cache', cache, '--part', topic, '--json'], { cwd: work, env: ENV });
      if (run.code !== 0) throw new Error(`Building the part ${topic} failed (exit ${run.code}):\n${run.stderr}`);
      summaries[topic] = { stderr: run.stderr, json: JSON.parse(run.stdout) as { part?: string[]; counts: { pages: number } } };
    }),
  );
});

/** The files of a built site but its search index and build marker, by path. */
function withoutSearch(dist: string): Map<string, string> {
  const files = readDistFiles(dist);
  for (const name of [...files.keys()]) if (name.startsWith('pagefind/') || name === '.syllabus-build' || name === '.syllabus-part.json') files.delete(name);
  return files;
}

/** The shards a site's search lists. */
function shardsOf(dist: string): string[] {
  return (JSON.parse(fs.readFileSync(path.join(dist, 'pagefind', 'shards.json'), 'utf8')) as { shards: string[] }).shards;
}

/** Pages a site's search index holds, over all its shards (Pagefind's entry file counts them). */
function indexedPages(dist: string): number {
  let pages = 0;
  for (const shard of shardsOf(dist)) {
    const entry = JSON.parse(fs.readFileSync(path.join(dist, 'pagefind', shard, 'pagefind-entry.json'), 'utf8')) as { languages: Record<string, { page_count: number }> };
    for (const language of Object.values(entry.languages)) pages += language.page_count;
  }
  return pages;
}

describe('a part', () => {
  it('holds the pages and files of its own topics’ subjects only, and all that is not a subject’s own', () => {
    const own = { handbook: 'handbook/welcome', oncall: 'oncall/escalation' };
    for (const [topic, other] of [
      ['handbook', 'oncall'],
      ['oncall', 'handbook'],
    ] as const) {
      const files = readDistFiles(parts[topic]);
      for (const file of [`${own[topic]}/index.html`, `${own[topic]}.md`, `kb/subjects/${own[topic]}.json`]) expect(files.has(file), `${topic} has ${file}`).toBe(true);
      for (const file of [`${own[other]}/index.html`, `${own[other]}.md`, `kb/subjects/${own[other]}.json`]) expect(files.has(file), `${topic} lacks ${file}`).toBe(false);
      // Made from the whole knowledge base in every part.
      for (const file of ['index.html', '404.html', 'search/index.html', 'handbook/index.html', 'oncall/index.html', 'kb/index.json', 'llms.txt', 'llms-full.txt', 'sitemap.xml']) {
        expect(files.get(file), `${topic}: ${file}`).toBe(readDistFiles(whole).get(file));
      }
      expect(JSON.parse(files.get('.syllabus-part.json')!)).toEqual({ version: 1, topics: [topic], all: ['handbook', 'oncall'] });
      // Its summary names it, and counts its own pages: the shared ones and its subjects'.
      expect(summaries[topic]!.stderr).toMatch(new RegExp(`\\nBuilt part-${topic}/ \\(part: ${topic}\\): 2 topics, 43 subjects \\(`));
      expect(summaries[topic]!.json.part).toEqual([topic]);
      expect(summaries[topic]!.json.counts.pages).toBe([...files.keys()].filter((name) => name.endsWith('.html')).length);
      for (const shard of shardsOf(parts[topic])) expect(shard).toMatch(/^part-[0-9a-f]{8}-\d+\/$/);
    }
  });
});

describe('syllabus join', () => {
  it('joins the parts into the site one build makes, with the search shards of every part', async () => {
    const joined = path.join(work, 'joined');
    const run = await runCliInProcess(['join', '--out', 'joined', 'part-handbook', 'part-oncall'], { cwd: work });
    const files = readDistFiles(joined);
    expect(run).toEqual({ stdout: '', stderr: `Joined 2 parts into joined/: ${files.size} files, ${shardsOf(joined).length} search shards\n`, code: 0 });
    expect(withoutSearch(joined)).toEqual(withoutSearch(whole));
    expect(shardsOf(joined)).toEqual([...shardsOf(parts.handbook), ...shardsOf(parts.oncall)]);
    expect(shardsOf(joined).length).toBeGreaterThan(2);
    // Every part's shards, whole: the join indexes what the one build indexed.
    for (const part of Object.values(parts)) {
      for (const shard of shardsOf(part)) {
        for (const [name, text] of readDistFiles(path.join(part, 'pagefind', shard))) expect(files.get(`pagefind/${shard}${name}`)).toBe(text);
      }
    }
    expect(indexedPages(joined)).toBe(indexedPages(whole));
  });

  it('refuses parts that leave a topic out, hold one twice, or are not parts', async () => {
    expect(await runCliInProcess(['join', '--out', 'out', 'part-handbook'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: No part holds the topic "oncall": build it as a part too (--part oncall), then join every part.\n',
      code: 1,
    });
    expect(await runCliInProcess(['join', '--out', 'out', 'part-handbook', 'part-oncall', 'part-oncall'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: The topic "oncall" is in two parts, part-oncall and part-oncall: give each topic to one part.\n',
      code: 1,
    });
    fs.cpSync(whole, path.join(work, 'whole'), { recursive: true });
    expect(await runCliInProcess(['join', '--out', 'out', 'part-handbook', 'whole'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: whole holds no part build (no .syllabus-part.json): build each part with "syllabus build --part <topic>[,<topic>…] --out whole".\n',
      code: 1,
    });
    fs.writeFileSync(path.join(work, 'whole', '.syllabus-part.json'), '{"version": 1, "topics": [');
    expect(await runCliInProcess(['join', '--out', 'out', 'part-handbook', 'whole'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: whole/.syllabus-part.json is not a part record this Syllabus reads: build the part again with this version.\n',
      code: 1,
    });
    expect(await runCliInProcess(['join', '--out', 'part-oncall', 'part-handbook', 'part-oncall'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: --out part-oncall is also one of the parts: join them into another folder.\nRun "syllabus join --help" for usage.\n',
      code: 2,
    });
    expect(fs.existsSync(path.join(work, 'out'))).toBe(false);
  });

  it('deletes nothing: refuses an output folder that holds a part, the current folder, or files no build made', async () => {
    expect(await runCliInProcess(['join', '--out', '.', 'part-handbook', 'part-oncall'], { cwd: work })).toEqual({
      stdout: '',
      stderr: `error: The output folder ${work}/ holds the part part-handbook/, and an output folder is replaced whole: it would be deleted. Build into a folder of its own, outside the knowledge base (--out DIR).\n`,
      code: 1,
    });
    writeTree(work, { 'ours/notes.md': 'Ours.\n' });
    expect(await runCliInProcess(['join', '--out', 'ours', 'part-handbook', 'part-oncall'], { cwd: work })).toEqual({
      stdout: '',
      stderr:
        'error: The output folder ours/ holds files that no Syllabus build made (notes.md; a folder a build wrote holds a .syllabus-build file), and an output folder is replaced whole: they would be deleted. Move them away, or build into another folder (--out DIR).\n',
      code: 1,
    });
    expect(fs.readdirSync(path.join(work, 'ours'))).toEqual(['notes.md']);
    expect(fs.readdirSync(work).filter((name) => name.includes('.join-'))).toEqual([]);
  });

  it('refuses parts whose shared files differ, and leaves the output folder as it was', async () => {
    const changed = path.join(work, 'part-oncall-changed');
    fs.cpSync(parts.oncall, changed, { recursive: true });
    fs.appendFileSync(path.join(changed, 'llms.txt'), '\nA line another commit added.\n');
    writeTree(work, { 'kept/before.txt': 'the last good join', 'kept/.syllabus-build': '' });
    expect(await runCliInProcess(['join', '--out', 'kept', 'part-handbook', 'part-oncall-changed'], { cwd: work })).toEqual({
      stdout: '',
      stderr:
        'error: llms.txt differs between the parts part-handbook and part-oncall-changed: every part must be built from the same sources, config and Syllabus version. Build the parts again from one commit, then join them.\n',
      code: 1,
    });
    expect(fs.readdirSync(path.join(work, 'kept')).sort()).toEqual(['.syllabus-build', 'before.txt']);
    expect(fs.readdirSync(work).filter((name) => name.includes('.join-'))).toEqual([]);
  });
});

describe('syllabus build --part', () => {
  it('names the topics that do not exist (exit 2), and an empty topic is a usage error', async () => {
    const out = path.join(work, 'unknown');
    expect(await runCliAsync(['build', '--config', CONFIG, '--out', out, '--part', 'handbook,nope', '--part', 'gone'], { cwd: work, env: ENV })).toEqual({
      stdout: '',
      stderr: expect.stringMatching(/\nerror: --part names topics that do not exist: "nope", "gone"\. Topics: handbook, oncall\.\n$/),
      code: 2,
    });
    expect(fs.existsSync(out)).toBe(false);
    expect(await runCliInProcess(['build', '--config', CONFIG, '--part', 'handbook,'], { cwd: work })).toEqual({
      stdout: '',
      stderr: 'error: --part takes topic IDs separated by commas, such as --part guides,faq (got "handbook,").\nRun "syllabus build --help" for usage.\n',
      code: 2,
    });
  });
});
