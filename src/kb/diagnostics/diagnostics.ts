/**
 * The one list of diagnostics shared by `check`, the build and the CLI
 * (content/reference/diagnostics.md).
 *
 * Every diagnostic says what happened and how to fix it, and names the file (with a line where
 * one is known) or the dotted config path it is about.
 */
import path from 'node:path';

/** How serious a diagnostic is; decides exit codes and whether a command goes on. */
export type DiagnosticKind = 'config-error' | 'content-error' | 'warning';

/** Stable identifiers of every diagnostic Syllabus reports. */
export type DiagnosticCode =
  // configuration errors
  | 'config-unreadable'
  | 'toml-syntax'
  | 'unknown-key'
  | 'wrong-type'
  | 'missing-subjects'
  | 'subjects-and-learnings'
  | 'bad-topic-id'
  | 'reserved-topic-id'
  | 'escaping-subjects'
  | 'invalid-pattern'
  | 'unknown-profile-topic'
  | 'missing-summaries-key'
  | 'missing-eval-key'
  | 'bad-summaries-endpoint'
  | 'bad-path'
  | 'bad-site-file'
  | 'bad-url'
  | 'bad-base'
  | 'bad-text'
  | 'bad-name'
  | 'unknown-code'
  | 'bad-questions'
  // content errors
  | 'duplicate-slug'
  | 'missing-folder'
  | 'missing-store'
  | 'invalid-store'
  | 'duplicate-question'
  | 'unknown-expected'
  | 'disabled-expected'
  // warnings
  | 'unknown-table'
  | 'no-topics'
  | 'skipped-symlink'
  | 'hidden-symlink'
  | 'unsafe-name'
  | 'glob-name'
  | 'symlink-cycle'
  | 'unreadable'
  | 'special-file'
  | 'binary'
  | 'oversized'
  | 'non-utf8'
  | 'front-matter'
  | 'unmatched-learned'
  | 'unmatched-disabled'
  | 'subject-tokens'
  | 'knowledge-tokens'
  | 'profile-topic-disabled'
  | 'invalid-learning'
  | 'invalid-source'
  | 'duplicate-source'
  | 'source-not-fetched'
  | 'source-failed'
  | 'no-site-url'
  | 'summary-failed'
  // warnings of `check` only (src/kb/checks/)
  | 'broken-link'
  | 'broken-mention'
  | 'near-duplicate'
  | 'missing-title'
  | 'skill-name'
  | 'skill-name-mismatch'
  | 'skill-description'
  | 'skill-compatibility'
  | 'mdx-syntax';

/** One finding about the configuration or the content. */
export interface Diagnostic {
  kind: DiagnosticKind;
  code: DiagnosticCode;
  /** What happened, then how to fix it. One line. */
  message: string;
  /** The file concerned, as an absolute path. */
  file?: string;
  /** 1-based line in `file`, when known. */
  line?: number;
  /** 1-based column in `file`, when known. */
  column?: number;
}

/** Whether any diagnostic is a configuration error (exit 2 for every command). */
export function hasConfigErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.kind === 'config-error');
}

/** Whether any diagnostic is a content error (exit 1 for `check` and the build). */
export function hasContentErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.kind === 'content-error');
}

/** Diagnostics in a stable order: by file, line, column, then as reported. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => compareStrings(a.d.file ?? '', b.d.file ?? '') || (a.d.line ?? 0) - (b.d.line ?? 0) || (a.d.column ?? 0) - (b.d.column ?? 0) || a.i - b.i)
    .map(({ d }) => d);
}

/** JavaScript's default string order, as a comparator. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** How messages name a file: relative to `cwd`, or absolute when it lies outside it. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative === '' || relative.startsWith('..') ? file : relative;
}

/** `1 subject`, `2 subjects`: a count with its word. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** Formats a diagnostic's place: `path:line:column` relative to `cwd` (absolute when outside it). */
export function formatPlace(diagnostic: Diagnostic, cwd: string): string {
  if (!diagnostic.file) return '';
  let place = displayPath(diagnostic.file, cwd);
  if (diagnostic.line) place += `:${diagnostic.line}`;
  if (diagnostic.line && diagnostic.column) place += `:${diagnostic.column}`;
  return place;
}

/** One line for a diagnostic: `place: message`. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd: string): string {
  const place = formatPlace(diagnostic, cwd);
  return place ? `${place}: ${diagnostic.message}` : diagnostic.message;
}
