/**
 * Patterns of only literal characters, `?`, `*` and `**` are matched without a regex
 * (src/kb/patterns/glob-match.ts), in time bounded by the product of the lengths. They must match exactly
 * what picomatch matches in the dialect of content/reference/patterns.md, and a pattern built to
 * make a backtracking regex run for minutes must be answered at once.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/kb/patterns/glob.ts';
import { isWildcardOnly } from '../../../src/kb/patterns/glob-match.ts';

const OPTIONS = { dot: true, nonegate: true, noextglob: true } as const;
const unit = fc.constantFrom('a', 'b', 'a', '.', '-', '_', '~', ' ', '!', '@', '+', '中', '😀', 'A');
const segment = fc.oneof(fc.string({ unit, minLength: 1, maxLength: 6 }), fc.constantFrom('.', '..', 'a', 'b'));
const slug = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const patternSegment = fc.oneof(
  fc.string({ unit: fc.oneof(unit, fc.constantFrom('*', '*', '?', '**')), minLength: 1, maxLength: 6 }),
  fc.constantFrom('**', '*', '?', 'a*', '*b', '*a*'),
);
const pattern = fc.array(patternSegment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

// picomatch lets a trailing `/**` match no segment after a literal segment (`a/**` matches `a`)
// but not after one ending in `*` (`a*/**` does not match `ab`). The dialect reads `**` as zero or
// more segments everywhere (content/reference/decisions.md): such patterns are tested on their own.
// Runs of three stars or more (read as `*`) are left out for the same reason: picomatch reads
// them sometimes as `*`, sometimes as `**`.
function endsInPicomatchQuirk(glob: string): boolean {
  const segments = glob.split('/');
  let last = segments.length - 1;
  while (last >= 0 && segments[last] === '**') last--;
  return last >= 0 && last < segments.length - 1 && segments[last]!.endsWith('*');
}

// picomatch matches the whole patterns `*.*` and `**/*.*` by a shortcut of its own that wants a
// character after the dot (`a.` fails), while `a/*.*`, `*/*.*` and `[ab]/*.*` do match `a/b.`. In
// the dialect `*` may match nothing there too: those two patterns are tested on their own.
function isPicomatchStarDotStar(glob: string): boolean {
  return glob === '*.*' || glob === '**/*.*';
}

function mask(text: string): string {
  return text
    .split('/')
    .map((s) => (s === '.' ? '\uE000' : s === '..' ? '\uE000\uE000' : s))
    .join('/');
}

describe('wildcard patterns', () => {
  it('match the same slugs as picomatch', () => {
    fc.assert(
      fc.property(pattern, fc.array(slug, { minLength: 1, maxLength: 8 }), (glob, slugs) => {
        fc.pre(isWildcardOnly(glob) && !endsInPicomatchQuirk(glob) && !isPicomatchStarDotStar(glob) && !glob.includes('***'));
        const compiled = compilePattern(glob);
        expect(compiled.ok).toBe(true);
        if (!compiled.ok) return;
        // picomatch reads a run of `+` as a regex quantifier; in the dialect `+` is an ordinary character.
        const reference = picomatch(glob.replace(/\+/g, '\\+'), OPTIONS);
        const literal = glob.replace(/[*?]/g, 'a');
        // Slugs have no empty segment: candidates made from the pattern are kept only when they are slugs.
        const made = [literal, glob.replace(/\*+/g, ''), mask(literal)].filter((c) => c.split('/').every((part) => part !== ''));
        for (const candidate of [...slugs, ...made]) {
          expect(compiled.test(candidate), `${glob} on ${candidate}`).toBe(reference(mask(candidate)));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('read a run of `+` as ordinary characters, with wildcards and with sets alike', () => {
    const matches = (glob: string, slug: string): boolean => {
      const compiled = compilePattern(glob);
      if (!compiled.ok) throw new Error(compiled.message);
      return compiled.test(slug);
    };
    expect(['+++aa', '+++a', '++aa', '+aa'].filter((s) => matches('+++*a', s))).toEqual(['+++aa', '+++a']);
    expect(['++a', '+a', '+++a', '++c'].filter((s) => matches('++[ab]', s))).toEqual(['++a']);
    // An escape sends a pattern through picomatch's regex.
    expect(['x++y', 'x+y', 'x+++y'].filter((s) => matches('\\x++*', s))).toEqual(['x++y', 'x+++y']);
    expect(['c++', 'c+', 'c+++'].filter((s) => matches('c++', s))).toEqual(['c++']);
  });

  it('answer a pattern built for catastrophic backtracking at once, with the right answer', () => {
    const long = 'a'.repeat(5000);
    expect(compilePattern('*a*a*a*a*a*a*a*a*b').ok && compilePattern('*a*a*a*a*a*a*a*a*b')).toMatchObject({ ok: true });
    const star = compilePattern('*a*a*a*a*a*a*a*a*b');
    const globstars = compilePattern('**/a/**/a/**/a/**/a/**/a/**/a/b');
    if (!star.ok || !globstars.ok) throw new Error('not compiled');
    expect(star.test(long)).toBe(false);
    expect(star.test(`${long}b`)).toBe(true);
    expect(globstars.test(Array(2000).fill('a').join('/'))).toBe(false);
    expect(globstars.test([...Array(2000).fill('a'), 'b'].join('/'))).toBe(true);
  });

  it('reads a trailing /** as zero or more segments after any segment', () => {
    const glob = compilePattern('a*/**');
    if (!glob.ok) throw new Error('not compiled');
    expect(['ab', 'ab/c', 'a/c/d', 'b'].map(glob.test)).toEqual([true, true, true, false]);
  });

  it('let * match nothing after a dot in *.* and **/*.*, as in every other pattern', () => {
    const starDotStar = compilePattern('*.*');
    const anywhere = compilePattern('**/*.*');
    const below = compilePattern('a/*.*');
    if (!starDotStar.ok || !anywhere.ok || !below.ok) throw new Error('not compiled');
    expect(['a.', 'a.b', '.a', 'ab', 'a/b.'].map(starDotStar.test)).toEqual([true, true, true, false, false]);
    expect(['a.', 'q/a.', 'q/r/a.b', 'q/ab'].map(anywhere.test)).toEqual([true, true, true, false]);
    expect(['a/b.', 'a/b.c', 'a/bc'].map(below.test)).toEqual([true, true, false]);
  });

  it('refuses more than two runs of * in a pattern that needs a regex', () => {
    expect(compilePattern('[ab]*x*')).toMatchObject({ ok: true });
    expect(compilePattern('[ab]*x*y*')).toEqual({ ok: false, message: 'Invalid pattern "[ab]*x*y*".' });
    expect(compilePattern('{a,b}/**/x*/**')).toEqual({ ok: false, message: 'Invalid pattern "{a,b}/**/x*/**".' });
    expect(compilePattern('a\\*b*c*')).toMatchObject({ ok: true });
  });

  it('refuses three or more backslashes in a row: picomatch collapses such a run, and never finished compiling one ending a pattern it tokenizes', () => {
    // Three first: were the check gone, this fails where the next would never return.
    expect(compilePattern('a/b\\\\\\')).toEqual({ ok: false, message: 'Invalid pattern "a/b\\\\\\\\\\\\".' });
    expect(compilePattern('!b\\\\\\\\')).toEqual({ ok: false, message: 'Invalid pattern "!b\\\\\\\\\\\\\\\\".' });
    // One or two are escapes as ever: an escaped backslash, then a class; an escaped bracket.
    const backslash = compilePattern('a\\\\[b]');
    const bracket = compilePattern('notes\\[1\\]');
    if (!backslash.ok || !bracket.ok) throw new Error('not compiled');
    expect(['a\\b', 'ab'].map(backslash.test)).toEqual([true, false]);
    expect(['notes[1]', 'notes1'].map(bracket.test)).toEqual([true, false]);
  });
});
