/**
 * The render stage renders many subjects in worker threads, a batch per worker
 * (content/reference/decisions.md, "The render stage's workers"): the renderings are the ones the
 * build's own thread makes, links between subjects and to published images included.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kb/index.ts';
import { prepareSiteData } from '../../../src/build/site-data.ts';
import { createMarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';
import { renderContextOf, renderSubjects, startRenderSubjects, type RenderSubjectsOptions } from '../../../src/build/render/render-subjects.ts';
import { openRenderingCache } from '../../../src/build/render/rendering-cache.ts';
import { workerBatchSize } from '../../../src/build/render/render-threads.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const TOML = '[site]\ntitle = "T"\n\n[kb.topic.guide]\nsubjects = "guide"\n';

/** Starts rendering the subjects of `files` one per worker thread: each worker starts once the one before it has answered. */
async function renderOneByOne(files: Record<string, string>, options: Pick<RenderSubjectsOptions, 'rank' | 'signal'> = {}) {
  const root = makeTree({ 'kb.toml': TOML, ...files });
  const { config } = loadConfig([{ file: path.join(root, 'kb.toml'), text: TOML }]);
  const data = await prepareSiteData(config!);
  const context = renderContextOf(data);
  return startRenderSubjects(data, {
    renderer: await createMarkdownRenderer(() => context),
    context,
    cache: openRenderingCache(path.join(makeTree({}), 'renderings')),
    inProcess: 0,
    perWorker: 1,
    ...options,
  });
}

describe('rendering in worker threads', () => {
  it('gives the renderings the build thread gives', async () => {
    const root = makeTree({
      'kb.toml': TOML,
      'guide/intro.md': '# Intro\n\nSee [setup](setup.md#step-2), ![logo](logo.png) and `code`.\n\n```js\nconst a = 1;\n```\n',
      'guide/setup.md': '# Setup\n\n## Step 2\n\n> [!NOTE]\n> Back to [intro](./intro.md).\n\n$x^2$\n',
      'guide/deep/nested.md': '# Nested\n\n[Up](../intro.md), <script>alert(1)</script>\n',
      'guide/notes.txt': 'plain <text> & more\n',
      'guide/tool.py': 'print("hi")\n',
      'guide/card.mdx': '# Card\n\n<Aside type="tip">Read [setup](setup.md).</Aside>\n',
      'guide/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]),
    });
    const { config } = loadConfig([{ file: path.join(root, 'kb.toml'), text: TOML }]);
    const data = await prepareSiteData(config!);
    const context = renderContextOf(data);
    const renderer = await createMarkdownRenderer(() => context);
    const render = async (inProcess: number, perWorker: number) => {
      const rendered: number[] = [];
      const { renderings, stats } = await renderSubjects(data, {
        renderer,
        context,
        cache: openRenderingCache(path.join(makeTree({}), 'renderings')),
        inProcess,
        perWorker,
        onRendered: (done) => rendered.push(done),
      });
      return { renderings: Object.fromEntries([...renderings].sort(([a], [b]) => a.localeCompare(b))), stats, rendered };
    };
    const here = await render(Number.POSITIVE_INFINITY, 1);
    // Two subjects per worker: four workers, one after the other.
    const workers = await render(0, 2);
    expect(Object.keys(here.renderings)).toEqual(['guide/card', 'guide/deep/nested', 'guide/intro', 'guide/logo', 'guide/notes', 'guide/setup', 'guide/tool']);
    expect(workers).toEqual(here);
    expect(workers.rendered).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // What only the site's context gives: a link to another subject and a published image's URL.
    expect(workers.renderings['guide/intro']!.html).toContain('<a href="/guide/setup/#step-2">setup</a>');
    expect(workers.renderings['guide/deep/nested']!.html).toContain('<a href="/guide/intro/">Up</a>');
    expect(workers.renderings['guide/intro']!.html).toContain('<img src="/raw/guide/logo/logo.png" alt="logo">');
  });

  it('shares the subjects equally among as few workers as hold them', () => {
    expect(workerBatchSize(7425, 4000)).toBe(3713);
    expect(workerBatchSize(4000, 4000)).toBe(4000);
    expect(workerBatchSize(4001, 4000)).toBe(2001);
    expect(workerBatchSize(100_000, 4000)).toBe(4000);
    expect(workerBatchSize(7, 2)).toBe(2);
    expect(workerBatchSize(3, 4000)).toBe(3);
  });

  it('gives each rendering as soon as it is made, before the stage is done', async () => {
    // One subject per worker: the second worker starts only once the first has answered.
    const started = await renderOneByOne({ 'guide/a.md': '# A\n\nFirst.\n', 'guide/b.md': '# B\n\nSecond.\n' });
    let done = false;
    void started.done.then(() => (done = true));
    expect((await started.get('guide/a'))!.html).toBe('<p>First.</p>\n');
    expect(done).toBe(false);
    expect((await started.get('guide/b'))!.html).toBe('<p>Second.</p>\n');
    expect(await started.done).toEqual({ rendered: 2, unchanged: 0 });
    expect(await started.get('guide/none')).toBeUndefined();
  });

  it('renders the subjects in the order of their rank, subjects of equal rank in the catalog order', async () => {
    const order: string[] = [];
    const started = await renderOneByOne(
      { 'guide/a.md': '# A\n\nFirst.\n', 'guide/b.md': '# B\n\nSecond.\n', 'guide/c.md': '# C\n\nThird.\n' },
      { rank: (subject) => (subject.slug === 'c' ? 0 : 1) },
    );
    await Promise.all(
      ['guide/a', 'guide/b', 'guide/c'].map(async (id) => {
        await started.get(id);
        order.push(id);
      }),
    );
    await started.done;
    expect(order).toEqual(['guide/c', 'guide/a', 'guide/b']);
  });

  it('stops when its signal aborts: the worker ends, no other starts, and what is still waited for fails', async () => {
    const stop = new AbortController();
    const started = await renderOneByOne({ 'guide/a.md': '# A\n\nFirst.\n', 'guide/b.md': '# B\n\nSecond.\n', 'guide/c.md': '# C\n\nThird.\n' }, { signal: stop.signal });
    expect((await started.get('guide/a'))!.html).toBe('<p>First.</p>\n');
    stop.abort(new Error('the build stopped'));
    await expect(started.done).rejects.toThrow('the build stopped');
    await expect(started.get('guide/c')).rejects.toThrow('the build stopped');
  });

  it('fails the stage with the subject whose rendering failed', async () => {
    const root = makeTree({ 'kb.toml': TOML, 'guide/a.md': '# A\n' });
    const { config } = loadConfig([{ file: path.join(root, 'kb.toml'), text: TOML }]);
    const data = await prepareSiteData(config!);
    const context = renderContextOf(data);
    // A subject the worker cannot render: its format names no renderer and its content is not text.
    const subject = data.catalog.topics[0]!.subjects[0]!;
    Object.assign(subject, { format: 'markdown', content: undefined });
    await expect(
      renderSubjects(data, { renderer: await createMarkdownRenderer(() => context), context, cache: openRenderingCache(path.join(makeTree({}), 'renderings')), inProcess: 0 }),
    ).rejects.toThrow(`rendering ${subject.file} failed: `);
    // A page waiting for that rendering fails with the same reason.
    const started = startRenderSubjects(data, {
      renderer: await createMarkdownRenderer(() => context),
      context,
      cache: openRenderingCache(path.join(makeTree({}), 'renderings')),
      inProcess: 0,
    });
    await expect(started.get('guide/a')).rejects.toThrow(`rendering ${subject.file} failed: `);
    await expect(started.done).rejects.toThrow(`rendering ${subject.file} failed: `);
    // And so does a page that asks once the stage has failed.
    await expect(started.get('guide/a')).rejects.toThrow(`rendering ${subject.file} failed: `);
  });
});
