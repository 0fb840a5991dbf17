/**
 * The checks' outlines kept in the build cache (content/reference/decisions.md, "The checks'
 * markdown outlines kept"): read back as saved, for the code that saved them only, and an entry
 * of another shape (a damaged or edited file) is dropped, so that the check parses its subject again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openContentCheckMemos } from '../../src/build/stored-memo.ts';
import type { MarkdownOutline } from '../../src/kb/checks/markdown-facts.ts';
import { makeTree } from '../helpers/temp-tree.ts';

/** The outlines memo of the cache file `file`, for the code of key `codeKey`. */
const openOutlineMemo = (file: string, codeKey: string) => openContentCheckMemos({ wordSets: path.join(path.dirname(file), 'word-sets.json'), outlines: file }, codeKey).outlines;

const OUTLINE: MarkdownOutline = {
  links: [
    { kind: 'link', url: 'concepts/slugs.md', line: 3, column: 1 },
    { kind: 'definition', url: 'gone.md', line: 9, column: 1 },
  ],
  codes: [{ value: 'guide/slugs', line: 5, column: 7 }],
  headings: [{ depth: 1, line: 1, column: 1 }],
};

describe('the outlines memo', () => {
  it('reads back what a run saved, for the same code only', () => {
    const file = path.join(makeTree({}), 'outlines.json');
    const memo = openOutlineMemo(file, 'code-a');
    expect(memo.get('a'.repeat(64))).toBeUndefined();
    memo.set('a'.repeat(64), OUTLINE);
    memo.save();

    expect(openOutlineMemo(file, 'code-a').get('a'.repeat(64))).toEqual(OUTLINE);
    expect(openOutlineMemo(file, 'code-b').get('a'.repeat(64))).toBeUndefined();
  });

  it('drops entries that are not outlines', () => {
    const file = path.join(makeTree({}), 'outlines.json');
    const entries = {
      good: OUTLINE,
      notAnObject: 'links',
      missingCodes: { links: [], headings: [] },
      badKind: { ...OUTLINE, links: [{ kind: 'script', url: 'x', line: 1, column: 1 }] },
      badLine: { ...OUTLINE, codes: [{ value: 'x', line: '1', column: 1 }] },
      badDepth: { ...OUTLINE, headings: [{ depth: 1.5, line: 1, column: 1 }] },
      nullLink: { ...OUTLINE, links: [null] },
    };
    fs.writeFileSync(file, JSON.stringify({ version: 'code', entries }));
    const memo = openOutlineMemo(file, 'code');
    expect(Object.keys(entries).filter((key) => memo.get(key) !== undefined)).toEqual(['good']);
  });
});
