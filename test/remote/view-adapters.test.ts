/**
 * The two adapters of the knowledge view answer alike: the local view of a knowledge base and the
 * remote view of the site built from it, asked the same through the port (src/kb/view/view.ts)
 * — the section, the tool, listings, learn, find and the index, and all of them again after the
 * same `-k` values and profile. The site is written as the build writes its endpoints, and served
 * over HTTP.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { createLocalView, loadConfig, openKnowledgeBase, readConfigFiles, type KnowledgeRequest, type KnowledgeView } from '../../src/kb/index.ts';
import { openRemoteView } from '../../src/remote/remote-view.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const TOML = `[site]
title = "Views"

[kb.topic.guide]
title = "The Guide"
introduction = "How to use it."
description = "Everything about using it."
subjects = "guide"
learned = ["start", "internal"]

[kb.topic.notes]
subjects = "notes"

[kb.topic.off]
enable = false
subjects = "off"

[profile.deep]
knowledge = ["guide/advanced/**", "notes/b"]
`;

const TREE = {
  'kb.toml': TOML,
  'guide/start.md': '# Start\n\nBegin here with the release steps.\n',
  'guide/.internal.md': '# Internal\n\nHidden notes on releases.\n',
  'guide/.x*.md': '# Starred\n\nA hidden subject named like a glob.\n',
  'guide/advanced/one.md': '# One\n\nThe first advanced release topic.\n',
  'guide/advanced/two.md': '# Two\n\nThe second advanced topic.\n',
  'notes/a.md': '# A\n\nNotes about alpha.\n',
  'notes/b.md': '# B\n\nNotes about beta releases.\n',
  'notes/c.toml': 'answer = 42\n',
  'off/z.md': '# Z\n\nOff.\n',
};

/** Every call of `learn` compared: listings, exact slugs (hidden, dotted, glob-named), globs, mistakes. */
const LEARN_CALLS: unknown[] = [
  { topic: 'guide' },
  { topic: 'the guide' },
  { topic: 'notes', subjects: null },
  { topic: 'guide', subjects: 'start' },
  { topic: 'guide', subjects: 'internal' },
  { topic: 'guide', subjects: '.internal' },
  { topic: 'guide', subjects: 'x*' },
  { topic: 'guide', subjects: '*' },
  { topic: 'guide', subjects: '**' },
  { topic: 'guide', subjects: ['advanced/*', 'internal', 'advanced/one'] },
  { topic: 'notes', subjects: ['c', 'a'] },
  { topic: 'notes', subjects: ['', 'b'] },
  { topic: 'notes', subjects: ['zz', 'q*'] },
  { topic: 'notes', subjects: '[a]*b*c*' },
  { topic: 'off' },
  { topic: 'nope', subjects: 'a' },
  { topic: 3 },
  [],
];

const FIND_CALLS: unknown[] = [
  { query: 'release' },
  { query: 'release', topic: 'The Guide', limit: 1 },
  { query: 'notes', topic: 'off' },
  { query: 'nothing matches this' },
  { query: 7 },
];

let local: KnowledgeView;
let remote: KnowledgeView;
let server: RunningServer;

beforeAll(async () => {
  const root = makeTree(TREE);
  const config = path.join(root, 'kb.toml');
  const read = readConfigFiles([config], root);
  local = createLocalView(openKnowledgeBase(loadConfig(read.configTexts).config!));
  const site = makeTree({});
  writeStaticFiles(site, staticFilesOf(await readSiteData([config], root)));
  server = await serveStatic(site, '127.0.0.1', 0);
  remote = openRemoteView(`${server.url}/`, { timeoutMs: 10_000 });
});
afterAll(() => server.close());

/** Asks both views the same; they must answer alike. Returns the answer. */
async function same<T>(ask: (view: KnowledgeView) => Promise<T>): Promise<T> {
  const [fromFiles, fromSite] = await Promise.all([ask(local), ask(remote)]);
  expect(fromSite).toEqual(fromFiles);
  return fromFiles;
}

/** Compares every answer of both views after `request`. */
async function compareExtended(request: KnowledgeRequest): Promise<{ local: KnowledgeView; remote: KnowledgeView }> {
  const [l, r] = await Promise.all([local.extend(request), remote.extend(request)]);
  if (!l.ok || !r.ok) throw new Error(`extend failed: ${JSON.stringify([l, r])}`);
  const views = { local: l.view, remote: r.view };
  const both = async <T>(ask: (view: KnowledgeView) => Promise<T>): Promise<T> => {
    const [fromFiles, fromSite] = await Promise.all([ask(views.local), ask(views.remote)]);
    expect(fromSite).toEqual(fromFiles);
    return fromFiles;
  };
  await both((v) => v.prompt());
  await both((v) => v.tool());
  await both((v) => v.tokens());
  for (const args of LEARN_CALLS) await both((v) => v.learn(args));
  return views;
}

describe('the local and the remote view of one knowledge base', () => {
  it('give the same section, tool and tokens', async () => {
    const prompt = await same((v) => v.prompt());
    expect(prompt).toContain('<subject "internal">\n# Internal\n\nHidden notes on releases.\n</subject>');
    expect(await same((v) => v.tool())).toMatchObject({ description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- guide (**The Guide**)\n- notes' });
    expect(await same((v) => v.tokens())).toBeGreaterThan(0);
  });

  it.each(LEARN_CALLS.map((args) => [JSON.stringify(args), args]))('answer learn(%s) alike', async (_name, args) => {
    await same((v) => v.learn(args));
  });

  it("answer learn as the tool's texts (a sample, whole)", async () => {
    expect(await same((v) => v.learn({ topic: 'guide', subjects: 'x*' }))).toEqual({ ok: true, text: '# Starred\n\nA hidden subject named like a glob.' });
    expect(await same((v) => v.learn({ topic: 'guide', subjects: '*' }))).toEqual({
      ok: false,
      message: 'No subjects in topic "guide" match "*". Call learn with only the topic to list its subjects.',
    });
    expect(await same((v) => v.listing('notes'))).toEqual({
      ok: true,
      text: '# Topic: notes\n\n## Available subjects:\n\n- a\n- b\n- c\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.',
    });
  });

  it.each(FIND_CALLS.map((args) => [JSON.stringify(args), args]))('answer find(%s) alike', async (_name, args) => {
    await same((v) => v.find(args));
  });

  it('give the same index', async () => {
    const index = await same((v) => v.index());
    expect(index.topics.map((t) => t.id)).toEqual(['guide', 'notes']);
  });

  it('answer alike after the same -k values', async () => {
    const views = await compareExtended({ knowledge: ['notes/c', 'guide/x*', 'guide/advanced/*'] });
    expect(await views.local.learn({ topic: 'guide' })).toEqual({
      ok: true,
      text: '# Topic: The Guide\n\nEverything about using it.\n\n## Available subjects:\n\n(none)\n\n## Already learned (in system prompt):\n\n- advanced/one\n- advanced/two\n- start',
    });
  });

  it('answer alike after the same profile, and the profile with -k values after it', async () => {
    await compareExtended({ profile: 'deep' });
    const views = await compareExtended({ profile: 'deep', knowledge: ['notes'] });
    expect(await views.remote.tool()).toBeNull();
  });

  it('refuse the same mistakes with the same messages', async () => {
    for (const request of [{ profile: 'nope' }, { knowledge: ['x/y'] }, { knowledge: ['guide/[a]*b*c*'] }, { profile: 'deep', knowledge: ['x'] }]) {
      const answer = await same((v) => v.extend(request));
      expect(answer.ok).toBe(false);
    }
    // A site publishes its enabled topics only: a disabled one is unknown there.
    expect(await local.extend({ knowledge: ['off/z'] })).toEqual({ ok: false, message: '-k "off/z": topic "off" is disabled (enable = false). Valid topics: guide, notes.' });
    expect(await remote.extend({ knowledge: ['off/z'] })).toEqual({ ok: false, message: '-k "off/z": unknown topic "off". Valid topics: guide, notes.' });
  });
});
