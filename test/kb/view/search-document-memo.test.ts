/**
 * The memo of search documents: `/kb/keywords.json` is the same with it and without it, a subject
 * whose inputs did not change is taken from it, and a changed one is counted again. On disk it is
 * read only by the code that wrote it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/kb/index.ts';
import { buildKeywordsFile } from '../../../src/kb/publish/endpoints.ts';
import { encodedSearchDocumentOfSubject } from '../../../src/kb/view/search-terms.ts';
import { openSearchDocumentMemo } from '../../../src/build/search-terms-memo.ts';
import { makeTree } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { recordingMemo } from '../../helpers/recording-memo.ts';

const TOML = '[kb.topic.t]\nsubjects = "t"\n';
const FILES = {
  't/tar.md': '# tar\n\nArchiving utility.\n\n## Create\n\n- Create an archive: `tar cf target.tar file1 file2`\n- Extract an archive: `tar xf source.tar`\n',
  't/notes.txt': 'Plain notes about archives and archiving.\n',
  't/big.bin': Buffer.from([0, 1, 2, 3]),
};

describe('search documents with a memo', () => {
  it('make the same keywords file as without one, first counted and then from the memo', async () => {
    const { catalog } = await buildCatalog(openTree(TOML, FILES).kb);
    const memo = recordingMemo<string>();
    const plain = buildKeywordsFile(catalog);
    expect(buildKeywordsFile(catalog, memo)).toEqual(plain);
    expect(memo.entries.size).toBe(3);
    expect(buildKeywordsFile(catalog, memo)).toEqual(plain);
    expect(memo.gets).toHaveLength(6);
  });

  it('take a subject whose inputs did not change from the memo, and count a changed one again', async () => {
    const { catalog } = await buildCatalog(openTree(TOML, FILES).kb);
    const tar = catalog.topics[0]!.subjects.find((s) => s.slug === 'tar')!;
    const memo = recordingMemo<string>();
    encodedSearchDocumentOfSubject(tar, memo);
    const [key] = memo.entries.keys();
    // What the memo holds is what is given: a planted entry shows that it is read.
    memo.entries.set(key!, '1,2,0,0,3\ntar\ntar\n\n\narchiv:2 creat');
    expect(encodedSearchDocumentOfSubject(tar, memo)).toEqual({ lengths: [1, 2, 0, 0, 3], terms: ['tar', 'tar', '', '', 'archiv:2 creat'] });
    // Another summary is another document.
    const edited = { ...tar, summary: 'Unpacking utility.' };
    expect(encodedSearchDocumentOfSubject(edited, memo)).toEqual(encodedSearchDocumentOfSubject(edited));
    expect(encodedSearchDocumentOfSubject(edited, memo).terms[2]).toBe('unpack util');
  });
});

describe('the memo on disk', () => {
  it('keeps the entries a build used, for the code that wrote them only', () => {
    const file = path.join(makeTree({}), 'search-terms.json');
    const memo = openSearchDocumentMemo(file, 'code-1');
    memo.set('a', '1\nx');
    memo.save();
    const again = openSearchDocumentMemo(file, 'code-1');
    expect(again.get('a')).toBe('1\nx');
    again.set('b', '2\ny');
    again.save();
    // Only what the last build used stays.
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ version: 'code-1', entries: { b: '2\ny' } });
    expect(openSearchDocumentMemo(file, 'code-2').get('b')).toBeUndefined();
    // Saved, a memo forgets its entries and takes no more: nothing holds them through the pages.
    expect(again.get('b')).toBeUndefined();
    again.set('c', '3\nz');
    again.save();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).entries).toEqual({ b: '2\ny' });
    fs.writeFileSync(file, '{"version": "code-1", "entr');
    expect(openSearchDocumentMemo(file, 'code-1').get('b')).toBeUndefined();
  });

  it('is not written again when the build used exactly what it held', () => {
    const file = path.join(makeTree({}), 'search-terms.json');
    const memo = openSearchDocumentMemo(file, 'code-1');
    memo.set('a', '1\nx');
    memo.save();
    fs.utimesSync(file, new Date(0), new Date(0));
    const again = openSearchDocumentMemo(file, 'code-1');
    again.set('a', again.get('a')!);
    again.save();
    expect(fs.statSync(file).mtimeMs).toBe(0);
  });
});
