/**
 * `find --remote` on sites whose keywords file is missing, damaged or from another build: each is
 * an error (exit 1) that says what happened and how to fix it; and a site published before the
 * keywords file existed still answers every other command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { joinFindData } from '../../src/remote/remote-find.ts';
import { ROOT, runCli, runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const CONFIG = path.join(ROOT, 'test', 'fixtures', 'find-ranking', 'kb.toml');
let published: string;
const servers: RunningServer[] = [];

beforeAll(async () => {
  published = makeTree({});
  writeStaticFiles(published, staticFilesOf(await readSiteData([CONFIG], process.cwd())));
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** Serves a copy of the published site after `change` edits it; returns the site's root URL. */
async function serveChanged(change: (dir: string) => void): Promise<string> {
  const dir = makeTree({});
  fs.cpSync(published, dir, { recursive: true });
  change(dir);
  const server = await serveStatic(dir, '127.0.0.1', 0);
  servers.push(server);
  return `${server.url}/`;
}

const editJson = (file: string, edit: (value: any) => void) => (dir: string) => {
  const value = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  edit(value);
  fs.writeFileSync(path.join(dir, file), JSON.stringify(value));
};

describe('find --remote', () => {
  it('answers as local files do on the site as published', async () => {
    const url = await serveChanged(() => {});
    const local = runCli(['find', 'release', '--config', CONFIG]);
    expect(local.code).toBe(0);
    expect(await runCliInProcess(['find', 'release', '--remote', url])).toEqual(local);
  });

  it('a site without keywords.json: built by an older syllabus, rebuild it', async () => {
    const url = await serveChanged((dir) => fs.rmSync(path.join(dir, 'kb', 'keywords.json')));
    expect(await runCliInProcess(['find', 'release', '--remote', url])).toEqual({
      stdout: '',
      stderr: `error: ${url}kb/keywords.json was not found (HTTP 404): the site was built by a syllabus without find, or its upload is incomplete. Rebuild and republish the site with this syllabus.\n`,
      code: 1,
    });
  });

  it('a keywords file from another build: republish the whole site', async () => {
    const url = await serveChanged(editJson('kb/keywords.json', (value) => value.topics[1].subjects.pop()));
    expect(await runCliInProcess(['find', 'release', '--remote', url])).toEqual({
      stdout: '',
      stderr: `error: ${url}kb/keywords.json does not match the catalog (${url}kb/index.json): the subjects of topic "guide" differ. The site's files come from different builds (a partial upload, or a cache still serving old files); republish the whole site, or try again later.\n`,
      code: 1,
    });
  });

  it('a keywords file that breaks its schema: not a Syllabus keywords file', async () => {
    const url = await serveChanged(editJson('kb/keywords.json', (value) => (value.topics[0].subjects[0].confidence = 2)));
    expect(await runCliInProcess(['find', 'release', '--remote', url])).toEqual({
      stdout: '',
      stderr: `error: ${url}kb/keywords.json is not a Syllabus keywords file: at topics[0].subjects[0].confidence, Too big: expected number to be <=1. The site was built by an incompatible syllabus, or its files were changed; rebuild it with this one.\n`,
      code: 1,
    });
  });

  it('a site published before keywords.json existed still answers learn', async () => {
    const url = await serveChanged((dir) => {
      fs.rmSync(path.join(dir, 'kb', 'keywords.json'));
      editJson('kb/index.json', (value) => delete value.endpoints.keywords)(dir);
    });
    const local = runCli(['learn', 'ops', '--config', CONFIG]);
    expect(local.code).toBe(0);
    expect(await runCliInProcess(['learn', 'ops', '--remote', url])).toEqual(local);
  });
});

describe('joinFindData', () => {
  const site = { indexUrl: 'https://kb.test/kb/index.json', keywordsUrl: 'https://kb.test/kb/keywords.json' };
  const entry = (slug: string) => ({
    slug,
    title: `Title of ${slug}`,
    summary: `Summary of ${slug}.`,
    format: 'markdown' as const,
    language: null,
    skipped: null,
    path: `${slug}.md`,
    bytes: 1,
    tokens: 1,
    sha256: '0'.repeat(64),
    learned: false,
    url: `/t/${slug}/`,
    markdown: `/t/${slug}.md`,
    json: `/kb/subjects/t/${slug}.json`,
  });
  const topic = (id: string, title: string | null, slugs: string[]) => ({
    id,
    title,
    introduction: null,
    description: null,
    url: `/${id}/`,
    json: `/kb/topics/${id}.json`,
    tokens: 1,
    subjects: slugs.map(entry),
  });
  const index = {
    version: 1 as const,
    site: { title: 'T', description: null, url: null, base: '/' },
    knowledge: { json: '/kb/knowledge.json', tokens: 0, profiles: {} },
    addresses: { page: '', markdown: '', subject: '', topic: '', encoding: '' },
    endpoints: { indexText: '/kb/index.txt', llms: '/llms.txt', llmsFull: '/llms-full.txt', schemas: '/kb/schema/' },
    topics: [topic('b', 'Bee', ['x', 'y']), topic('a', null, [])],
  };

  it('takes titles and summaries from the catalog, search terms and confidence from the keywords file, in catalog order', () => {
    const keywords = {
      version: 1 as const,
      topics: [
        {
          id: 'b',
          subjects: [
            { slug: 'x', keywords: ['xray'], confidence: 1, lengths: [1, 1, 0, 0, 3], terms: ['xray', 'x', '', '', 'xray:2 zulu'] },
            { slug: 'y', keywords: ['yak'], confidence: 0.55, lengths: [1, 0, 0, 0, 0], terms: ['yak', '', '', '', ''] },
          ],
        },
        { id: 'a', subjects: [] },
      ],
    };
    expect(joinFindData(site, index, keywords)).toEqual({
      entries: [
        {
          topic: 'b',
          slug: 'x',
          title: 'Title of x',
          summary: 'Summary of x.',
          document: {
            lengths: [1, 1, 0, 0, 3],
            terms: new Map([
              ['x', [0, 1, 0, 0, 0]],
              ['xray', [1, 0, 0, 0, 2]],
              ['zulu', [0, 0, 0, 0, 1]],
            ]),
          },
          confidence: 1,
        },
        {
          topic: 'b',
          slug: 'y',
          title: 'Title of y',
          summary: 'Summary of y.',
          document: { lengths: [1, 0, 0, 0, 0], terms: new Map([['yak', [1, 0, 0, 0, 0]]]) },
          confidence: 0.55,
        },
      ],
      topics: [
        { id: 'b', title: 'Bee' },
        { id: 'a', title: undefined },
      ],
    });
  });

  it('refuses topics in another order', () => {
    const keywords = {
      version: 1 as const,
      topics: [
        { id: 'a', subjects: [] },
        { id: 'b', subjects: [] },
      ],
    };
    expect(() => joinFindData(site, index, keywords)).toThrow(
      'https://kb.test/kb/keywords.json does not match the catalog (https://kb.test/kb/index.json): its topics are ["a","b"], the catalog\'s ["b","a"]. The site\'s files come from different builds (a partial upload, or a cache still serving old files); republish the whole site, or try again later.',
    );
  });
});
