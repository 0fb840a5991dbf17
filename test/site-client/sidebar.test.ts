/** The sidebar's tree walking (src/site-client/sidebar.ts), without a browser: the rows shown, the folders of a subject, and when a kept tree is stale. */
import { describe, expect, it } from 'vitest';
import { buildNavEntries } from '../../src/kb/publish/topic-nav.ts';
import { agreesWithPage, findSubject, folderPathsOf, indexNav, visibleRows, type NavEntry } from '../../src/site-client/sidebar.ts';

const entries: NavEntry[] = buildNavEntries(['a/b/c', 'a/b/d', 'a/e', 'f', 'g/h'].map((slug) => ({ slug, address: slug, title: slug.toUpperCase() })));
const index = indexNav(entries);
const labels = (rows: number[]) => rows.map((i) => entries[i]!.folder ?? entries[i]!.address);

describe('indexNav', () => {
  it('finds where each folder ends, each entry’s folder, and its place among its siblings', () => {
    // Entries: 0 a/, 1 a/b/, 2 a/b/c, 3 a/b/d, 4 a/e, 5 f, 6 g/, 7 g/h
    expect([...index.end]).toEqual([5, 4, 3, 4, 5, 6, 8, 8]);
    expect([...index.parent]).toEqual([-1, 0, 1, 1, 0, -1, -1, 6]);
    expect([...index.position]).toEqual([1, 1, 1, 2, 2, 2, 3, 1]);
    expect([...index.size]).toEqual([3, 2, 2, 2, 2, 3, 3, 1]);
    expect(index.paths).toEqual(['a', 'a/b', '', '', '', '', 'g', '']);
  });
});

describe('visibleRows', () => {
  it('shows the top level when every folder is closed, and what open folders hold', () => {
    expect(labels(visibleRows(index, new Set()))).toEqual(['a', 'f', 'g']);
    expect(labels(visibleRows(index, new Set(['a'])))).toEqual(['a', 'b', 'a/e', 'f', 'g']);
    expect(labels(visibleRows(index, new Set(['a', 'a/b', 'g'])))).toEqual(['a', 'b', 'a/b/c', 'a/b/d', 'a/e', 'f', 'g', 'g/h']);
  });

  it('hides what an open folder holds inside a closed one', () => {
    expect(labels(visibleRows(index, new Set(['a/b'])))).toEqual(['a', 'f', 'g']);
  });

  it('walks a topic of 5,000 subjects in 50 folders', () => {
    const big = buildNavEntries(
      Array.from({ length: 5000 }, (_, i) => {
        const slug = `f${String(i % 50).padStart(2, '0')}/s${String(i).padStart(4, '0')}`;
        return { slug, address: slug, title: slug };
      }).sort((x, y) => (x.slug < y.slug ? -1 : 1)),
    );
    const bigIndex = indexNav(big);
    expect(visibleRows(bigIndex, new Set())).toHaveLength(50);
    expect(visibleRows(bigIndex, new Set(['f07']))).toHaveLength(150);
    const at = findSubject(bigIndex, 'f49/s4999');
    expect(folderPathsOf(bigIndex, at)).toEqual(['f49']);
  });
});

describe('folderPathsOf and findSubject', () => {
  it('names the folders that hold a subject, outermost first', () => {
    expect(folderPathsOf(index, findSubject(index, 'a/b/d'))).toEqual(['a', 'a/b']);
    expect(folderPathsOf(index, findSubject(index, 'f'))).toEqual([]);
    expect(findSubject(index, 'nope')).toBe(-1);
  });
});

describe('agreesWithPage', () => {
  it('accepts a tree in which the page has its title and its previous and next subjects', () => {
    expect(agreesWithPage(index, { address: 'a/e', title: 'A/E', previous: 'a/b/d', next: 'f' })).toBe(true);
    expect(agreesWithPage(index, { address: 'a/b/c', title: 'A/B/C', previous: null, next: 'a/b/d' })).toBe(true);
    expect(agreesWithPage(index, { address: 'g/h', title: 'G/H', previous: 'f', next: null })).toBe(true);
  });

  it('refuses a tree from another build: the page missing, renamed, or with other neighbours', () => {
    expect(agreesWithPage(index, { address: 'new', title: 'NEW', previous: 'f', next: null })).toBe(false);
    expect(agreesWithPage(index, { address: 'a/e', title: 'Renamed', previous: 'a/b/d', next: 'f' })).toBe(false);
    expect(agreesWithPage(index, { address: 'a/e', title: 'A/E', previous: 'a/b/d', next: 'added' })).toBe(false);
  });
});
