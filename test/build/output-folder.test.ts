/**
 * The output folder's guard (content/reference/cli/build.md, "The output folder"): a build or a
 * join replaces its output folder whole, so it writes only where that deletes nothing but a
 * build's own output; and a replaced folder keeps its `.git`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSiteConfig } from '../../src/build/read-config.ts';
import { applyChanges, BUILD_MARKER, buildOutputProblem, outputFolderProblem, replaceFolder } from '../../src/build/output-folder.ts';
import { unmarkBuild } from '../../src/build/plan.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const shown = (root: string) => (file: string) => path.relative(root, file) || '.';

describe('outputFolderProblem', () => {
  it('lets a build write into a folder that is missing, empty, holds only .git, or holds a build', () => {
    const root = makeTree({ 'empty/': { dir: true }, 'git/.git/HEAD': 'ref: refs/heads/gh-pages\n', 'built/index.html': '<p>old</p>', [`built/${BUILD_MARKER}`]: '' });
    for (const folder of ['missing', 'missing/deeper', 'empty', 'git', 'built']) expect(outputFolderProblem(path.join(root, folder), [], shown(root))).toBeUndefined();
  });

  it('refuses a folder that holds files no build made, naming the first three', () => {
    const root = makeTree({ 'docs/e.md': 'e', 'docs/a.md': 'a', 'docs/d/x.md': 'x', 'docs/b.md': 'b', 'docs/c.md': 'c', 'docs/.git/HEAD': 'ref\n', 'one/notes.txt': 'n' });
    expect(outputFolderProblem(path.join(root, 'docs'), [], shown(root))).toBe(
      'The output folder docs/ holds files that no Syllabus build made (a.md, b.md, c.md and 2 more; a folder a build wrote holds a .syllabus-build file), and an output folder is replaced whole: they would be deleted. Move them away, or build into another folder (--out DIR).',
    );
    expect(outputFolderProblem(path.join(root, 'one'), [], shown(root))).toBe(
      'The output folder one/ holds files that no Syllabus build made (notes.txt; a folder a build wrote holds a .syllabus-build file), and an output folder is replaced whole: they would be deleted. Move them away, or build into another folder (--out DIR).',
    );
  });

  it('refuses a folder that is, or holds, a kept path, through symbolic links too', () => {
    const root = makeTree({ 'kb/kb.toml': '', 'kb/notes/a.md': 'a', link: { symlink: 'kb' }, [`kb/${BUILD_MARKER}`]: '' });
    const kept = [{ path: path.join(root, 'kb/notes'), name: 'the folder of topic "notes" (kb/notes/)' }];
    const refused = (folder: string) =>
      `The output folder ${folder}/ holds the folder of topic "notes" (kb/notes/), and an output folder is replaced whole: it would be deleted. Build into a folder of its own, outside the knowledge base (--out DIR).`;
    expect(outputFolderProblem(path.join(root, 'kb/notes'), kept, shown(root))).toBe(refused('kb/notes'));
    // A build marker does not make a folder that holds the knowledge base replaceable.
    expect(outputFolderProblem(path.join(root, 'kb'), kept, shown(root))).toBe(refused('kb'));
    expect(outputFolderProblem(path.join(root, 'link'), kept, shown(root))).toBe(refused('link'));
    expect(outputFolderProblem(path.join(root, 'link/notes'), kept, shown(root))).toBe(refused('link/notes'));
    expect(outputFolderProblem(path.join(root, 'kb/site'), kept, shown(root))).toBeUndefined();
  });

  it('follows a link to a place not made yet', async () => {
    const root = makeTree({ 'kb.toml': '[kb.topic.notes]\nsubjects = "notes"\n', 'notes/a.md': '# A\n', ahead: { symlink: 'notes/site' }, loop: { symlink: 'loop' } });
    const { config } = await loadSiteConfig([path.join(root, 'kb.toml')], root);
    const problem = (out: string) => buildOutputProblem(config!, path.join(root, out), path.join(root, '.syllabus-cache'), root, shown(root));
    expect(problem('ahead')).toBe(
      'The output folder ahead/ is inside the folder of topic "notes" (notes/): the next build would read the site it writes as that topic\'s subjects. Build into a folder outside every topic\'s folder (--out DIR).',
    );
    // A link to itself is followed as far as the system follows links.
    expect(problem('loop')).toBe(
      `The output folder loop/ cannot be read (ELOOP: too many symbolic links encountered, scandir '${path.join(root, 'loop')}'). Build into another folder (--out DIR).`,
    );
  });

  it('refuses a file', () => {
    const root = makeTree({ site: 'a file' });
    expect(outputFolderProblem(path.join(root, 'site'), [], shown(root))).toBe('The output folder site is a file. Build into a folder (--out DIR).');
  });

  it('takes a folder a build stopped halfway for a build’s output: its marker is empty, not gone', () => {
    const root = makeTree({ 'site/index.html': '<p>old</p>', [`site/${BUILD_MARKER}`]: 'build-id' });
    unmarkBuild(path.join(root, 'site'));
    expect(fs.readFileSync(path.join(root, 'site', BUILD_MARKER), 'utf8')).toBe('');
    expect(outputFolderProblem(path.join(root, 'site'), [], shown(root))).toBeUndefined();
  });
});

describe('buildOutputProblem', () => {
  const KB = {
    'kb.toml': '[kb.topic.notes]\nsubjects = "notes"\n[kb.topic.old]\nsubjects = "old"\nenable = false\n[kb.topic.log]\nlearnings = "log.jsonl"\n',
    'notes/a.md': '# A\n',
    'old/b.md': '# B\n',
  };

  async function problemOf(root: string, out: string, cache = '.syllabus-cache'): Promise<string | undefined> {
    const { config } = await loadSiteConfig([path.join(root, 'kb.toml')], root);
    return buildOutputProblem(config!, path.join(root, out), path.join(root, cache), root, shown(root));
  }

  it('keeps the config files, every topic’s folder or store, the cache and the current folder', async () => {
    const root = makeTree(KB);
    const holds = (out: string, name: string) =>
      `The output folder ${out}/ holds ${name}, and an output folder is replaced whole: it would be deleted. Build into a folder of its own, outside the knowledge base (--out DIR).`;
    expect(await problemOf(root, '.')).toBe(holds('.', 'the config file kb.toml'));
    expect(await problemOf(root, 'notes')).toBe(holds('notes', 'the folder of topic "notes" (notes/)'));
    expect(await problemOf(root, 'old')).toBe(holds('old', 'the folder of topic "old" (old/)'));
    expect(await problemOf(root, 'log.jsonl')).toBe(holds('log.jsonl', 'the learnings store of topic "log" (log.jsonl)'));
    expect(await problemOf(root, 'site', 'site/cache')).toBe(holds('site', 'the build cache (site/cache/)'));
    expect(await problemOf(root, 'dist')).toBeUndefined();
  });

  it('keeps them from the cache too, in which the build makes and deletes folders of its own', async () => {
    const root = makeTree(KB);
    const holds = (cache: string, name: string) =>
      `The build cache ${cache}/ holds ${name}, and the build makes and deletes folders of its own in its cache (staging/, pages-bundle/, …). Keep the cache in a folder of its own (--cache DIR).`;
    expect(await problemOf(root, 'dist', '.')).toBe(holds('.', 'the config file kb.toml'));
    expect(await problemOf(root, 'dist', 'old')).toBe(holds('old', 'the folder of topic "old" (old/)'));
    expect(await problemOf(root, 'dist', 'build')).toBeUndefined();
  });

  it('refuses an output folder or a cache inside an enabled topic’s folder, where the next build would read them', async () => {
    const root = makeTree(KB);
    expect(await problemOf(root, 'notes/site')).toBe(
      'The output folder notes/site/ is inside the folder of topic "notes" (notes/): the next build would read the site it writes as that topic\'s subjects. Build into a folder outside every topic\'s folder (--out DIR).',
    );
    expect(await problemOf(root, 'dist', 'notes/cache')).toBe(
      'The build cache notes/cache/ is inside the folder of topic "notes" (notes/): the next build would read its files as that topic\'s subjects. Keep the cache outside every topic\'s folder (--cache DIR), or name its folder .syllabus-cache.',
    );
    // A folder named .syllabus-cache is never read; a disabled topic's folder is not read at all.
    expect(await problemOf(root, 'dist', 'notes/.syllabus-cache')).toBeUndefined();
    expect(await problemOf(root, 'old/site')).toBeUndefined();
  });
});

describe('replaceFolder', () => {
  it('puts the new folder in place of the old one and keeps the old one’s .git', async () => {
    const root = makeTree({ 'site/old.html': 'old', 'site/.git/HEAD': 'ref: refs/heads/gh-pages\n', 'new/index.html': 'new' });
    await replaceFolder(path.join(root, 'new'), path.join(root, 'site'));
    expect(fs.readdirSync(path.join(root, 'site')).sort()).toEqual(['.git', 'index.html']);
    expect(fs.readFileSync(path.join(root, 'site/.git/HEAD'), 'utf8')).toBe('ref: refs/heads/gh-pages\n');
    expect(fs.readdirSync(root)).toEqual(['site']);
  });

  it('replaces the folder a symbolic link points to, and keeps the link', async () => {
    const root = makeTree({ 'www/site/old.html': 'old', dist: { symlink: 'www/site' }, 'new/index.html': 'new' });
    await replaceFolder(path.join(root, 'new'), path.join(root, 'dist'));
    expect(fs.lstatSync(path.join(root, 'dist')).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(path.join(root, 'www/site'))).toEqual(['index.html']);
    expect(fs.readdirSync(path.join(root, 'www'))).toEqual(['site']);
    // A link to a folder not made yet.
    fs.rmSync(path.join(root, 'www'), { recursive: true });
    fs.mkdirSync(path.join(root, 'new'));
    fs.writeFileSync(path.join(root, 'new/index.html'), 'newer');
    await replaceFolder(path.join(root, 'new'), path.join(root, 'dist'));
    expect(fs.readFileSync(path.join(root, 'dist/index.html'), 'utf8')).toBe('newer');
  });
});

describe('applyChanges', () => {
  it('moves the new files in and removes the pages and files gone, never anything outside the output folder', () => {
    const root = makeTree({
      'site/t/a/index.html': 'a',
      'site/t/gone/index.html': 'gone',
      'site/kb/gone.json': '{}',
      'site/kb/kept.json': '{}',
      'staging/t/a/index.html': 'a, changed',
      'victim/index.html': 'not the build’s',
      'victim.txt': 'not the build’s',
    });
    const site = path.join(root, 'site');
    applyChanges(path.join(root, 'staging'), site, '/', ['/t/gone/', '/..%2Fvictim/'], ['kb/gone.json', '../victim.txt']);
    expect(fs.readFileSync(path.join(site, 't/a/index.html'), 'utf8')).toBe('a, changed');
    expect(fs.readdirSync(path.join(site, 't'))).toEqual(['a']);
    expect(fs.readdirSync(path.join(site, 'kb'))).toEqual(['kept.json']);
    expect(fs.readdirSync(root).sort()).toEqual(['site', 'victim', 'victim.txt']);
    expect(fs.readdirSync(path.join(root, 'victim'))).toEqual(['index.html']);
  });
});
