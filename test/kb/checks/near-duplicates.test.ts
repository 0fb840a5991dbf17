/**
 * Near-duplicate subjects (`check`, content/reference/cli/check.md): word sets as the keyword
 * rules make them, Jaccard similarity over 0.8, and a finder that returns exactly the pairs a comparison of
 * every pair returns, without making those comparisons.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, checkNearDuplicates } from '../../../src/kb/index.ts';
import { wordSetOf } from '../../../src/kb/summaries/keywords.ts';
import { isLicenseLike, wordSetKey } from '../../../src/kb/checks/near-duplicates.ts';
import { findNearDuplicates, type NearDuplicatePair } from '../../../src/kb/summaries/similarity.ts';
import { openTree } from '../../helpers/open-tree.ts';

/** The finder's contract, spelled out: every pair compared. */
function naiveNearDuplicates(sets: readonly (readonly string[])[]): NearDuplicatePair[] {
  const pairs: NearDuplicatePair[] = [];
  const lookups = sets.map((set) => new Set(set));
  for (let first = 0; first < sets.length; first++) {
    const a = lookups[first]!;
    for (let second = first + 1; second < sets.length; second++) {
      let shared = 0;
      for (const word of sets[second]!) if (a.has(word)) shared++;
      const union = a.size + sets[second]!.length - shared;
      if (union > 0 && shared / union > 0.8) pairs.push({ first, second, shared, union });
    }
  }
  return pairs;
}

/** `count` distinct words `w0`, `w1`, …, starting at `from`. */
const words = (count: number, from = 0): string[] => Array.from({ length: count }, (_, i) => `w${from + i}`);

describe('wordSetOf', () => {
  it('lower-cases, deletes punctuation, drops stop words and words of 1 or 2 characters, keeps each word once in first-seen order', () => {
    expect(wordSetOf("# The Glob Dialect\n\nDon't use `ast-grep`: it's *fast*; globs, GLOBS and Globs — 42 or 2024? Über-ÉLAN au café. A to of is.")).toEqual([
      'glob',
      'dialect',
      'use',
      'astgrep',
      'fast',
      'globs',
      '2024',
      'überélan',
      'café',
    ]);
  });

  it('gives a text with no word an empty set', () => {
    expect(wordSetOf('')).toEqual([]);
    expect(wordSetOf('## --- | a | b | of the |\n')).toEqual([]);
  });
});

describe('findNearDuplicates', () => {
  it('reports similarity over 0.8, not 0.8 itself', () => {
    // 4 shared of 5 = 0.8 exactly; 9 shared of 10 = 0.9; 5 shared of 6 ≈ 0.83.
    const sets = [words(4), words(5), words(9, 100), words(10, 100), words(5, 200), words(6, 200)];
    expect(findNearDuplicates(sets)).toEqual([
      { first: 2, second: 3, shared: 9, union: 10 },
      { first: 4, second: 5, shared: 5, union: 6 },
    ]);
  });

  it('finds pairs whatever the order of the sets and of the words in them, each pair once with the lower index first', () => {
    const base = words(20);
    const sets = [words(3, 500), [...base].reverse(), words(7, 600), [...base.slice(1), 'other'], base];
    expect(findNearDuplicates(sets)).toEqual([
      { first: 1, second: 3, shared: 19, union: 21 },
      { first: 1, second: 4, shared: 20, union: 20 },
      { first: 3, second: 4, shared: 19, union: 21 },
    ]);
  });

  it('never pairs empty sets, and pairs equal one-word sets', () => {
    expect(findNearDuplicates([[], [], ['solo'], ['solo'], ['other']])).toEqual([{ first: 2, second: 3, shared: 1, union: 1 }]);
  });

  it('returns exactly the pairs of the naive finder on random sets (property)', () => {
    // Small vocabularies and mutated copies make near-duplicates common, and sizes close to the filters' bounds.
    const set = fc.uniqueArray(
      fc.integer({ min: 0, max: 30 }).map((n) => `w${n}`),
      { maxLength: 24 },
    );
    const sets = fc
      .tuple(fc.array(set, { minLength: 1, maxLength: 12 }), fc.array(fc.tuple(fc.nat(), fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 3 })), { maxLength: 12 }))
      .map(([originals, copies]) => [
        ...originals,
        ...copies.map(([of, edits]) => {
          const copy = new Set(originals[of % originals.length]);
          for (const edit of edits) {
            const word = `w${edit}`;
            if (copy.has(word)) copy.delete(word);
            else copy.add(word);
          }
          return [...copy];
        }),
      ]);
    fc.assert(
      fc.property(sets, (input) => {
        expect(findNearDuplicates(input)).toEqual(naiveNearDuplicates(input));
      }),
      { numRuns: 500 },
    );
  });

  it('returns exactly the pairs of the naive finder on 2,000 sets with planted near-duplicates (scale)', () => {
    let state = 7;
    const next = (): number => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 4294967296;
    };
    const sets: string[][] = [];
    for (let i = 0; i < 2000; i++) {
      const size = 1 + Math.floor(next() * 60);
      const set = new Set<string>();
      // A skewed vocabulary: low word numbers are common to many sets.
      while (set.size < size) set.add(`w${Math.floor(next() ** 3 * 2000)}`);
      sets.push([...set]);
    }
    for (let i = 0; i < 100; i++) {
      const copy = new Set(sets[Math.floor(next() * sets.length)]);
      const changes = Math.floor(next() * 4);
      for (let c = 0; c < changes; c++) copy.add(`planted${i}-${c}`);
      sets.push([...copy]);
    }
    const expected = naiveNearDuplicates(sets);
    expect(expected.length).toBeGreaterThan(80);
    expect(findNearDuplicates(sets)).toEqual(expected);
  });
});

describe('isLicenseLike', () => {
  it('takes license, notice and copying files in any case, with or without an extension or suffix', () => {
    const names = [
      'LICENSE',
      'LICENSE.txt',
      'license.md',
      'Licence',
      'UNLICENSE',
      'COPYING',
      'COPYING.LESSER',
      'NOTICE',
      'LICENSE-MIT',
      'license_apache.txt',
      'COPYRIGHT',
      'PATENTS',
    ];
    expect(names.filter((name) => !isLicenseLike(name))).toEqual([]);
  });

  it('leaves other names alone, even when they hold one', () => {
    expect(['licenses.md', 'licensing.md', 'noticeboard.md', 'my-license.txt', 'third-party.md', 'copy.md'].filter(isLicenseLike)).toEqual([]);
  });
});

describe('checkNearDuplicates', () => {
  const text = 'Deploys go out from the main branch every Tuesday after the release review; hotfixes skip the queue when the on-call engineer approves them.';
  const warning = (root: string, first: string, message: string) => ({ kind: 'warning', code: 'near-duplicate', message, file: path.join(root, first), line: 1 });

  it('warns once per pair that no other subject joins, across topics and formats, on the first file, naming both', async () => {
    const { root, kb } = openTree('[kb.topic.ops]\nsubjects = "ops"\n\n[kb.topic.team]\nsubjects = "team"\ndisabled = ["old"]\n', {
      'ops/deploys.md': `# Deploys\n\n${text}\n`,
      'ops/other.md': '# Other\n\nSomething else entirely.\n',
      'team/release.txt': `Deploys. ${text.toUpperCase()}\n`,
      'team/old.md': `# Deploys\n\n${text}\n`,
      'team/a.png': new Uint8Array([0, 1, 2]),
      'team/b.png': new Uint8Array([0, 1, 2]),
    });
    const { catalog } = await buildCatalog(kb);
    expect(checkNearDuplicates(catalog, root)).toEqual([
      // deploys main branch every tuesday release review hotfixes skip queue oncall engineer approves
      warning(
        root,
        'ops/deploys.md',
        'ops/deploys.md and team/release.txt are near-duplicates: they share 13 of the 13 words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.',
      ),
    ]);
  });

  it('warns once per group of pairs joined by a shared subject, naming all of a small group in order', async () => {
    const { root, kb } = openTree('[kb.topic.ops]\nsubjects = "ops"\n\n[kb.topic.team]\nsubjects = "team"\n', {
      'ops/deploys.md': `# Deploys\n\n${text}\n`,
      'ops/.deploys-copy.md': `# Deploys\n\n${text} Ask first.\n`,
      'team/release.txt': `Deploys. ${text.toUpperCase()}\n`,
      'team/zebra.md': '# Zebras\n\nZebras graze the savanna in herds, striped black and white, watched by lions at dusk.\n',
      'ops/zebras.md': '# Zebras\n\nZebras graze the savanna in herds, striped black and white, watched by lions at dusk!\n',
    });
    const { catalog } = await buildCatalog(kb);
    expect(checkNearDuplicates(catalog, root)).toEqual([
      warning(
        root,
        'ops/deploys.md',
        '3 subjects are near-duplicates, each of at least one other (Jaccard similarity over 0.8): ops/deploys.md, ops/.deploys-copy.md and team/release.txt. Merge them, or make each say what the others do not.',
      ),
      warning(
        root,
        'ops/zebras.md',
        'ops/zebras.md and team/zebra.md are near-duplicates: they share 10 of the 10 words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.',
      ),
    ]);
  });

  it('names the first four members of a large group, then how many more', async () => {
    const files = Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`ops/copy-${i}.md`, `# Deploys\n\n${text}\n`]));
    const { root, kb } = openTree('[kb.topic.ops]\nsubjects = "ops"\n', files);
    const { catalog } = await buildCatalog(kb);
    expect(checkNearDuplicates(catalog, root)).toEqual([
      warning(
        root,
        'ops/copy-0.md',
        '7 subjects are near-duplicates, each of at least one other (Jaccard similarity over 0.8): ops/copy-0.md, ops/copy-1.md, ops/copy-2.md, ops/copy-3.md and 3 more. Merge them, or make each say what the others do not.',
      ),
    ]);
  });

  it('leaves out license-like files, one file reached under two topics or through a symlink, and code unless asked', async () => {
    const license = `MIT License. ${text}`;
    const script = `#!/bin/sh\n# ${text}\necho deploy\n`;
    const { root, kb } = openTree('[kb.topic.skills]\nsubjects = "skills"\n\n[kb.topic.pdf]\nsubjects = "skills/pdf"\n', {
      'skills/pdf/LICENSE.txt': license,
      'skills/docx/LICENSE.txt': license,
      'skills/docx/license': license,
      'skills/pdf/guide.md': `# Guide\n\n${text}\n`,
      'skills/pdf/same-guide.md': { symlink: 'guide.md' },
      'skills/pdf/deploy.sh': script,
      'skills/docx/deploy.sh': script,
    });
    const { catalog } = await buildCatalog(kb);
    expect(checkNearDuplicates(catalog, root)).toEqual([]);
    expect(checkNearDuplicates(catalog, root, { code: true })).toEqual([
      warning(
        root,
        'skills/docx/deploy.sh',
        'skills/docx/deploy.sh and skills/pdf/deploy.sh are near-duplicates: they share 16 of the 16 words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.',
      ),
    ]);
  });

  it('takes the word sets a memo holds, by content, and sets every set it uses in it', async () => {
    const { root, kb } = openTree('[kb.topic.ops]\nsubjects = "ops"\n', {
      'ops/deploys.md': `# Deploys\n\n${text}\n`,
      'ops/release.txt': `Deploys. ${text}\n`,
      'ops/other.md': '# Other\n\nSomething else entirely.\n',
    });
    const { catalog } = await buildCatalog(kb);
    const held = new Map<string, readonly string[]>();
    const memo = { get: (key: string) => held.get(key), set: (key: string, words: readonly string[]) => void held.set(key, words) };
    const plain = checkNearDuplicates(catalog, root);
    expect(plain).toHaveLength(1);
    expect(checkNearDuplicates(catalog, root, { wordSets: memo })).toEqual(plain);
    const [deploys, other, release] = catalog.topics[0]!.subjects;
    expect([...held.keys()].sort()).toEqual([deploys, other, release].map((s) => wordSetKey(s!)).sort());
    expect(held.get(wordSetKey(other!))).toEqual(['something', 'else', 'entirely']);
    // A held set is what is compared: other.md, given deploys.md's words, joins the pair.
    held.set(wordSetKey(other!), held.get(wordSetKey(deploys!))!);
    expect(checkNearDuplicates(catalog, root, { wordSets: memo })[0]!.message).toMatch(/^3 subjects are near-duplicates/);
  });
});
