import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/kb/patterns/glob.ts';
import { resolvePatterns } from '../../../src/kb/subjects/resolve.ts';
import { dropLeadingDots } from '../../../src/kb/subjects/slug.ts';
import { collectSubjects, removeDisabled, type Subject } from '../../../src/kb/subjects/subjects.ts';

/** Subjects of a topic from relative paths, as the walker would report them. */
function subjectsOf(paths: readonly string[]): Subject[] {
  return collectSubjects(
    paths.map((p) => ({ path: p, file: `/kb/topic/${p}` })),
    'topic',
  ).subjects;
}

/** Slugs selected by patterns, the way `learn` resolves them (disabled removed first). */
function resolve(paths: readonly string[], patterns: readonly string[], options: { disabled?: string[]; learned?: string[] } = {}): string[] | string {
  const subjects = removeDisabled(subjectsOf(paths), options.disabled ?? []).subjects;
  const bySlug = new Map(subjects.map((s) => [s.slug, s]));
  const result = resolvePatterns(subjects, bySlug, patterns, { skipInGlobs: new Set(options.learned ?? []) });
  return result.ok ? result.slugs : result.message;
}

const TREE = [
  'code-quality.md',
  'maintainers/jean.md',
  'maintainers/ryan.md',
  'maintainers/.secret.md',
  'maintainers/team/lead.md',
  '.internal-notes.md',
  'ast-grep/.rules.md',
  'ast-grep/intro.md',
  '.hidden-dir/visible.md',
  'drafts/idea.md',
  'clang++.md',
  '!bang.md',
  '@(x).md',
  'Upper.md',
];

describe('resolvePatterns (content/reference/patterns.md)', () => {
  it('selects a hidden subject by its exact slug', () => {
    expect(resolve(TREE, ['internal-notes'])).toEqual(['internal-notes']);
    expect(resolve(TREE, ['ast-grep/rules'])).toEqual(['ast-grep/rules']);
    expect(resolve(TREE, ['hidden-dir/visible'])).toEqual(['hidden-dir/visible']);
  });

  it('retries with one leading dot dropped from each component', () => {
    expect(resolve(TREE, ['ast-grep/.rules'])).toEqual(['ast-grep/rules']);
    expect(resolve(TREE, ['.internal-notes'])).toEqual(['internal-notes']);
    expect(resolve(TREE, ['.hidden-dir/visible'])).toEqual(['hidden-dir/visible']);
  });

  it('tests exact equality before globbing', () => {
    expect(resolve(['a/[b].md', 'a/b.md'], ['a/[b]'])).toEqual(['a/[b]']);
    expect(resolve(['x/{a,b}.md', 'x/a.md', 'x/b.md'], ['x/{a,b}'])).toEqual(['x/{a,b}']);
    expect(resolve(['star/*.md', 'star/a.md'], ['star/*'])).toEqual(['star/*']);
  });

  it('never globs hidden subjects', () => {
    expect(resolve(TREE, ['**'])).toEqual([
      '!bang',
      '@(x)',
      'Upper',
      'ast-grep/intro',
      'clang++',
      'code-quality',
      'drafts/idea',
      'maintainers/jean',
      'maintainers/ryan',
      'maintainers/team/lead',
    ]);
    expect(resolve(TREE, ['ast-grep/*'])).toEqual(['ast-grep/intro']);
    expect(resolve(TREE, ['hidden-dir/*'])).toEqual([]);
    expect(resolve(TREE, ['*notes'])).toEqual([]);
  });

  it('reads * and ? within one component, ** across components', () => {
    expect(resolve(TREE, ['maintainers/*'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(resolve(TREE, ['maintainers/**'])).toEqual(['maintainers/jean', 'maintainers/ryan', 'maintainers/team/lead']);
    expect(resolve(TREE, ['*/lead'])).toEqual([]);
    expect(resolve(TREE, ['**/lead'])).toEqual(['maintainers/team/lead']);
    expect(resolve(TREE, ['maintainers/????'])).toEqual(['maintainers/jean', 'maintainers/ryan', 'maintainers/team/lead'].filter((s) => s.split('/').length === 2));
    expect(resolve(TREE, ['maintainers?jean'])).toEqual([]);
  });

  it('lets dir/** match the subject named dir', () => {
    expect(resolve(['dir.md', 'dir/a.md', 'dirt.md'], ['dir/**'])).toEqual(['dir', 'dir/a']);
  });

  it('supports [abc], {a,b} and \\ escapes; is case-sensitive', () => {
    expect(resolve(TREE, ['maintainers/[jr]*'])).toEqual(['maintainers/jean', 'maintainers/ryan']);
    expect(resolve(TREE, ['{code-quality,drafts/idea}'])).toEqual(['code-quality', 'drafts/idea']);
    expect(resolve(TREE, ['clang\\+\\+'])).toEqual(['clang++']);
    expect(resolve(['a*b.md', 'axb.md'], ['a\\*?'])).toEqual(['a*b']);
    expect(resolve(TREE, ['upper'])).toEqual([]);
    expect(resolve(TREE, ['u*'])).toEqual([]);
    expect(resolve(TREE, ['U*'])).toEqual(['Upper']);
  });

  it('reads a leading ! as an ordinary character, not a negation', () => {
    expect(resolve(TREE, ['!b*'])).toEqual(['!bang']);
    expect(resolve(TREE, ['!code-quality*'])).toEqual([]);
  });

  it.each([
    [['@(x)y.md', 'xy.md'], '@(x)*', ['@(x)y']],
    [['+(a)b.md', 'ab.md', 'aab.md'], '+(a)*', ['+(a)b']],
    [['@(a|b)c.md', '@ac.md', 'ac.md'], '@(a|b)*', ['@(a|b)c']],
    [['*(a)b.md', 'b.md', 'aab.md'], '*(a)?', ['*(a)b']],
  ])('reads @(…)-style groups as ordinary characters, not extglobs: %j with %s', (paths, pattern, slugs) => {
    expect(resolve(paths, [pattern])).toEqual(slugs);
  });

  it('keeps pattern order, each slug once at its first place', () => {
    expect(resolve(TREE, ['maintainers/ryan', 'maintainers/*', 'code-quality', 'maintainers/jean'])).toEqual(['maintainers/ryan', 'maintainers/jean', 'code-quality']);
  });

  it('skips learned subjects in globs, not by exact slug', () => {
    const learned = ['maintainers/jean'];
    expect(resolve(TREE, ['maintainers/*'], { learned })).toEqual(['maintainers/ryan']);
    expect(resolve(TREE, ['maintainers/jean'], { learned })).toEqual(['maintainers/jean']);
  });

  it('never selects a disabled subject, even by exact slug', () => {
    const disabled = ['drafts/**', 'ast-grep/rules', 'maintainers/.secret'];
    expect(resolve(TREE, ['drafts/idea', 'ast-grep/rules', 'ast-grep/.rules', 'maintainers/secret'], { disabled })).toEqual([]);
    expect(resolve(TREE, ['drafts/*'], { disabled })).toEqual([]);
  });

  it('returns the invalid-pattern error for a pattern that cannot be compiled', () => {
    const long = 'a'.repeat(70000);
    expect(compilePattern(long)).toEqual({ ok: false, message: `Invalid pattern "${long}".` });
    expect(resolve(TREE, ['code-quality', long])).toBe(`Invalid pattern "${long}".`);
  });
});

describe('removeDisabled (content/guide/concepts/disabled-subjects.md)', () => {
  it('lets disabled globs reach hidden subjects, and reports unmatched entries', () => {
    const result = removeDisabled(subjectsOf(TREE), ['maintainers/*', 'ast-grep/**', 'nothing/**', 'hidden-dir/visible']);
    expect(result.subjects.map((s) => s.slug)).toEqual(['!bang', '@(x)', 'Upper', 'clang++', 'code-quality', 'drafts/idea', 'internal-notes', 'maintainers/team/lead']);
    expect(result.unmatched).toEqual(['nothing/**']);
  });

  it('lets ** disable every subject, including those whose slug is "." or ".." (from ...md and ....md)', () => {
    const subjects = subjectsOf(['...md', '....md', 'a/...md', '..md', 'b.md']);
    expect(subjects.map((s) => s.slug)).toEqual(['.', '..', '.md', 'a/.', 'b']);
    expect(removeDisabled(subjects, ['**']).subjects).toEqual([]);
    expect(removeDisabled(subjects, ['*']).subjects.map((s) => s.slug)).toEqual(['a/.']);
    expect(removeDisabled(subjects, ['a/*']).subjects.map((s) => s.slug)).toEqual(['.', '..', '.md', 'b']);
  });
});

/** A path component: optional leading dots, odd characters, optional extension. */
const component = fc
  .tuple(
    fc.constantFrom('', '', '.', '..'),
    fc.string({
      unit: fc.constantFrom('a', 'b', 'B', '1', '-', '_', ' ', '~', '+', '.', 'é', '中', '[', ']', '{', '}', ',', '(', ')', '!', '@', '*', '?'),
      minLength: 1,
      maxLength: 4,
    }),
    fc.constantFrom('', '.md', '.toml', '.txt', '.'),
  )
  .map(([prefix, body, ext]) => prefix + body + ext)
  .filter((name) => name !== '.' && name !== '..');

const paths = fc.uniqueArray(
  fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
  { minLength: 1, maxLength: 12 },
);

/** Patterns: globs of every kind, and slugs of the generated subjects (with and without dots). */
function patternsFor(subjects: readonly Subject[]): fc.Arbitrary<string[]> {
  const fromSubjects = subjects.flatMap((s) => [s.slug, s.path.replace(/\.[^./]*$/, ''), `${s.slug.split('/')[0]}/**`, `${s.slug.split('/')[0]}/*`, `.${s.slug}`]);
  const globs = ['**', '*', '*/*', '**/*', '?*', '[ab]*', '{a,b}*', '*.*', '.*', '**/.*', '*/**', '!*', '@(a)*', '*a*', 'a/**', '**/b'];
  const pool = fc.oneof(
    fc.constantFrom(...globs, ...fromSubjects),
    fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '/', '.', '[', ']', '{', '}', ',', '!', '\\'), maxLength: 6 }),
  );
  return fc.array(pool, { minLength: 1, maxLength: 5 });
}

const world = paths.chain((ps) => {
  const subjects = subjectsOf(ps);
  return fc.record({
    subjects: fc.constant(subjects),
    patterns: patternsFor(subjects),
    disabled: fc.subarray(subjects.map((s) => s.slug)),
    learned: fc.subarray(subjects.map((s) => s.slug)),
  });
});

/** Whether a pattern names a subject by exact equality (as given, or with leading dots dropped). */
const isExact = (slugs: ReadonlySet<string>, pattern: string): boolean => slugs.has(pattern) || slugs.has(dropLeadingDots(pattern));

describe('resolvePatterns properties', () => {
  it('globs never return hidden subjects', () => {
    fc.assert(
      fc.property(world, ({ subjects, patterns }) => {
        const bySlug = new Map(subjects.map((s) => [s.slug, s]));
        const globs = patterns.filter((p) => !isExact(new Set(bySlug.keys()), p));
        const result = resolvePatterns(subjects, bySlug, globs);
        if (!result.ok) return;
        for (const slug of result.slugs) expect(bySlug.get(slug)!.hidden, slug).toBe(false);
      }),
    );
  });

  it('hidden (and visible) subjects load by exact slug, and by the dotted path', () => {
    fc.assert(
      fc.property(world, ({ subjects }) => {
        const bySlug = new Map(subjects.map((s) => [s.slug, s]));
        for (const subject of subjects) {
          expect(resolvePatterns(subjects, bySlug, [subject.slug])).toMatchObject({ ok: true, slugs: [subject.slug] });
          const dotted = subject.path.replace(/\.[^./]*$/, '');
          if (!isExact(new Set([...bySlug.keys()].filter((k) => k !== subject.slug)), dotted) && dropLeadingDots(dotted) === subject.slug) {
            expect(resolvePatterns(subjects, bySlug, [dotted])).toMatchObject({ ok: true, slugs: [subject.slug] });
          }
        }
      }),
    );
  });

  it('disabled subjects are never returned, even by exact slug', () => {
    fc.assert(
      fc.property(world, ({ subjects, patterns, disabled }) => {
        const available = removeDisabled(subjects, disabled).subjects;
        const bySlug = new Map(available.map((s) => [s.slug, s]));
        const result = resolvePatterns(available, bySlug, [...patterns, ...disabled]);
        if (!result.ok) return;
        for (const slug of result.slugs) expect(disabled).not.toContain(slug);
      }),
    );
  });

  it('a disabled glob removes every subject it matches, hidden or not', () => {
    fc.assert(
      fc.property(world, ({ subjects }) => {
        const prefix = subjects[0]!.slug.split('/')[0]!;
        fc.pre(!subjects.some((s) => s.slug === `${prefix}/**`) && !/[[\]{}()*?!@\\+]/.test(prefix) && prefix !== '.' && prefix !== '..'); // picomatch reads a leading ./ as nothing
        const left = removeDisabled(subjects, [`${prefix}/**`]).subjects.map((s) => s.slug);
        expect(left).toEqual(subjects.map((s) => s.slug).filter((s) => s !== prefix && !s.startsWith(`${prefix}/`)));
      }),
    );
  });

  it('is deterministic, de-duplicated, keeps first places and puts each glob in slug order', () => {
    fc.assert(
      fc.property(world, ({ subjects, patterns, learned }) => {
        const bySlug = new Map(subjects.map((s) => [s.slug, s]));
        const options = { skipInGlobs: new Set(learned) };
        const result = resolvePatterns(subjects, bySlug, patterns, options);
        expect(resolvePatterns(subjects, bySlug, patterns, options)).toEqual(result);
        if (!result.ok) return;
        expect(new Set(result.slugs).size).toBe(result.slugs.length);
        const expected: string[] = [];
        for (const pattern of patterns) {
          const one = resolvePatterns(subjects, bySlug, [pattern], options);
          if (!one.ok) throw new Error('a pattern failed alone but not together');
          const sorted = [...one.slugs].sort();
          if (!isExact(new Set(bySlug.keys()), pattern)) expect(one.slugs).toEqual(sorted);
          for (const slug of one.slugs) if (!expected.includes(slug)) expected.push(slug);
        }
        expect(result.slugs).toEqual(expected);
      }),
    );
  });

  it('globs for the learn tool skip learned subjects', () => {
    fc.assert(
      fc.property(world, ({ subjects, patterns, learned }) => {
        const bySlug = new Map(subjects.map((s) => [s.slug, s]));
        const globs = patterns.filter((p) => !isExact(new Set(bySlug.keys()), p));
        const result = resolvePatterns(subjects, bySlug, globs, { skipInGlobs: new Set(learned) });
        if (!result.ok) return;
        for (const slug of result.slugs) expect(learned).not.toContain(slug);
      }),
    );
  });
});
