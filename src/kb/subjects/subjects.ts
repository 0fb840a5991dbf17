/** From walked files to subjects (content/guide/concepts/): slugs, hidden, duplicates, disabled. Pure. */
import { compareStrings, type Diagnostic } from '../diagnostics/diagnostics.ts';
import { createDisabledMatcher } from './disabled.ts';
import { formatOf, isPassThrough, type SubjectFormat } from './format.ts';
import type { Learning } from '../learnings/store.ts';
import { slugOf } from './slug.ts';
import type { SubjectSource } from '../url-sources/document.ts';
import type { WalkedFile } from './walk.ts';

/** One subject of a topic. */
export interface Subject {
  slug: string;
  /** Path relative to the topic folder, `/`-separated, names as on disk. */
  path: string;
  /** Absolute path of the file. */
  file: string;
  hidden: boolean;
  /** Last extension, lower case, `''` when none. */
  extension: string;
  format: SubjectFormat;
  /**
   * For a subject of a learnings store (content/reference/cli/learnings.md): the learning and the
   * line of its entry in `file` (the store). Its content is rendered from the learning, never read
   * from `file`.
   */
  learning?: { entry: Learning; line: number };
  /**
   * For a URL source (content/reference/subject-formats.md): its URL, its line in `file` (the
   * topic's `links.txt`) and the document the host fetched. Its content is the document's, never
   * read from `file`; its `path` is the URL.
   */
  source?: SubjectSource;
}

/** Turns a walked file into a subject: hidden by its path, or by the hidden target of its symlink. */
export function subjectOf(walked: WalkedFile): Subject {
  const { slug, hidden, extension } = slugOf(walked.path);
  return { slug, path: walked.path, file: walked.file, hidden: hidden || walked.hiddenByLink === true, extension, format: formatOf(extension) };
}

/**
 * Which of two subjects with one slug wins: visible, then pass-through, then a file before a URL
 * source, then path order (URL sources: the earlier line of `links.txt`).
 */
export function compareCandidates(a: Subject, b: Subject): number {
  if (a.hidden !== b.hidden) return a.hidden ? 1 : -1;
  const aPass = isPassThrough(a.format);
  if (aPass !== isPassThrough(b.format)) return aPass ? -1 : 1;
  if (a.source || b.source) return !a.source ? -1 : !b.source ? 1 : a.source.line - b.source.line;
  return compareStrings(a.path, b.path);
}

/** The subjects of a topic, sorted by slug, and the collisions found. */
export interface CollectedSubjects {
  subjects: Subject[];
  bySlug: Map<string, Subject>;
  diagnostics: Diagnostic[];
}

/**
 * Builds the subjects of a topic from its files: one per slug (a collision is a content error
 * naming every file; the winner is chosen as content/reference/diagnostics.md, "Content errors",
 * says), sorted by slug.
 */
export function collectSubjects(files: readonly WalkedFile[], topicId: string): CollectedSubjects {
  const collector = createSubjectCollector(topicId);
  for (const file of files) collector.add(file.path, file.file, file.hiddenByLink === true);
  return collector.finish();
}

/** Collects subjects one file at a time (see {@link collectSubjects}), so a walk needs no file list. */
export function createSubjectCollector(topicId: string): {
  add: (path: string, file: string, hiddenByLink?: boolean) => void;
  addSubject: (subject: Subject) => void;
  finish: () => CollectedSubjects;
} {
  const bySlug = new Map<string, Subject>();
  const collisions = new Map<string, Subject[]>();
  const addSubject = (subject: Subject): void => {
    const slug = subject.slug;
    const existing = bySlug.get(slug);
    if (existing === undefined) {
      bySlug.set(slug, subject);
      return;
    }
    const candidates = collisions.get(slug) ?? [existing];
    candidates.push(subject);
    candidates.sort(compareCandidates);
    collisions.set(slug, candidates);
    bySlug.set(slug, candidates[0]!);
  };
  return {
    add(path, file, hiddenByLink) {
      addSubject(subjectOf(hiddenByLink ? { path, file, hiddenByLink } : { path, file }));
    },
    addSubject,
    finish() {
      const diagnostics: Diagnostic[] = [];
      for (const [slug, candidates] of collisions) {
        diagnostics.push(duplicateSlugDiagnostic(topicId, slug, candidates));
      }
      // The native sort of strings is JavaScript's default order, and much faster than a comparator.
      const subjects = [...bySlug.keys()].sort().map((slug) => bySlug.get(slug)!);
      return { subjects, bySlug, diagnostics };
    },
  };
}

/** The subjects left once `disabled` entries are applied, and the entries that matched nothing. */
export interface EnabledSubjects {
  subjects: Subject[];
  bySlug: Map<string, Subject>;
  unmatched: string[];
}

/**
 * Removes disabled subjects: those an entry covers as an exact slug or as a glob, hidden ones
 * included (see {@link createDisabledMatcher}). `bySlug` may be passed when already built.
 */
export function removeDisabled(
  subjects: readonly Subject[],
  disabled: readonly string[],
  bySlug: Map<string, Subject> = new Map(subjects.map((s) => [s.slug, s])),
): EnabledSubjects {
  if (disabled.length === 0) return { subjects: [...subjects], bySlug, unmatched: [] };
  const matcher = createDisabledMatcher(disabled, (slug) => bySlug.has(slug));
  const matched = new Set<number>();
  const enabled = subjects.filter((subject) => {
    if (matched.size === disabled.length) return !matcher.covers(subject.slug);
    const covering = matcher.coveringEntries(subject.slug);
    for (const index of covering) matched.add(index);
    return covering.length === 0;
  });
  return {
    subjects: enabled,
    bySlug: enabled.length === subjects.length ? bySlug : new Map(enabled.map((s) => [s.slug, s])),
    unmatched: disabled.filter((_, index) => !matched.has(index)),
  };
}

/**
 * The content error for subjects that share a slug, `candidates` sorted winner first. A URL source
 * is named by its line of `links.txt` and its URL; the error points at the first one's line when a
 * URL source is involved.
 */
export function duplicateSlugDiagnostic(topicId: string, slug: string, candidates: readonly Subject[]): Diagnostic {
  const names = candidates.map((c) => (c.source ? `links.txt line ${c.source.line} (${c.source.url})` : c.path));
  const listed = candidates.find((c) => c.source);
  return {
    kind: 'content-error',
    code: 'duplicate-slug',
    message: `Duplicate slug ${JSON.stringify(slug)} in topic "${topicId}": ${names.join(', ')} all have it; ${names[0]} is used. Rename or remove the others.`,
    file: (listed ?? candidates[0]!).file,
    ...(listed ? { line: listed.source!.line } : {}),
  };
}
