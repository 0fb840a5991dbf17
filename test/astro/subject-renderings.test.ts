/** The cache folder of rendered subjects: written whole, read back by digest, pruned to what exists. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneCachedRenderings, readCachedRendering, writeCachedRendering, type SubjectRendering } from '../../src/astro/subject-renderings.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const RENDERING: SubjectRendering = { html: '<p>Hi</p>', metadata: { headings: [{ depth: 2, slug: 'hi', text: 'Hi' }], titleHtml: null } };

describe('cached renderings', () => {
  it('reads back what was written, by digest', () => {
    const dir = path.join(makeTree({}), 'renderings');
    writeCachedRendering(dir, 'abc123', RENDERING);
    expect(readCachedRendering(dir, 'abc123')).toEqual(RENDERING);
    expect(fs.readdirSync(dir)).toEqual(['abc123.json']);
  });

  it('treats a missing, damaged or foreign file as absent, so the subject is rendered again', () => {
    const dir = makeTree({ 'cut.json': '{"html":"<p>', 'other.json': '{"html":1}', 'no-meta.json': '{"html":"x"}' });
    expect(readCachedRendering(dir, 'missing')).toBeUndefined();
    expect(readCachedRendering(dir, 'cut')).toBeUndefined();
    expect(readCachedRendering(dir, 'other')).toBeUndefined();
    expect(readCachedRendering(dir, 'no-meta')).toBeUndefined();
    expect(readCachedRendering(path.join(dir, 'absent-folder'), 'x')).toBeUndefined();
  });

  it('prunes renderings of contents that no longer exist, and what an interrupted write left', () => {
    const dir = makeTree({ 'keep.json': '{}', 'old.json': '{}', 'keep.json.123.tmp': '{' });
    pruneCachedRenderings(dir, new Set(['keep']));
    expect(fs.readdirSync(dir)).toEqual(['keep.json']);
    pruneCachedRenderings(path.join(dir, 'absent-folder'), new Set());
  });
});
