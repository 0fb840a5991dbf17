/** The `.gitignore` lines `init` adds: the built site and the build cache. */

/** The lines Syllabus's output needs in `.gitignore`: the site (`dist/` in the repository root) and the cache (`.syllabus-cache/` beside kb.toml). */
export const GITIGNORE_LINES = ['dist/', '.syllabus-cache/'] as const;

/** A `.gitignore` with the missing lines appended. */
export interface GitignoreEdit {
  /** The new text; equal to the old one when nothing was missing. */
  text: string;
  /** The lines appended. */
  added: string[];
}

/**
 * Appends to a `.gitignore` (`undefined` when there is none) the lines it lacks, keeping its text
 * and line endings and ending it with a line break. A line counts as there when it is written with
 * or without its trailing `/`; `dist/` also when anchored (`/dist/`), since the site is built in
 * the repository root (the cache, beside kb.toml, is usually not).
 */
export function addGitignoreLines(existing: string | undefined, lines: readonly string[] = GITIGNORE_LINES): GitignoreEdit {
  const text = existing ?? '';
  const present = new Set(text.split(/\r?\n/).map((line) => withoutTrailingSlash(line.trim())));
  const isPresent = (line: string): boolean => present.has(withoutTrailingSlash(line)) || (line === 'dist/' && present.has('/dist'));
  const added = lines.filter((line) => !isPresent(line));
  if (added.length === 0) return { text, added };
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const separator = text === '' || text.endsWith('\n') ? '' : newline;
  return { text: `${text}${separator}${added.join(newline)}${newline}`, added };
}

function withoutTrailingSlash(line: string): string {
  return line.endsWith('/') ? line.slice(0, -1) : line;
}
