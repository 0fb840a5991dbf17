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

/**
 * Whether a slug's segments match a pattern's (`null` for `**`: zero or more segments). The classic
 * wildcard walk: on a mismatch, the last `**` takes one more segment and the rest is tried again.
 */
function matchSegments(pattern: readonly (string | null)[], segments: readonly string[]): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < segments.length) {
    if (p < pattern.length && pattern[p] === GLOBSTAR) {
      starP = p++;
      starS = s;
    } else if (p < pattern.length && matchSegment(pattern[p]!, segments[s]!)) {
      p++;
      s++;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === GLOBSTAR) p++;
  return p === pattern.length;
}

/**
 * Whether one segment matches one segment of a pattern: `?` is one UTF-16 code unit (as the
 * dialect's regex reads it), `*` any run; on a mismatch the last `*` takes one more unit.
 */
function matchSegment(pattern: string, segment: string): boolean {
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < segment.length) {
    const token = pattern[p];
    if (token === '*') {
      starP = p++;
      starS = s;
    } else if (token !== undefined && (token === '?' || token === segment[s])) {
      p++;
      s++;
    } else if (starP >= 0) {
      p = starP + 1;
      s = ++starS;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}
