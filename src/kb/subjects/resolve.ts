/** Resolving subject patterns to slugs (content/reference/patterns.md). Pure functions over the available subjects. */
import { compilePattern } from '../patterns/glob.ts';
import { dropLeadingDots } from './slug.ts';

/** What resolution needs to know about a subject. */
export interface ResolvableSubject {
  slug: string;
  hidden: boolean;
}

/** How one pattern selected its subjects. */
export interface PatternMatch {
  pattern: string;
  /** True when the pattern selected one subject by exact equality, not as a glob. */
  exact: boolean;
  slugs: string[];
}

/** The outcome of resolving patterns. */
export type Resolution = { ok: true; slugs: string[]; matches: PatternMatch[] } | { ok: false; message: string; pattern: string };

/** Options of {@link resolvePatterns}. */
export interface ResolveOptions {
  /** Slugs that globs skip (the `learn` tool skips learned subjects: they are in the prompt). */
  skipInGlobs?: ReadonlySet<string>;
}

/**
 * Resolves patterns against subjects sorted by slug.
 *
 * Each pattern, in order: equal to a slug (as given, then with one leading `.` dropped from each
 * component) selects that subject, hidden or not; otherwise it is a glob over the visible
 * subjects. Results keep pattern order, each slug once at its first place.
 */
export function resolvePatterns(
  subjects: readonly ResolvableSubject[],
  bySlug: ReadonlyMap<string, ResolvableSubject>,
  patterns: readonly string[],
  options: ResolveOptions = {},
): Resolution {
  const seen = new Set<string>();
  const slugs: string[] = [];
  const matches: PatternMatch[] = [];
  for (const pattern of patterns) {
    const exact = exactSlug(bySlug, pattern);
    if (exact !== undefined) {
      matches.push({ pattern, exact: true, slugs: [exact] });
      if (!seen.has(exact)) {
        seen.add(exact);
        slugs.push(exact);
      }
      continue;
    }
    const compiled = compilePattern(pattern);
    if (!compiled.ok) return { ok: false, message: compiled.message, pattern };
    const selected: string[] = [];
    for (const subject of candidatesFor(subjects, bySlug, compiled.base)) {
      if (subject.hidden) continue;
      if (options.skipInGlobs?.has(subject.slug)) continue;
      if (!compiled.test(subject.slug)) continue;
      selected.push(subject.slug);
      if (!seen.has(subject.slug)) {
        seen.add(subject.slug);
        slugs.push(subject.slug);
      }
    }
    matches.push({ pattern, exact: false, slugs: selected });
  }
  return { ok: true, slugs, matches };
}

/**
 * The slugs a pattern names by exact equality, in the order they are tried: the pattern as given,
 * then with one leading `.` dropped from each component (once when both are the same).
 */
export function exactNames(pattern: string): string[] {
  const undotted = dropLeadingDots(pattern);
  return undotted === pattern ? [pattern] : [pattern, undotted];
}

/** The slug among `bySlug` a pattern names by exact equality ({@link exactNames}), if any. */
export function exactSlug(bySlug: ReadonlyMap<string, unknown>, pattern: string): string | undefined {
  return exactNames(pattern).find((slug) => bySlug.has(slug));
}

/**
 * The subjects a glob can match, in slug order: all of them, or, when every match lies below a
 * literal folder, that folder's subject and the ones below it, found by binary search.
 */
function candidatesFor(subjects: readonly ResolvableSubject[], bySlug: ReadonlyMap<string, ResolvableSubject>, base: string): Iterable<ResolvableSubject> {
  if (base === '') return subjects;
  const prefix = `${base}/`;
  let low = 0;
  let high = subjects.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (subjects[middle]!.slug < prefix) low = middle + 1;
    else high = middle;
  }
  const range: ResolvableSubject[] = [];
  const self = bySlug.get(base);
  if (self) range.push(self);
  for (let i = low; i < subjects.length && subjects[i]!.slug.startsWith(prefix); i++) range.push(subjects[i]!);
  return range;
}
