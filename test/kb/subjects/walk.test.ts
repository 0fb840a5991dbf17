import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, openKnowledgeBase } from '../../../src/kb/index.ts';
import { walkTopicFolder } from '../../../src/kb/subjects/walk.ts';
import { makeTree } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { learnLocally } from '../../helpers/local-learn.ts';

/** Walks `<root>/<topic>` bounded by `root`, returning the sorted relative paths. */
function walk(root: string, topic: string, exclude: string[] = []) {
  const dir = path.join(root, topic);
  const result = walkTopicFolder(dir, fs.realpathSync(dir), { bound: fs.realpathSync(root), exclude: new Set(exclude) });
  return { paths: result.files.map((f) => f.path).sort(), diagnostics: result.diagnostics };
}

describe('walkTopicFolder (content/reference/subject-formats.md, "Not subjects")', () => {
  it('includes dotfiles, never walks .git, leaves out links.txt at the top only', () => {
    const root = makeTree({
      't/a.md': 'a',
      't/.env.local': 'x',
      't/.hidden-dir/visible.md': 'v',
      't/.git/config': 'git',
      't/sub/.git/HEAD': 'git',
      't/links.txt': 'https://example.com',
      't/sub/links.txt': 'kept',
    });
    expect(walk(root, 't')).toEqual({ paths: ['.env.local', '.hidden-dir/visible.md', 'a.md', 'sub/links.txt'], diagnostics: [] });
  });

  it('follows symlinks whose real path stays inside the config folder', () => {
    const root = makeTree({
      't/a.md': 'a',
      'shared/s.md': 's',
      'shared/deep/d.md': 'd',
      't/file-link.md': { symlink: '../shared/s.md' },
      't/dir-link': { symlink: '../shared' },
    });
    expect(walk(root, 't')).toEqual({ paths: ['a.md', 'dir-link/deep/d.md', 'dir-link/s.md', 'file-link.md'], diagnostics: [] });
  });

  it('skips symlinks that leave the config folder, with a warning naming them', () => {
    const outside = makeTree({ 'secret.md': 'secret', 'dir/x.md': 'x' });
    const root = makeTree({
      't/a.md': 'a',
      't/out.md': { symlink: path.join(outside, 'secret.md') },
      't/out-dir': { symlink: path.join(outside, 'dir') },
      't/broken.md': { symlink: 'nowhere.md' },
    });
    const { paths, diagnostics } = walk(root, 't');
    expect(paths).toEqual(['a.md']);
    expect(diagnostics.map((d) => [d.kind, d.file]).sort()).toEqual([
      ['warning', path.join(root, 't/broken.md')],
      ['warning', path.join(root, 't/out-dir')],
      ['warning', path.join(root, 't/out.md')],
    ]);
  });

  it('skips a link to a folder that contains it, with a warning', () => {
    const root = makeTree({
      't/a.md': 'a',
      't/sub/b.md': 'b',
      't/sub/up': { symlink: '..' },
      't/sub/self': { symlink: '.' },
      't/loop': { symlink: '.' },
    });
    const { paths, diagnostics } = walk(root, 't');
    expect(paths).toEqual(['a.md', 'sub/b.md']);
    expect(diagnostics.map((d) => [d.kind, d.file]).sort()).toEqual([
      ['warning', path.join(root, 't/loop')],
      ['warning', path.join(root, 't/sub/self')],
      ['warning', path.join(root, 't/sub/up')],
    ]);
  });

  it('leaves out excluded files (the config files)', () => {
    const root = makeTree({ 'kb.toml': 'x', 'a.md': 'a', 'sub/kb.toml': 'kept' });
    const real = fs.realpathSync(root);
    const result = walkTopicFolder(root, real, { bound: real, exclude: new Set([path.join(real, 'kb.toml')]) });
    expect(result.files.map((f) => f.path).sort()).toEqual(['a.md', 'sub/kb.toml']);
  });
});

describe('openKnowledgeBase (content/reference/configuration.md, content/reference/subject-formats.md)', () => {
  it('never makes its own config file a subject when it lies inside a topic folder', () => {
    const { kb } = openTree('[kb.topic.all]\nsubjects = "."\n', { 'a.md': 'A.', 'links.txt': 'https://example.com', 'sub/links.txt': 'x' });
    expect(kb.topic('all')!.subjects.map((s) => s.slug)).toEqual(['a', 'sub/links']);
  });

  it('excludes every config file of the knowledge base', () => {
    const root = makeTree({ 'kb.toml': '[kb.topic.all]\nsubjects = "."\n', 'all/extra.toml': '[site]\ntitle = "T"\n', 'a.md': 'A.' });
    const sources = [path.join(root, 'kb.toml'), path.join(root, 'all/extra.toml')].map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
    const kb = openKnowledgeBase(loadConfig(sources).config!);
    expect(kb.topic('all')!.subjects.map((s) => s.path)).toEqual(['a.md']);
  });

  it('makes a subjects folder that is a symlink pointing outside a configuration error', () => {
    const outside = makeTree({ 'x.md': 'secret' });
    const toml = '[kb.topic.t]\nsubjects = "t"\n';
    const root = makeTree({ 'kb.toml': toml, t: { symlink: outside } });
    const kb = openKnowledgeBase(loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]).config!);
    expect(kb.diagnostics()).toMatchObject([{ kind: 'config-error', code: 'escaping-subjects', file: path.join(root, 'kb.toml'), line: 2 }]);
    expect(kb.diagnostics()[0]!.message).toContain('kb.topic.t.subjects');
    expect(JSON.stringify(kb.topics().map((t) => t.subjects))).not.toContain('secret');
  });

  it('accepts a subjects folder that is a symlink staying inside', () => {
    const { kb } = openTree('[kb.topic.t]\nsubjects = "t"\n', { 'real/x.md': 'X.', t: { symlink: 'real' } });
    expect(kb.diagnostics()).toEqual([]);
    expect(kb.topic('t')!.subjects.map((s) => s.slug)).toEqual(['x']);
  });

  it('reports a missing subjects folder as a content error and treats the topic as empty', () => {
    const { kb, root } = openTree('[kb.topic.t]\nsubjects = "nope"\n', {});
    expect(kb.diagnostics()).toMatchObject([{ kind: 'content-error', file: path.join(root, 'kb.toml'), line: 2 }]);
    expect(kb.topic('t')!.subjects).toEqual([]);
  });

  it('reports duplicate slugs once, naming every file; a visible file wins over a hidden one', async () => {
    const { kb, root } = openTree('[kb.topic.t]\nsubjects = "t"\n', { 't/rules.toml': 'r = 1', 't/.rules.md': 'Hidden.', 't/other.md': 'O.' });
    kb.topics();
    const errors = kb.diagnostics().filter((d) => d.kind === 'content-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain('rules.toml');
    expect(errors[0]!.message).toContain('.rules.md');
    expect(errors[0]!.file?.startsWith(path.join(root, 't'))).toBe(true);
    const topic = kb.topic('t')!;
    expect(topic.bySlug.get('rules')).toMatchObject({ path: 'rules.toml', hidden: false });
    expect(await learnLocally(kb, { topic: 't', patterns: ['rules'] })).toEqual({ ok: true, text: '```toml\nr = 1\n```' });
  });

  it('picks pass-through before fenced, then the path in string order', () => {
    const { kb } = openTree('[kb.topic.t]\nsubjects = "t"\n', {
      't/a.toml': 'a = 1',
      't/a.md': 'A.',
      't/b.txt': 'B txt.',
      't/b.md': 'B md.',
      't/b.json': '{}',
      't/.c.md': 'C hidden md.',
      't/.c.txt': 'C hidden txt.',
      't/.d.toml': 'x = 1',
      't/.d.rs': 'fn x() {}',
    });
    kb.topics();
    const errors = kb.diagnostics().filter((d) => d.kind === 'content-error');
    expect(errors).toHaveLength(4);
    const messageFor = (slug: string) => errors.find((e) => e.message.includes(`"${slug}"`))!.message;
    for (const name of ['b.txt', 'b.md', 'b.json']) expect(messageFor('b')).toContain(name);
    const topic = kb.topic('t')!;
    expect(topic.bySlug.get('a')!.path).toBe('a.md');
    expect(topic.bySlug.get('b')!.path).toBe('b.md');
    expect(topic.bySlug.get('c')!.path).toBe('.c.md');
    expect(topic.bySlug.get('d')!.path).toBe('.d.rs');
  });

  it('warns about learned and disabled patterns that match nothing', () => {
    const { kb, root } = openTree('[kb.topic.t]\nsubjects = "t"\nlearned = ["a", "zzz/*"]\ndisabled = ["b", "nothing/**"]\n', { 't/a.md': 'A.', 't/b.md': 'B.' });
    expect(kb.topic('t')!.learned).toEqual(['a']);
    const warnings = kb.diagnostics().filter((d) => d.kind === 'warning');
    expect(warnings).toHaveLength(2);
    for (const w of warnings) expect(w.file).toBe(path.join(root, 'kb.toml'));
    expect(warnings.some((w) => w.message.includes('"zzz/*"') && w.message.includes('learned'))).toBe(true);
    expect(warnings.some((w) => w.message.includes('"nothing/**"') && w.message.includes('disabled'))).toBe(true);
  });

  it('lets disabled beat learned: a learned pattern that only names a disabled subject matches nothing', () => {
    const { kb } = openTree('[kb.topic.t]\nsubjects = "t"\nlearned = ["b"]\ndisabled = ["b"]\n', { 't/a.md': 'A.', 't/b.md': 'B.' });
    expect(kb.topic('t')!.learned).toEqual([]);
    expect(kb.diagnostics().filter((d) => d.kind === 'warning')).toHaveLength(1);
  });

  it('disabled globs reach hidden subjects; learned globs do not', () => {
    const { kb } = openTree('[kb.topic.t]\nsubjects = "t"\nlearned = ["**"]\ndisabled = ["x/*"]\n', {
      't/x/.h.md': 'H.',
      't/x/v.md': 'V.',
      't/.y.md': 'Y.',
      't/z.md': 'Z.',
    });
    const topic = kb.topic('t')!;
    expect(topic.subjects.map((s) => s.slug)).toEqual(['x/h', 'x/v', 'y', 'z'].filter((s) => !s.startsWith('x/')));
    expect(topic.learned).toEqual(['z']);
  });

  it('leaves topics with enable = false out of everything', () => {
    const { kb } = openTree('[kb.topic.on]\nsubjects = "on"\n[kb.topic.off]\nenable = false\nsubjects = "missing"\n', { 'on/a.md': 'A.' });
    expect(kb.topics().map((t) => t.id)).toEqual(['on']);
    expect(kb.topic('off')).toBeUndefined();
    expect(kb.diagnostics()).toEqual([]);
  });
});
