/** Slugs and hidden subjects (content/guide/concepts/slugs.md; every edge case in content/reference/.internals/slug-algorithm.md). Pure functions over relative paths. */

/** What a subject's relative path says about it. */
export interface SlugParts {
  /** The slug: each component without one leading `.`, the file name without its last extension. */
  slug: string;
  /** True when any component of the path starts with `.`. */
  hidden: boolean;
  /** The last extension in lower case, without the dot; `''` when there is none. */
  extension: string;
}

/**
 * Computes the slug of a file from its path relative to the topic folder (`/` separators).
 *
 * Steps, in order: drop one leading `.` from each component, then strip the last extension from
 * the file name unless that would leave it empty (`.gitignore` → `gitignore`, `..md` → `.md`).
 */
export function slugOf(relativePath: string): SlugParts {
  const hidden = relativePath.startsWith('.') || relativePath.includes('/.');
  const stripped = hidden ? dropLeadingDots(relativePath) : relativePath;
  const nameStart = stripped.lastIndexOf('/') + 1;
  const dot = stripped.lastIndexOf('.');
  if (dot <= nameStart) return { slug: stripped, hidden, extension: '' };
  return { slug: stripped.slice(0, dot), hidden, extension: stripped.slice(dot + 1).toLowerCase() };
}

/**
 * Drops one leading `.` from each `/`-separated component of a pattern or slug
 * (`ast-grep/.rules` → `ast-grep/rules`).
 */
export function dropLeadingDots(value: string): string {
  return value
    .split('/')
    .map((c) => (c.startsWith('.') ? c.slice(1) : c))
    .join('/');
}

/**
 * A control character (line breaks included, Unicode's line and paragraph separators too), `"`,
 * `<` or `>`: what would let a name break the `<subject "…">` framing or a listing line of what
 * agents read (content/guide/concepts/slugs.md).
 */
const UNSAFE_NAME_CHARACTER = /[\p{Cc}\u2028\u2029"<>]/u;

/** Whether a file or folder name (or a slug) holds a character agents could be misled by. */
export function isUnsafeName(name: string): boolean {
  return UNSAFE_NAME_CHARACTER.test(name);
}

/** The characters the pattern dialect reads as more than themselves: `*`, `?`, `[`, `]`, `{`, `}`, `\`. */
const GLOB_CHARACTER = /[*?[\]{}\\]/;

/** Whether a name holds a character that a pattern reads as a glob. */
export function holdsGlobCharacters(name: string): boolean {
  return GLOB_CHARACTER.test(name);
}
