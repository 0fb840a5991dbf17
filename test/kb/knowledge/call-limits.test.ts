/**
 * The limits of one call (src/kb/knowledge/call-limits.ts, content/agents/learn-tool.md): how many patterns
 * `learn` takes, how long one pattern and a `find` query may be. Every surface checks its
 * arguments with `parseLearnArguments` and `parseFindArguments`, so the messages are asserted here
 * whole, and again through the CLI, the agent server and `--remote` in their own tests.
 */
import { createRequire } from 'node:module';
import type picomatchModule from 'picomatch';
import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_LENGTH, MAX_PATTERNS_PER_CALL, MAX_QUERY_LENGTH } from '../../../src/kb/knowledge/call-limits.ts';
import { parseFindArguments } from '../../../src/kb/view/find.ts';
import { parseLearnArguments } from '../../../src/kb/index.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { learnLocally } from '../../helpers/local-learn.ts';

/** `count` different globs, as a runaway agent might send them. */
const globs = (count: number): string[] => Array.from({ length: count }, (_, i) => `folder-${i}/**/*.md`);

describe('learn: patterns per call', () => {
  it('are at most 100', () => {
    expect(MAX_PATTERNS_PER_CALL).toBe(100);
    expect(MAX_PATTERN_LENGTH).toBe(1000);
    expect(MAX_QUERY_LENGTH).toBe(1000);
  });

  it('20,000 globs: the limit, named', () => {
    expect(parseLearnArguments({ topic: 'project', subjects: globs(20_000) })).toEqual({
      ok: false,
      message: 'Too many patterns: 20000 given, at most 100 per call. Load fewer subjects at a time, or use a glob such as "folder/**".',
    });
  });

  it('100 are taken; 101 are not (empty strings count: they were sent)', () => {
    expect(parseLearnArguments({ topic: 'project', subjects: globs(100) })).toEqual({ ok: true, value: { topic: 'project', patterns: globs(100) } });
    expect(parseLearnArguments({ topic: 'project', subjects: [...globs(100), ''] })).toEqual({
      ok: false,
      message: 'Too many patterns: 101 given, at most 100 per call. Load fewer subjects at a time, or use a glob such as "folder/**".',
    });
  });

  it('a wrong type is still reported as such, before the count', () => {
    expect(parseLearnArguments({ topic: 'project', subjects: Array.from({ length: 200 }, () => 1) })).toEqual({
      ok: false,
      message:
        'Invalid arguments: "subjects" must be a string, an array of strings or null. Call learn with {"topic": "<topic id or title>"} to list a topic, and add "subjects": "<pattern>" or ["<pattern>", …] to load subjects.',
    });
  });
});

describe('learn: the length of one pattern', () => {
  it('1,000 characters are taken; 1,001 are not, alone or in a list', () => {
    const longest = `${'a/'.repeat(499)}**`;
    expect(longest).toHaveLength(1000);
    expect(parseLearnArguments({ topic: 'project', subjects: longest })).toEqual({ ok: true, value: { topic: 'project', patterns: [longest] } });
    const message = `Pattern too long: 1001 characters ("${'a/'.repeat(20)}…"), at most 1000 per pattern. Name a subject by its slug, or use a glob such as "folder/**".`;
    expect(parseLearnArguments({ topic: 'project', subjects: `${longest}*` })).toEqual({ ok: false, message });
    expect(parseLearnArguments({ topic: 'project', subjects: ['code-quality', `${longest}*`] })).toEqual({ ok: false, message });
  });
});

describe('find: the length of the query', () => {
  it('1,000 characters are taken; 1,001 are not', () => {
    const longest = 'word '.repeat(200);
    expect(parseFindArguments({ query: longest })).toEqual({ ok: true, value: { query: longest, limit: 5, topic: undefined } });
    expect(parseFindArguments({ query: `${longest}x` })).toEqual({
      ok: false,
      message: 'Query too long: 1001 characters, at most 1000. Search with a few words, or the title or name of a subject.',
    });
  });
});

describe('a pathological pattern of at most 1,000 characters', () => {
  // The options of src/kb/patterns/glob.ts: picomatch must not expand braces or ranges into lists.
  const picomatch = createRequire(import.meta.url)('picomatch') as typeof picomatchModule;
  const OPTIONS = { dot: true, nonegate: true, noextglob: true };
  let nested = 'x';
  while (`{a,${nested}}`.length <= MAX_PATTERN_LENGTH) nested = `{a,${nested}}`;
  const PATHOLOGICAL = {
    'nested braces': nested,
    'braces in a row': '{a,b}'.repeat(200),
    'a numeric range': '{1..999999999}',
    'ranges in a row': '{1..9999}'.repeat(100),
    'globstars in a row': '**/'.repeat(333),
    'character classes': '[a-z]'.repeat(200),
  };

  it.each(Object.entries(PATHOLOGICAL))('%s compiles to a regex about as long as the pattern (nothing is expanded)', (_name, pattern) => {
    expect(pattern.length).toBeLessThanOrEqual(MAX_PATTERN_LENGTH);
    expect(picomatch.makeRe(pattern, OPTIONS).source.length).toBeLessThan(2 * pattern.length + 100);
  });

  it('each is answered by learn, as a glob that matches nothing, or an invalid pattern', async () => {
    const { kb } = openTree('[kb.topic.t]\nsubjects = "t"\n', { 't/guide.md': '# Guide\n' });
    // A regex pattern with more than two runs of `*` is refused (src/kb/patterns/glob.ts); wildcards alone never are.
    const refused = PATHOLOGICAL['globstars in a row'];
    const invalid = parseLearnArguments({ topic: 't', subjects: [refused] });
    expect(await learnLocally(kb, (invalid as { value: { topic: string; patterns: string[] } }).value)).toEqual({
      ok: false,
      message: `Invalid pattern ${JSON.stringify(refused)}.`,
    });
    const patterns = [...Object.values(PATHOLOGICAL).filter((p) => p !== refused), `${'**/'.repeat(333)}x`];
    const parsed = parseLearnArguments({ topic: 't', subjects: patterns });
    expect(parsed.ok).toBe(true);
    expect(await learnLocally(kb, (parsed as { value: { topic: string; patterns: string[] } }).value)).toEqual({
      ok: false,
      message: `No subjects in topic "t" match ${patterns.map((p) => JSON.stringify(p)).join(', ')}. Call learn with only the topic to list its subjects.`,
    });
  });
});
