/** Cache files are written whole: a reader sees the old file or the new one, never half of one. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCacheFile } from '../../../src/kb/index.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

describe('writeCacheFile', () => {
  it('creates the folders, replaces the file and leaves no temporary file', () => {
    const dir = makeTree({});
    const file = path.join(dir, 'a', 'b', 'cache.json');
    writeCacheFile(file, '{"one":1}');
    writeCacheFile(file, '{"two":2}');
    expect(fs.readFileSync(file, 'utf8')).toBe('{"two":2}');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['cache.json']);
  });

  it('removes its temporary file and throws when the file cannot be replaced', () => {
    const dir = makeTree({ 'cache.json/inside': 'a folder stands where the file goes' });
    expect(() => writeCacheFile(path.join(dir, 'cache.json'), 'new')).toThrow();
    expect(fs.readdirSync(dir)).toEqual(['cache.json']);
    expect(fs.readdirSync(path.join(dir, 'cache.json'))).toEqual(['inside']);
  });
});
