/**
 * Relative links written inside subjects (content/guide/the-site.md): which topic file or folder
 * they point at.
 * Pure path arithmetic over two topics whose folders are siblings (`/kb/a`, `/kb/b`).
 */
import { describe, expect, it } from 'vitest';
import { resolveSubjectLink, type LinkTopic } from '../../../src/kb/index.ts';

const TOPICS: LinkTopic[] = [
  { id: 'a', dir: '/kb/a' },
  { id: 'b', dir: '/kb/b' },
];

/** Resolves `href` written in topic a's subject at `from` (a path in the topic folder). */
function resolve(href: string, from = 'guides/intro.md', topics: readonly LinkTopic[] = TOPICS) {
  return resolveSubjectLink(href, { topic: 'a', path: from }, topics);
}

describe('links to files', () => {
  it.each([
    ['b.md', { topic: 'a', path: 'guides/b.md', slug: 'guides/b', folder: false, fragment: '' }],
    ['./b.md', { topic: 'a', path: 'guides/b.md', slug: 'guides/b', folder: false, fragment: '' }],
    ['../x/c.md', { topic: 'a', path: 'x/c.md', slug: 'x/c', folder: false, fragment: '' }],
    ['../top.md', { topic: 'a', path: 'top.md', slug: 'top', folder: false, fragment: '' }],
    ['deeper/d.toml', { topic: 'a', path: 'guides/deeper/d.toml', slug: 'guides/deeper/d', folder: false, fragment: '' }],
  ])('%s', (href, target) => {
    expect(resolve(href)).toEqual(target);
  });

  it('keeps the fragment, with its #', () => {
    expect(resolve('b.md#set-up')).toEqual({ topic: 'a', path: 'guides/b.md', slug: 'guides/b', folder: false, fragment: '#set-up' });
  });

  it('drops the query, and keeps a fragment that follows it', () => {
    expect(resolve('b.md?plain=1')).toEqual({ topic: 'a', path: 'guides/b.md', slug: 'guides/b', folder: false, fragment: '' });
    expect(resolve('b.md?plain=1#x')).toEqual({ topic: 'a', path: 'guides/b.md', slug: 'guides/b', folder: false, fragment: '#x' });
  });

  it('decodes percent-encoded names after splitting off the fragment and the query', () => {
    expect(resolve('my%20file.md')).toEqual({ topic: 'a', path: 'guides/my file.md', slug: 'guides/my file', folder: false, fragment: '' });
    expect(resolve('c%23%3F.md#h')).toEqual({ topic: 'a', path: 'guides/c#?.md', slug: 'guides/c#?', folder: false, fragment: '#h' });
    expect(resolve('caf%C3%A9.md')).toEqual({ topic: 'a', path: 'guides/café.md', slug: 'guides/café', folder: false, fragment: '' });
  });

  it('gives a hidden file its slug without the leading dot, and keeps its path as on disk', () => {
    expect(resolve('.secret/x.md', 'top.md')).toEqual({ topic: 'a', path: '.secret/x.md', slug: 'secret/x', folder: false, fragment: '' });
  });

  it('gives a file without an extension its whole name as slug', () => {
    expect(resolve('Makefile', 'top.md')).toEqual({ topic: 'a', path: 'Makefile', slug: 'Makefile', folder: false, fragment: '' });
  });

  it('reads ..md as a file (slug .md), not as the parent folder', () => {
    expect(resolve('..md', 'top.md')).toEqual({ topic: 'a', path: '..md', slug: '.md', folder: false, fragment: '' });
  });
});

describe('links to folders', () => {
  it.each([
    ['deeper/', 'top.md', { topic: 'a', path: 'deeper', slug: 'deeper', folder: true, fragment: '' }],
    ['guides/', 'top.md', { topic: 'a', path: 'guides', slug: 'guides', folder: true, fragment: '' }],
    ['..', 'guides/intro.md', { topic: 'a', path: '', slug: '', folder: true, fragment: '' }],
    ['../', 'guides/deeper/d.md', { topic: 'a', path: 'guides', slug: 'guides', folder: true, fragment: '' }],
    ['.', 'guides/intro.md', { topic: 'a', path: 'guides', slug: 'guides', folder: true, fragment: '' }],
    ['./', 'top.md', { topic: 'a', path: '', slug: '', folder: true, fragment: '' }],
    ['x/..', 'top.md', { topic: 'a', path: '', slug: '', folder: true, fragment: '' }],
    ['.private/', 'top.md', { topic: 'a', path: '.private', slug: 'private', folder: true, fragment: '' }],
    ['guides/#list', 'top.md', { topic: 'a', path: 'guides', slug: 'guides', folder: true, fragment: '#list' }],
  ])('%s from %s', (href, from, target) => {
    expect(resolve(href, from)).toEqual(target);
  });
});

describe('links that leave the topic', () => {
  it('into another topic folder: that topic', () => {
    expect(resolve('../b/c.md', 'top.md')).toEqual({ topic: 'b', path: 'c.md', slug: 'c', folder: false, fragment: '' });
    expect(resolve('../../b/x/y.md#z')).toEqual({ topic: 'b', path: 'x/y.md', slug: 'x/y', folder: false, fragment: '#z' });
    expect(resolve('../b/', 'top.md')).toEqual({ topic: 'b', path: '', slug: '', folder: true, fragment: '' });
  });

  it('out and back into the same topic: still that topic', () => {
    expect(resolve('../a/top.md', 'top.md')).toEqual({ topic: 'a', path: 'top.md', slug: 'top', folder: false, fragment: '' });
  });

  it('into a topic nested in another: the innermost topic', () => {
    const nested: LinkTopic[] = [...TOPICS, { id: 'inner', dir: '/kb/a/inner' }];
    expect(resolve('inner/x.md', 'top.md', nested)).toEqual({ topic: 'inner', path: 'x.md', slug: 'x', folder: false, fragment: '' });
  });

  it('into a folder whose name only starts like a topic folder: null', () => {
    expect(resolve('../ab/c.md', 'top.md')).toBeNull();
  });

  it('out of every topic: null', () => {
    expect(resolve('..', 'top.md')).toBeNull();
    expect(resolve('../outside.md', 'top.md')).toBeNull();
    expect(resolve('../../../etc/passwd')).toBeNull();
  });
});

describe('links left as written (null)', () => {
  it.each([
    ['https://example.com/a.md'],
    ['HTTP://example.com'],
    ['mailto:someone@example.com'],
    ['tel:+123'],
    ['/x'],
    ['/a/b.md'],
    ['\\a\\b.md'],
    ['#frag'],
    ['#'],
    [''],
    ['?query-only'],
    ['%E0%A4%A'],
    ['bad%zz.md'],
    ['b.md%'],
  ])('%j', (href) => {
    expect(resolve(href)).toBeNull();
  });

  it('a subject of an unknown topic: null', () => {
    expect(resolveSubjectLink('b.md', { topic: 'zz', path: 'x.md' }, TOPICS)).toBeNull();
  });
});
