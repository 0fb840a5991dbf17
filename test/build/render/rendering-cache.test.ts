/** The cache of rendered subjects: packs by subject id, read on first use, written where they changed. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../../src/kb/index.ts';
import { openRenderingCache, RENDERING_PACKS, type SubjectRendering } from '../../../src/build/render/rendering-cache.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const rendering = (text: string): SubjectRendering => ({ html: `<p>${text}</p>`, metadata: { headings: [{ depth: 2, slug: 'hi', text }], titleHtml: null } });
const packOf = (id: string) => `${shardOf(id, RENDERING_PACKS)}.json`;

describe('the rendering cache', () => {
  it('gives back a rendering only for the digest it was made from', () => {
    const dir = path.join(makeTree({}), 'renderings');
    const cache = openRenderingCache(dir);
    cache.set('t/a', { digest: 'd1', rendering: rendering('A') });
    cache.save(new Set(['t/a']), false);
    const again = openRenderingCache(dir);
    expect(again.get('t/a', 'd1')).toEqual(rendering('A'));
    expect(again.get('t/a', 'd2')).toBeUndefined();
    expect(again.get('t/b', 'd1')).toBeUndefined();
    expect(fs.readdirSync(dir)).toEqual([packOf('t/a')]);
  });

  it('writes only the packs that changed', () => {
    const dir = path.join(makeTree({}), 'renderings');
    const ids = Array.from({ length: 200 }, (_, i) => `t/s-${i}`);
    const cache = openRenderingCache(dir);
    for (const id of ids) cache.set(id, { digest: 'd', rendering: rendering(id) });
    cache.save(new Set(ids), true);
    const before = new Map(fs.readdirSync(dir).map((name) => [name, fs.statSync(path.join(dir, name)).mtimeMs]));
    expect(before.size).toBe(RENDERING_PACKS);
    const next = openRenderingCache(dir);
    expect(next.get('t/s-7', 'd')).toEqual(rendering('t/s-7'));
    next.set('t/s-7', { digest: 'e', rendering: rendering('new') });
    fs.utimesSync(path.join(dir, packOf('t/s-7')), 0, 0);
    next.save(new Set(ids), false);
    const changed = fs.readdirSync(dir).filter((name) => fs.statSync(path.join(dir, name)).mtimeMs !== before.get(name));
    expect(changed).toEqual([packOf('t/s-7')]);
    expect(openRenderingCache(dir).get('t/s-7', 'e')).toEqual(rendering('new'));
  });

  it('drops subjects that are gone: from the packs it read, or from every pack in a full build', () => {
    const dir = path.join(makeTree({}), 'renderings');
    const cache = openRenderingCache(dir);
    cache.set('t/keep', { digest: 'd', rendering: rendering('keep') });
    cache.set('t/gone', { digest: 'd', rendering: rendering('gone') });
    cache.save(new Set(['t/keep', 't/gone']), false);
    openRenderingCache(dir).save(new Set(['t/keep']), true);
    const after = openRenderingCache(dir);
    expect(after.get('t/gone', 'd')).toBeUndefined();
    expect(after.get('t/keep', 'd')).toEqual(rendering('keep'));
  });

  it('treats a damaged or older pack as empty, so its subjects are rendered again', () => {
    const dir = makeTree({
      [packOf('t/a')]: '{"version":1,"entries":{"t/a":',
      [packOf('t/b')]: JSON.stringify({ version: 0, entries: { 't/b': { digest: 'd', rendering: rendering('B') } } }),
    });
    const cache = openRenderingCache(dir);
    expect(cache.get('t/a', 'd')).toBeUndefined();
    expect(cache.get('t/b', 'd')).toBeUndefined();
  });
});
