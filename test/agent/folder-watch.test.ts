/** `watchFolders`: a change anywhere below a watched folder, or to a watched file, is reported. */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { watchFolders, type FolderWatch } from '../../src/agent/folder-watch.ts';
import { makeTree } from '../helpers/temp-tree.ts';

let watch: FolderWatch | undefined;
afterEach(() => {
  watch?.close();
  watch = undefined;
});

/** Change reports, and a way to wait for the one an action causes. */
function changes() {
  let last = 0;
  let waiting: (() => void)[] = [];
  return {
    onChange: () => {
      last = Date.now();
      for (const resolve of waiting.splice(0)) resolve();
    },
    /** Waits until reports of earlier actions have stopped coming. */
    async quiet(): Promise<void> {
      while (Date.now() - last < 100) await new Promise((resolve) => setTimeout(resolve, 25));
    },
    /**
     * Waits until reports of earlier actions have stopped coming (so that none is taken for this
     * one), runs `act`, and waits for a report (the test's timeout is the deadline).
     */
    async after(act: () => void): Promise<void> {
      await this.quiet();
      const reported = new Promise<void>((resolve) => waiting.push(resolve));
      act();
      await reported;
    },
  };
}

describe('watchFolders', { timeout: 10_000 }, () => {
  it('reports edits, additions, deletions and atomic saves at any depth, every time', async () => {
    const dir = makeTree({ 'topic/a.md': 'a', 'topic/deep/er/b.md': 'b' });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    watch.update({ trees: [path.join(dir, 'topic')], files: [] });

    await seen.after(() => fs.writeFileSync(path.join(dir, 'topic/a.md'), 'a2'));
    await seen.after(() => fs.writeFileSync(path.join(dir, 'topic/deep/er/b.md'), 'b2'));
    await seen.after(() => fs.writeFileSync(path.join(dir, 'topic/deep/c.md'), 'c'));
    await seen.after(() => fs.rmSync(path.join(dir, 'topic/deep/c.md')));
    for (const round of [1, 2, 3]) {
      await seen.after(() => {
        fs.writeFileSync(path.join(dir, 'topic/deep/er/b.tmp'), `b, round ${round}`);
        fs.renameSync(path.join(dir, 'topic/deep/er/b.tmp'), path.join(dir, 'topic/deep/er/b.md'));
      });
    }
  });

  it('watches a folder created since, once updated', async () => {
    const dir = makeTree({ 'topic/a.md': 'a' });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    const targets = { trees: [path.join(dir, 'topic')], files: [] };
    watch.update(targets);
    await seen.after(() => fs.mkdirSync(path.join(dir, 'topic/new')));
    watch.update(targets);
    await seen.after(() => fs.writeFileSync(path.join(dir, 'topic/new/x.md'), 'x'));
  });

  it('watches a missing folder through its parent, and then the folder itself', async () => {
    const dir = makeTree({ 'kb.toml': '' });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    const targets = { trees: [path.join(dir, 'later/topic')], files: [] };
    watch.update(targets);
    await seen.after(() => fs.mkdirSync(path.join(dir, 'later')));
    watch.update(targets);
    await seen.after(() => fs.mkdirSync(path.join(dir, 'later/topic')));
    watch.update(targets);
    await seen.after(() => fs.writeFileSync(path.join(dir, 'later/topic/a.md'), 'a'));
  });

  it('watches a file through its folder: a replaced file is seen again and again', async () => {
    const dir = makeTree({ 'kb.toml': 'a = 1\n' });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    watch.update({ trees: [], files: [path.join(dir, 'kb.toml')] });
    await seen.after(() => fs.writeFileSync(path.join(dir, 'kb.toml'), 'a = 2\n'));
    for (const round of [3, 4]) {
      await seen.after(() => {
        fs.writeFileSync(path.join(dir, 'kb.toml.new'), `a = ${round}\n`);
        fs.renameSync(path.join(dir, 'kb.toml.new'), path.join(dir, 'kb.toml'));
      });
    }
  });

  it('follows a symlinked folder and survives a symlink loop', async () => {
    const dir = makeTree({
      'shared/s.md': 's',
      'topic/a.md': 'a',
      'topic/linked': { symlink: '../shared' },
      'topic/loop': { symlink: '.' },
    });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    watch.update({ trees: [path.join(dir, 'topic')], files: [] });
    await seen.after(() => fs.writeFileSync(path.join(dir, 'shared/s.md'), 's2'));
  });

  it('replaces the watcher of a folder deleted and created again (maybe with the same inode)', async () => {
    const dir = makeTree({ 'topic/a.md': 'a' });
    const seen = changes();
    watch = watchFolders(seen.onChange);
    const targets = { trees: [path.join(dir, 'topic')], files: [] };
    watch.update(targets);
    await seen.after(() => fs.rmSync(path.join(dir, 'topic'), { recursive: true }));
    fs.mkdirSync(path.join(dir, 'topic'));
    // As the source does: the reports make the next request update the watchers.
    await seen.quiet();
    watch.update(targets);
    await seen.after(() => fs.writeFileSync(path.join(dir, 'topic/b.md'), 'b'));
  });
});
