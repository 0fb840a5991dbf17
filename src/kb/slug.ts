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
  const components = relativePath.split('/');
  const hidden = components.some((c) => c.startsWith('.'));
  const stripped = components.map((c) => (c.startsWith('.') ? c.slice(1) : c));
  const name = stripped[stripped.length - 1] ?? '';
  const dot = name.lastIndexOf('.');
  let extension = '';
  if (dot > 0) {
    extension = name.slice(dot + 1).toLowerCase();
    stripped[stripped.length - 1] = name.slice(0, dot);
  }
  return { slug: stripped.join('/'), hidden, extension };
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
