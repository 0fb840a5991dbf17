/**
 * A matcher in linear-ish time for the patterns that need no regex feature beyond wildcards:
 * literal characters, `?`, `*` and `**` segments — the patterns agents write most, and the ones a
 * backtracking regex engine can be made to spend minutes on (`*a*a*a*a*b` against a long name).
 * Same meaning as the pattern dialect (content/reference/patterns.md): `?` one character but `/`,
 * `*` any run of them, `**` as a whole segment zero or more segments, other runs of `*` as `*`. Both levels match greedily, going back only to the last wildcard: at most the product of
 * the lengths, never exponential. Pure.
 */

/** A pattern this matcher takes: no `[`, `]`, `{`, `}` or `\`, no empty, `.` or `..` segment. */
export function isWildcardOnly(pattern: string): boolean {
  if (/[[\]{}\\]/.test(pattern)) return false;
  return pattern.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** The predicate of a pattern {@link isWildcardOnly} accepts, over slugs whose dot segments are masked. */
export function compileWildcards(pattern: string): (slug: string) => boolean {
  const segments = pattern.split('/').map((segment) => (segment === '**' ? GLOBSTAR : segment.replace(/\*{2,}/g, '*')));
  return (slug) => matchSegments(segments, slug.split('/'));
}

/** A `**` segment of a pattern. */
const GLOBSTAR = null;

/** Whether a slug's segments match a pattern's (`null` for `**`: zero or more segments). */
function matchSegments(pattern: readonly (string | null)[], segments: readonly string[]): boolean {
  return matchWildcards(pattern, segments, GLOBSTAR, (wanted, segment) => matchSegment(wanted!, segment));
}

/** Whether one segment matches one segment of a pattern: `?` is one UTF-16 code unit (as the dialect's regex reads it), `*` any run. */
function matchSegment(pattern: string, segment: string): boolean {
  return pattern === segment || matchWildcards(pattern, segment, '*', (token, unit) => token === '?' || token === unit);
}

/**
 * The classic wildcard walk over `items`, where `wild` in `pattern` matches any run of items and
 * every other token one item that `one` accepts: on a mismatch, the last wildcard takes one more
 * item and the rest is tried again. At most the product of the lengths, never exponential.
 */
function matchWildcards<T, I>(pattern: ArrayLike<T>, items: ArrayLike<I>, wild: T, one: (token: T, item: I) => boolean): boolean {
  let p = 0;
  let i = 0;
  let starP = -1;
  let starI = 0;
  while (i < items.length) {
    if (p < pattern.length && pattern[p] === wild) {
      starP = p++;
      starI = i;
    } else if (p < pattern.length && one(pattern[p]!, items[i]!)) {
      p++;
      i++;
    } else if (starP >= 0) {
      p = starP + 1;
      i = ++starI;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === wild) p++;
  return p === pattern.length;
}
