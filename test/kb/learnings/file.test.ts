/** Store files on disk: reading them (missing, a folder, a BOM, not a store). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLearningsFile } from '../../../src/kb/index.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const OLD = '{"version": "1.0", "learnings": []}\n';

describe('readLearningsFile', () => {
  it('reads a store, dropping a BOM', () => {
    const dir = makeTree({ 'k.json': `\uFEFF${OLD}` });
    expect(readLearningsFile(path.join(dir, 'k.json'))).toEqual({ ok: true, store: { envelope: { version: '1.0', learnings: [] }, entries: [] } });
  });

  it('says when the file is missing or a folder', () => {
    const dir = makeTree({ 'folder.json/a': 'x' });
    expect(readLearningsFile(path.join(dir, 'none.json'))).toEqual({ ok: false, missing: true, problem: 'does not exist', fix: 'Check the path.' });
    expect(readLearningsFile(path.join(dir, 'folder.json'))).toEqual({ ok: false, missing: false, problem: 'is a folder, not a file', fix: 'Name the JSON file of the store.' });
  });

  it('passes on why the text is not a store', () => {
    const dir = makeTree({ 'k.json': '{"learnings": 1}' });
    expect(readLearningsFile(path.join(dir, 'k.json'))).toEqual({
      ok: false,
      missing: false,
      problem: 'has a "learnings" that is 1, not an array',
      fix: 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.',
    });
  });
});
