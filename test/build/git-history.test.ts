/**
 * Last-updated dates from git (src/astro/git-history.ts): the parser on literal
 * `git log --format=%x00%ct --name-only --no-renames -z` output, and one real repository with
 * commits at fixed dates.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseGitLog, readFileHistory } from '../../src/build/git-history.ts';
import { makeTree, writeTree } from '../helpers/temp-tree.ts';

/** One commit as git writes it with -z: a NUL, the time, a NUL, then its files (the first after a line break). */
function commit(time: number, files: string[]): string {
  return `\0${time}\0${files.length === 0 ? '' : `\n${files.join('\0')}\0`}`;
}

describe('parseGitLog', () => {
  it('reads the real output of three commits, newest first, one of them empty', () => {
    // `git log --format=%x00%ct --name-only --no-renames -z`, byte for byte.
    const output = '\x001200000000\x00\nt/a.md\x00t/é b.md\x00\x001100000000\x00\x001000000000\x00\nt/123\x00t/a.md\x00';
    expect([...parseGitLog(output, '/repo')]).toEqual([
      ['/repo/t/a.md', 1200000000],
      ['/repo/t/é b.md', 1200000000],
      ['/repo/t/123', 1000000000],
    ]);
  });

  it('the first time a file appears is its date: older commits do not override it', () => {
    const output = commit(300, ['b.md']) + commit(200, ['a.md', 'b.md']) + commit(100, ['a.md', 'c.md']);
    expect([...parseGitLog(output, '/r')]).toEqual([
      ['/r/b.md', 300],
      ['/r/a.md', 200],
      ['/r/c.md', 100],
    ]);
  });

  it('a commit with no files changes nothing, first, between others or last', () => {
    const output = commit(400, []) + commit(300, ['a.md']) + commit(200, []) + commit(100, ['b.md']) + commit(50, []);
    expect([...parseGitLog(output, '/r')]).toEqual([
      ['/r/a.md', 300],
      ['/r/b.md', 100],
    ]);
  });

  it('a file named like a number is a file, wherever it is in its commit', () => {
    const output = commit(300, ['123']) + commit(200, ['x.md', '456', '7']) + commit(100, ['8', '9']);
    expect([...parseGitLog(output, '/r')]).toEqual([
      ['/r/123', 300],
      ['/r/x.md', 200],
      ['/r/456', 200],
      ['/r/7', 200],
      ['/r/8', 100],
      ['/r/9', 100],
    ]);
  });

  it('keeps non-ASCII names, spaces and quotes as they are (-z does not quote them)', () => {
    const output = commit(100, ['docs/日本語.md', 'ça va/"q" ü.txt', 'tab\there.md']);
    expect([...parseGitLog(output, '/r')]).toEqual([
      ['/r/docs/日本語.md', 100],
      ['/r/ça va/"q" ü.txt', 100],
      ['/r/tab\there.md', 100],
    ]);
  });

  it('no output: no dates', () => {
    expect(parseGitLog('', '/r').size).toBe(0);
  });
});

const GIT_ENV = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

function git(cwd: string, args: string[], time?: number): void {
  const env = time === undefined ? GIT_ENV : { ...GIT_ENV, GIT_AUTHOR_DATE: `@${time} +0000`, GIT_COMMITTER_DATE: `@${time} +0000` };
  execFileSync('git', args, { cwd, env, stdio: 'pipe' });
}

function commitAll(cwd: string, time: number, message: string): void {
  git(cwd, ['add', '-A']);
  git(cwd, ['-c', 'user.email=t@t', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', message], time);
}

describe('readFileHistory in a git repository', () => {
  let repo: string;

  beforeAll(() => {
    // The real path: git reports the repository's top folder resolved (see the symlink test below).
    repo = fs.realpathSync(
      makeTree({
        'kb/kb.toml': '[kb.topic.t]\nsubjects = "t"\n',
        'kb/t/a.md': 'a',
        'kb/t/sub/b.md': 'b',
        'kb/t/café ü.md': 'c',
        'kb/u/other.md': 'o',
        'src/code.ts': 'x',
      }),
    );
    git(repo, ['-c', 'init.defaultBranch=main', 'init', '-q']);
    commitAll(repo, 1_000_000_000, 'first');
    writeTree(repo, { 'kb/t/a.md': 'a2', 'kb/t/new.md': 'n', 'src/code.ts': 'y' });
    commitAll(repo, 1_200_000_000, 'second');
    writeTree(repo, { 'kb/t/uncommitted.md': 'u', 'kb/t/sub/b.md': 'b edited, not committed' });
  });

  it('dates every committed file of the given folders by its last commit; the root is the top folder', () => {
    const history = readFileHistory(path.join(repo, 'kb'), [path.join(repo, 'kb/t')]);
    expect(history.root).toBe(repo);
    expect(new Map([...history.updated].sort())).toEqual(
      new Map([
        [path.join(repo, 'kb/t/a.md'), 1_200_000_000],
        [path.join(repo, 'kb/t/café ü.md'), 1_000_000_000],
        [path.join(repo, 'kb/t/new.md'), 1_200_000_000],
        [path.join(repo, 'kb/t/sub/b.md'), 1_000_000_000],
      ]),
    );
  });

  it('several folders at once; files outside them are left out', () => {
    const history = readFileHistory(repo, [path.join(repo, 'kb/t/sub'), path.join(repo, 'kb/u')]);
    expect([...history.updated].sort()).toEqual([
      [path.join(repo, 'kb/t/sub/b.md'), 1_000_000_000],
      [path.join(repo, 'kb/u/other.md'), 1_000_000_000],
    ]);
  });

  it('from any folder of the repository, the root is its top folder', () => {
    const { updated, root } = readFileHistory(path.join(repo, 'kb/t/sub'), [path.join(repo, 'kb/t/sub')]);
    expect({ updated, root }).toEqual({
      updated: new Map([[path.join(repo, 'kb/t/sub/b.md'), 1_000_000_000]]),
      root: repo,
    });
  });

  it('reached through a symlinked folder, dates are found under the paths the caller uses', () => {
    // The catalog names files by the path the config was reached by, not by their real path
    // (on macOS the temporary folder itself is behind /var → /private/var).
    const link = path.join(makeTree({}), 'link');
    fs.symlinkSync(repo, link);
    const history = readFileHistory(path.join(link, 'kb'), [path.join(link, 'kb/t')]);
    const file = path.join(link, 'kb/t/a.md');
    expect([history.updated.get(file), path.relative(history.root ?? '', history.realPathOf(file))]).toEqual([1_200_000_000, 'kb/t/a.md']);
  });
});

describe('readFileHistory outside git', () => {
  it('has no dates and no root', () => {
    const dir = makeTree({ 't/a.md': 'a' });
    const history = readFileHistory(dir, [path.join(dir, 't')]);
    expect({ updated: history.updated, root: history.root, real: history.realPathOf('/x/y') }).toEqual({ updated: new Map(), root: undefined, real: '/x/y' });
  });
});
