/**
 * `watchFolders`: a change anywhere below a watched folder, or to a watched file, is reported with
 * its path, every time; a change anywhere else is never reported. Every wait is for a report (the
 * test's timeout is the only deadline); a change that must not be reported is made before one
 * that must, and the paths reported by then are checked. As the knowledge source does, the
 * watchers are updated after a report, before the next change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFolders, type FolderWatch, type WatchTargets } from '../../src/agent/folder-watch.ts';
import { makeTree } from '../helpers/temp-tree.ts';

let watch: FolderWatch | undefined;
afterEach(() => {
  watch?.close();
  watch = undefined;
});

/** Starts watching `targets` and returns the paths reported, and a way to wait for one. */
function watching(targets: WatchTargets) {
  const reported: string[] = [];
  let waiting: { file: string; resolve: () => void }[] = [];
  watch = watchFolders((file) => {
    reported.push(file);
    waiting = waiting.filter((wait) => (wait.file === file ? (wait.resolve(), false) : true));
  });
  watch.update(targets);
  return {
    reported,
    /** Runs `act`, waits until `file` (absolute) is reported, then updates the watchers. */
    async after(act: () => void, file: string): Promise<void> {
      const seen = new Promise<void>((resolve) => waiting.push({ file, resolve }));
      act();
      await seen;
      watch!.update(targets);
    },
  };
}

/** Replaces `file` as editors save: a temporary file beside it, renamed over it. */
function saveAtomically(file: string, text: string, temporary = `${file}.tmp`): void {
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

describe('watchFolders', { timeout: 10_000 }, () => {
  it('reports edits, additions, deletions and atomic saves at any depth, every time, and nothing outside the folder', async () => {
    const dir = makeTree({ 'topic/a.md': 'a', 'topic/deep/er/b.md': 'b', 'other/c.md': 'c', 'beside.md': 'x' });
    const topic = path.join(dir, 'topic');
    const seen = watching({ trees: [topic], files: [] });

    fs.writeFileSync(path.join(dir, 'other/c.md'), 'c2');
    fs.writeFileSync(path.join(dir, 'beside.md'), 'x2');
    await seen.after(() => fs.writeFileSync(path.join(topic, 'a.md'), 'a2'), path.join(topic, 'a.md'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'deep/er/b.md'), 'b2'), path.join(topic, 'deep/er/b.md'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'deep/c.md'), 'c'), path.join(topic, 'deep/c.md'));
    await seen.after(() => fs.rmSync(path.join(topic, 'deep/c.md')), path.join(topic, 'deep/c.md'));
    await seen.after(() => fs.mkdirSync(path.join(topic, 'new')), path.join(topic, 'new'));
    await seen.after(() => fs.mkdirSync(path.join(topic, 'new/er')), path.join(topic, 'new/er'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'new/er/d.md'), 'd'), path.join(topic, 'new/er/d.md'));
    for (const round of [1, 2, 3]) {
      await seen.after(() => saveAtomically(path.join(topic, 'deep/er/b.md'), `b, round ${round}`), path.join(topic, 'deep/er/b.md'));
    }
    expect(seen.reported.filter((file) => !file.startsWith(`${topic}/`))).toEqual([]);
  });

  it("leaves out Git's folder and the build cache below a watched folder", async () => {
    const dir = makeTree({ 'topic/a.md': 'a', 'topic/.git/HEAD': 'ref', 'topic/sub/.syllabus-cache/x.json': '{}', 'topic/.github/w.yml': 'on: push' });
    const topic = path.join(dir, 'topic');
    const seen = watching({ trees: [topic], files: [] });

    fs.writeFileSync(path.join(topic, '.git/HEAD'), 'ref2');
    fs.writeFileSync(path.join(topic, '.git/index'), 'new');
    fs.writeFileSync(path.join(topic, 'sub/.syllabus-cache/x.json'), '{"a":1}');
    await seen.after(() => fs.writeFileSync(path.join(topic, '.github/w.yml'), 'on: pull_request'), path.join(topic, '.github/w.yml'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'a.md'), 'a2'), path.join(topic, 'a.md'));
    expect(new Set(seen.reported)).toEqual(new Set([path.join(topic, '.github/w.yml'), path.join(topic, 'a.md')]));
  });

  it('walks and watches no folder it is told to skip (a build output inside a topic), however deep', async () => {
    const dir = makeTree({ 'topic/a.md': 'a', 'topic/out/index.html': '<p>', 'topic/out/deep/page.html': '<p>' });
    const topic = path.join(dir, 'topic');
    const seen = watching({ trees: [topic], files: [], skip: [path.join(topic, 'out')] });

    fs.writeFileSync(path.join(topic, 'out/index.html'), '<p>2');
    fs.writeFileSync(path.join(topic, 'out/deep/page.html'), '<p>2');
    fs.mkdirSync(path.join(topic, 'out/deep/new'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'a.md'), 'a2'), path.join(topic, 'a.md'));
    expect(seen.reported).toEqual([path.join(topic, 'a.md')]);
  });

  it('watches a missing folder through the nearest folder that exists, however deep, only for the way to it', async () => {
    const dir = makeTree({ 'kb.toml': '', 'elsewhere/a.md': 'a' });
    const targets = { trees: [path.join(dir, 'later/topic')], files: [] };
    const seen = watching(targets);

    fs.writeFileSync(path.join(dir, 'kb.toml'), 'x = 1\n');
    fs.writeFileSync(path.join(dir, 'elsewhere/a.md'), 'a2');
    await seen.after(() => fs.mkdirSync(path.join(dir, 'later')), path.join(dir, 'later'));
    fs.mkdirSync(path.join(dir, 'later/not-it'));
    await seen.after(() => fs.mkdirSync(path.join(dir, 'later/topic')), path.join(dir, 'later/topic'));
    await seen.after(() => fs.writeFileSync(path.join(dir, 'later/topic/a.md'), 'a'), path.join(dir, 'later/topic/a.md'));
    await seen.after(() => fs.writeFileSync(path.join(dir, 'later/topic/a.md'), 'a2'), path.join(dir, 'later/topic/a.md'));
    expect(new Set(seen.reported)).toEqual(new Set([path.join(dir, 'later'), path.join(dir, 'later/topic'), path.join(dir, 'later/topic/a.md')]));
  });

  it('watches a file: edits and replacements, again and again, and nothing else in its folder', async () => {
    const dir = makeTree({ 'kb.toml': 'a = 1\n', 'kb.toml.bak': '', 'notes.md': 'n' });
    const file = path.join(dir, 'kb.toml');
    const seen = watching({ trees: [], files: [file] });

    fs.writeFileSync(path.join(dir, 'kb.toml.bak'), 'a = 0\n');
    fs.writeFileSync(path.join(dir, 'notes.md'), 'n2');
    await seen.after(() => fs.writeFileSync(file, 'a = 2\n'), file);
    for (const round of [3, 4, 5]) await seen.after(() => saveAtomically(file, `a = ${round}\n`, path.join(dir, 'kb.toml.new')), file);
    await seen.after(() => fs.rmSync(file), file);
    await seen.after(() => fs.writeFileSync(file, 'a = 6\n'), file);
    expect(new Set(seen.reported)).toEqual(new Set([file]));
  });

  it('follows a symlinked folder and a symlinked file (watched where it really lies, even replaced), and no symlink loop', async () => {
    const dir = makeTree({
      'shared/s.md': 's',
      'shared/t.md': 't',
      'topic/a.md': 'a',
      'topic/linked': { symlink: '../shared' },
      'topic/t.md': { symlink: '../shared/t.md' },
      'topic/loop': { symlink: '.' },
      'topic/deep/up': { symlink: '..' },
    });
    const topic = path.join(dir, 'topic');
    const seen = watching({ trees: [topic], files: [] });

    await seen.after(() => fs.writeFileSync(path.join(dir, 'shared/s.md'), 's2'), path.join(topic, 'linked/s.md'));
    for (const round of [1, 2]) {
      await seen.after(() => saveAtomically(path.join(dir, 'shared/t.md'), `t, round ${round}`), path.join(dir, 'shared/t.md'));
    }
    await seen.after(() => fs.writeFileSync(path.join(topic, 'a.md'), 'a2'), path.join(topic, 'a.md'));
    expect(seen.reported.filter((file) => file.includes('/loop') || file.includes('/up'))).toEqual([]);
  });

  it('replaces the watcher of a folder deleted and created again (maybe with the same inode)', async () => {
    const dir = makeTree({ 'topic/a.md': 'a' });
    const topic = path.join(dir, 'topic');
    const targets = { trees: [topic], files: [] };
    const seen = watching(targets);

    await seen.after(() => fs.rmSync(topic, { recursive: true }), topic);
    fs.mkdirSync(topic);
    watch!.update(targets);
    await seen.after(() => fs.writeFileSync(path.join(topic, 'b.md'), 'b'), path.join(topic, 'b.md'));
    await seen.after(() => fs.writeFileSync(path.join(topic, 'b.md'), 'b2'), path.join(topic, 'b.md'));
  });

  it('stops reporting once closed', async () => {
    const dir = makeTree({ 'topic/a.md': 'a', 'other/b.md': 'b' });
    const seen = watching({ trees: [path.join(dir, 'topic')], files: [] });
    watch!.close();
    // A second watch, still open: once it reports, the first one would have too.
    let reportedByOpen = (): void => {};
    const openReported = new Promise<void>((resolve) => (reportedByOpen = resolve));
    const second = watchFolders((file) => file === path.join(dir, 'other/b.md') && reportedByOpen());
    second.update({ trees: [path.join(dir, 'other')], files: [] });
    fs.writeFileSync(path.join(dir, 'topic/a.md'), 'a2');
    fs.writeFileSync(path.join(dir, 'other/b.md'), 'b2');
    await openReported;
    second.close();
    expect(seen.reported).toEqual([]);
  });
});
