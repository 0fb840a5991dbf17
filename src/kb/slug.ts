/** Slugs and hidden subjects (SPEC 2 and 10). Pure functions over relative paths. */

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
