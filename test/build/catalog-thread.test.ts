/**
 * A build runs the content checks and makes the site's texts that grow with the knowledge base
 * (its indexes, llms.txt, llms-full.txt) in a worker thread (content/reference/decisions.md, "The
 * catalog's work in a thread of its own"): the same diagnostics, and the same bytes under the same
 * keys, as the build's own thread gives, with the search terms, word sets and outlines memos saved by the worker; a
 * knowledge base over the limit is left to the build's thread. The same thread counts tokens
 * while the build reads ("Tokens counted in the catalog's thread"): the same counts as this
 * thread's, in order, across batches; asked after the work or once stopped, it refuses, with a message.
 * A thread kept between builds (`build --watch`) counts and works for each build in turn, the same
 * as a thread of its own; a build stopped ends it, and the next build starts another.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContent, loadContentChecks } from '../../src/kb/checks/content.ts';
import { countTokensHere } from '../../src/kb/catalog/tokens.ts';
import { configOrError, loadSiteConfig } from '../../src/build/read-config.ts';
import { prepareSiteData } from '../../src/build/site-data.ts';
import { keyText, siteTextsOf } from '../../src/build/site-texts.ts';
import { keepCatalogThread, startCatalogThread } from '../../src/build/catalog-thread.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const fixture = (name: string) => path.resolve(import.meta.dirname, '../fixtures', name);

async function fixtureData(dir = fixture('site')) {
  const config = configOrError(await loadSiteConfig(['kb.toml'], dir), dir);
  return { config, data: await prepareSiteData(config) };
}

const settingsOf = (file: string, root = fixture('site')) => ({
  checks: { root, nearDuplicateCode: false },
  memos: { searchTerms: file, wordSets: path.join(path.dirname(file), 'word-sets.json'), outlines: path.join(path.dirname(file), 'outlines.json'), codeKey: 'code' },
});

describe('the catalog thread', () => {
  it.each(['site', 'check-links', 'check-near-duplicates'])(
    "gives the content checks' diagnostics and every text of the site as the build thread does (%s), and saves the search terms memo",
    async (name) => {
      const { config, data } = await fixtureData(fixture(name));
      const file = path.join(makeTree({}), 'search-terms.json');
      const work = startCatalogThread(new AbortController().signal).work(data, settingsOf(file, fixture(name)))!;

      await loadContentChecks();
      const diagnostics = checkContent(data.catalog, data.site, fixture(name), config.check);
      if (name !== 'site') expect(diagnostics.map((d) => d.code)).toContain(name === 'check-links' ? 'broken-link' : 'near-duplicate');
      expect(await work.checks).toEqual(diagnostics);

      const here = siteTextsOf({ catalog: data.catalog, site: data.site, base: data.routes.base }).map(({ path, make }) => [path, keyText(make())] as const);
      // The index, the knowledge file and each profile's, each topic's file and navigation, the keywords, index.txt, llms.txt and llms-full.txt.
      expect(here).toHaveLength(6 + data.catalog.profiles.size + 2 * data.catalog.topics.length);
      const made = await work.texts;
      expect([...made].map(([p, { key, bytes }]) => [p, key, Buffer.from(bytes).toString()])).toEqual(here.map(([p, { key, bytes }]) => [p, key, Buffer.from(bytes).toString()]));
      // Once the thread has ended, the memo holds the listed subjects' search documents (one per distinct subject), under the code's key.
      await work.ended;
      const listed = data.catalog.topics.flatMap((t) => t.subjects.filter((s) => !s.hidden));
      const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string; entries: Record<string, string> };
      expect(saved.version).toBe('code');
      expect(Object.keys(saved.entries).length).toBeGreaterThan(0);
      expect(Object.keys(saved.entries).length).toBeLessThanOrEqual(listed.length);
      // And the near-duplicate check's word sets, each under its subject's key.
      const sets = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'word-sets.json'), 'utf8')) as { version: string; entries: Record<string, string[]> };
      expect(sets.version).toBe('code');
      expect(Object.keys(sets.entries).length).toBeGreaterThan(0);
      expect(Object.keys(sets.entries).every((key) => /^(content|learning):[0-9a-f]{64}$/.test(key))).toBe(true);
      // And the outlines the link, mention and title checks read, each under its content's sha256.
      const outlines = JSON.parse(fs.readFileSync(path.join(path.dirname(file), 'outlines.json'), 'utf8')) as {
        version: string;
        entries: Record<string, { links: { url: string }[] }>;
      };
      expect(outlines.version).toBe('code');
      const subjects = data.catalog.topics.flatMap((t) => t.subjects);
      expect(Object.keys(outlines.entries).every((sha) => subjects.some((s) => s.sha256 === sha))).toBe(true);
      if (name === 'check-links') expect(Object.values(outlines.entries).some((o) => o.links.length > 0)).toBe(true);
    },
  );

  it('leaves a knowledge base over the limit to the build thread, and stops when asked', async () => {
    const { data } = await fixtureData();
    const settings = settingsOf(path.join(makeTree({}), 'search-terms.json'));
    expect(startCatalogThread(new AbortController().signal).work(data, settings, 10)).toBeUndefined();
    const stop = new AbortController();
    const work = startCatalogThread(stop.signal).work(data, settings)!;
    stop.abort(new Error('the build stopped'));
    await expect(work.checks).rejects.toThrow('the build stopped');
    await expect(work.texts).rejects.toThrow('the build stopped');
  });

  it('counts what this thread counts, small texts and batches over the size limit alike', async () => {
    const stop = new AbortController();
    const thread = startCatalogThread(stop.signal);
    try {
      const texts = ['', 'Hello, world.', '# Heading\n\nSome *markdown* with `code`.\n', 'żółć — ünïcödé 🙂', 'word '.repeat(60_000), 'tail'];
      const counts = await Promise.all(texts.map((text) => thread.count(text)));
      expect(counts).toEqual(await Promise.all(texts.map(countTokensHere)));
      // Asked again after the first answers: a second exchange with the same thread.
      expect(await thread.count('Hello, world.')).toBe(counts[1]);
    } finally {
      stop.abort();
    }
  });

  it('works for build after build when kept, as a thread of its own does, and starts again after a build stopped', async () => {
    const { data } = await fixtureData();
    const settings = settingsOf(path.join(makeTree({}), 'search-terms.json'));
    const alone = startCatalogThread(new AbortController().signal).work(data, settings)!;
    const expected = { checks: await alone.checks, texts: await alone.texts };
    await alone.ended;
    const kept = keepCatalogThread();
    try {
      const ids = new Set<number>();
      for (let build = 0; build < 3; build++) {
        const thread = kept.start(new AbortController().signal);
        expect(await thread.count('Hello, world.')).toBe(await countTokensHere('Hello, world.'));
        const work = thread.work(data, settings)!;
        expect({ checks: await work.checks, texts: await work.texts }).toEqual(expected);
        await work.ended;
        ids.add(kept.threadId!);
      }
      // One thread for the three builds.
      expect(ids.size).toBe(1);
      const stop = new AbortController();
      const stopped = kept.start(stop.signal).work(data, settings)!;
      stop.abort(new Error('the build stopped'));
      await expect(stopped.texts).rejects.toThrow('the build stopped');
      const next = kept.start(new AbortController().signal).work(data, settings)!;
      expect(await next.texts).toEqual(expected.texts);
      await next.ended;
      expect(kept.threadId).not.toBe([...ids][0]);
    } finally {
      await kept.stop();
    }
  });

  it('refuses counts once the catalog is sent, and the ones still waiting when the build stops', async () => {
    const { data } = await fixtureData();
    const done = startCatalogThread(new AbortController().signal);
    const work = done.work(data, settingsOf(path.join(makeTree({}), 'search-terms.json')))!;
    await expect(done.count('asked after the work')).rejects.toThrow('the token counter was stopped: the catalog is made');
    // The thread still ends of itself once its work is done: the port it counted through is closed.
    await work.texts;
    await work.ended;

    const stop = new AbortController();
    const stopped = startCatalogThread(stop.signal);
    const waiting = expect(stopped.count('asked before the stop')).rejects.toThrow('the build stopped');
    stop.abort(new Error('the build stopped'));
    await waiting;
    await expect(stopped.count('asked after')).rejects.toThrow('the build stopped');
  });
});
