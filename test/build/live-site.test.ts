/**
 * The site the development server shows (src/build/live-site.ts): read once, not again when a page
 * asks, read again at once by `reread`; the build cache's memo of tokens and summaries is used, so
 * that only changed contents are summarised again, and what a read computed is kept in it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cacheFolder } from '../../src/build/cache-folder.ts';
import { openLiveSite, type LiveSite } from '../../src/build/live-site.ts';
import { CATALOG_MEMO_VERSION, memoKey } from '../../src/kb/catalog/catalog.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const CONFIG = '[kb.topic.guide]\ntitle = "Guide"\nsubjects = "guide"\n';
const FIRST = '# First\n\nThe first subject says this.\n';
const SECOND = '# Second\n\nThe second subject says that.\n';

/** A knowledge base of two subjects, its cache, and a live site over them. */
function liveKnowledgeBase(files: Record<string, string> = {}): { dir: string; cache: ReturnType<typeof cacheFolder>; site: LiveSite } {
  const dir = makeTree({ 'kb.toml': CONFIG, 'guide/first.md': FIRST, 'guide/second.md': SECOND, ...files });
  const cache = cacheFolder(path.join(dir, '.syllabus-cache'));
  return { dir, cache, site: openLiveSite({ configFiles: [path.join(dir, 'kb.toml')], cache, cwd: dir }) };
}

/** The memo key of a markdown content, as the catalog computes it. */
function keyOf(content: string): string {
  return memoKey('markdown', createHash('sha256').update(content.trimEnd()).digest('hex'));
}

/** The summaries of the guide's subjects by slug. */
async function summaries(site: LiveSite): Promise<Record<string, string>> {
  const data = await site.site();
  return Object.fromEntries(data.catalog.topics[0]!.subjects.map((s) => [s.slug, s.summary]));
}

describe('the live site', () => {
  it('is read once: a page asking again gets the same read, an edit shows after reread', async () => {
    const { dir, site } = liveKnowledgeBase();
    const first = await site.site();
    fs.writeFileSync(path.join(dir, 'guide/first.md'), '# First\n\nEdited.\n');
    expect(await site.site()).toBe(first);
    const again = await site.reread();
    expect(again).not.toBe(first);
    expect(await site.site()).toBe(again);
    expect(await summaries(site)).toEqual({ first: 'Edited.', second: 'The second subject says that.' });
  });

  it('takes tokens and summaries from the build cache’s memo, computes only new contents, and keeps them there', async () => {
    const { dir, cache, site } = liveKnowledgeBase();
    const stored = { tokens: 7, summary: 'Summary from the memo.', headings: ['First'] };
    fs.mkdirSync(cache.dir, { recursive: true });
    fs.writeFileSync(cache.catalogMemo, JSON.stringify({ version: CATALOG_MEMO_VERSION, entries: { [keyOf(FIRST)]: stored } }));
    expect(await summaries(site)).toEqual({ first: 'Summary from the memo.', second: 'The second subject says that.' });

    const edited = '# Second\n\nThe second subject, edited.\n';
    fs.writeFileSync(path.join(dir, 'guide/second.md'), edited);
    await site.reread();
    expect(await summaries(site)).toEqual({ first: 'Summary from the memo.', second: 'The second subject, edited.' });

    const memo = JSON.parse(fs.readFileSync(cache.catalogMemo, 'utf8')) as { version: string; entries: Record<string, { summary: string }> };
    expect(memo.version).toBe(CATALOG_MEMO_VERSION);
    const [sections, contents] = [true, false].map((section) => Object.entries(memo.entries).filter(([key]) => key.startsWith('section:') === section));
    expect(Object.fromEntries(contents!.map(([key, entry]) => [key, entry.summary]))).toEqual({
      [keyOf(FIRST)]: 'Summary from the memo.',
      [keyOf(SECOND)]: 'The second subject says that.',
      [keyOf(edited)]: 'The second subject, edited.',
    });
    // And the count of the <knowledge> section, which the edit left as it was.
    expect(sections!.map(([, entry]) => entry.summary)).toEqual(['']);
  });

  it('watches the topic folders of a knowledge base with content errors, so that saving the fix reads it again', async () => {
    const { dir, cache, site } = liveKnowledgeBase({ 'guide/first.txt': 'The same slug.\n' });
    await expect(site.site()).rejects.toThrow('the knowledge base has 1 content error; nothing was built.');
    expect(await site.watched()).toEqual([path.join(dir, 'kb.toml'), path.join(dir, 'guide'), cache.sources, cache.llmSummaries]);
  });

  it('serves an unchanged knowledge base without writing the memo again', async () => {
    const { cache, site } = liveKnowledgeBase();
    await site.site();
    const written = fs.statSync(cache.catalogMemo).mtimeMs;
    fs.utimesSync(cache.catalogMemo, new Date(0), new Date(0));
    await site.reread();
    expect(fs.statSync(cache.catalogMemo).mtimeMs).toBe(0);
    expect(written).toBeGreaterThan(0);
  });
});
