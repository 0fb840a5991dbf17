/**
 * Replacing a file whole (src/kb/files/atomic-write.ts): a failure at any step before the rename
 * leaves the old file intact and no temporary file behind.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomically } from '../../../src/kb/index.ts';
import { type AtomicWriteOps } from '../../../src/kb/files/atomic-write.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const OLD = '{"version": "1.0", "learnings": []}\n';
const NEW = '{\n  "version": "1.0",\n  "learnings": ["é"]\n}\n';

const realOps: AtomicWriteOps = {
  openSync: fs.openSync,
  writeSync: (fd, data, offset) => fs.writeSync(fd, data, offset),
  fsyncSync: fs.fsyncSync,
  closeSync: fs.closeSync,
  renameSync: fs.renameSync,
  rmSync: fs.rmSync,
};

describe('writeFileAtomically', () => {
  it('replaces the file, keeps its permissions, and leaves nothing else in the folder', () => {
    const dir = makeTree({ 'knowledge.json': OLD });
    const file = path.join(dir, 'knowledge.json');
    fs.chmodSync(file, 0o640);
    writeFileAtomically(file, NEW);
    expect(fs.readFileSync(file, 'utf8')).toBe(NEW);
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json']);
  });

  it('creates a file that does not exist yet', () => {
    const dir = makeTree({});
    writeFileAtomically(path.join(dir, 'new.json'), NEW);
    expect(fs.readFileSync(path.join(dir, 'new.json'), 'utf8')).toBe(NEW);
    expect(fs.readdirSync(dir)).toEqual(['new.json']);
  });

  it('writes every byte when the system writes a few at a time', () => {
    const dir = makeTree({ 'knowledge.json': OLD });
    const file = path.join(dir, 'knowledge.json');
    writeFileAtomically(file, NEW, { ops: { ...realOps, writeSync: (fd, data, offset) => fs.writeSync(fd, data, offset, Math.min(3, data.length - offset)) } });
    expect(fs.readFileSync(file, 'utf8')).toBe(NEW);
  });

  it.each([
    [
      'the rename',
      {
        renameSync: () => {
          throw Object.assign(new Error('simulated crash before rename'), { code: 'EIO' });
        },
      },
    ],
    [
      'the flush',
      {
        fsyncSync: () => {
          throw Object.assign(new Error('simulated crash before rename'), { code: 'EIO' });
        },
      },
    ],
    [
      'a write',
      {
        writeSync: () => {
          throw Object.assign(new Error('simulated crash before rename'), { code: 'ENOSPC' });
        },
      },
    ],
  ] satisfies [string, Partial<AtomicWriteOps>][])('leaves the old file intact when %s fails, and removes the temporary file', (_, failing) => {
    const dir = makeTree({ 'knowledge.json': OLD });
    const file = path.join(dir, 'knowledge.json');
    let temporary: string | undefined;
    const ops: AtomicWriteOps = {
      ...realOps,
      openSync: (target, flags, mode) => {
        temporary = String(target);
        return fs.openSync(target, flags, mode);
      },
      ...failing,
    };
    expect(() => writeFileAtomically(file, NEW, { ops })).toThrow('simulated crash before rename');
    expect(fs.readFileSync(file, 'utf8')).toBe(OLD);
    expect(path.dirname(temporary!)).toBe(dir);
    expect(path.basename(temporary!)).toMatch(/^\.knowledge\.json\.\d+\.[0-9a-z]+\.tmp$/);
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json']);
  });

  it('throws, changing nothing, when the folder does not exist', () => {
    const dir = makeTree({});
    expect(() => writeFileAtomically(path.join(dir, 'missing', 'k.json'), NEW)).toThrow(/ENOENT/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('without flushing, replaces the file without flushing it or its folder', () => {
    const dir = makeTree({ 'cache.json': OLD });
    const file = path.join(dir, 'cache.json');
    const flushed: number[] = [];
    writeFileAtomically(file, NEW, { flush: false, ops: { ...realOps, fsyncSync: (fd) => flushed.push(fd) } });
    expect(fs.readFileSync(file, 'utf8')).toBe(NEW);
    expect(flushed).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['cache.json']);
  });
});
