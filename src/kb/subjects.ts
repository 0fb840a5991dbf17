/** From walked files to subjects (SPEC 2): slugs, hidden, duplicates, disabled. Pure. */
import { compareStrings, type Diagnostic } from './diagnostics.ts';
import { formatOf, isPassThrough, type SubjectFormat } from './format.ts';
import { resolvePatterns } from './resolve.ts';
import { slugOf } from './slug.ts';
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
}

/** Turns a walked file into a subject. */
export function subjectOf(walked: WalkedFile): Subject {
  const { slug, hidden, extension } = slugOf(walked.path);
  return { slug, path: walked.path, file: walked.file, hidden, extension, format: formatOf(extension) };
}

/** Which of two files with one slug wins: visible, then pass-through, then path order. */
function compareCandidates(a: Subject, b: Subject): number {
  if (a.hidden !== b.hidden) return a.hidden ? 1 : -1;
  const aPass = isPassThrough(a.format);
  if (aPass !== isPassThrough(b.format)) return aPass ? -1 : 1;
  return compareStrings(a.path, b.path);
}

/** The subjects of a topic, sorted by slug, and the collisions found. */
export interface CollectedSubjects {
  subjects: Subject[];
  diagnostics: Diagnostic[];
}

/**
 * Builds the subjects of a topic from its files: one per slug (a collision is a content error
 * naming every file; the winner is chosen as SPEC 2 says), sorted by slug.
 */
export function collectSubjects(files: readonly WalkedFile[], topicId: string): CollectedSubjects {
  const bySlug = new Map<string, Subject[]>();
  for (const file of files) {
    const subject = subjectOf(file);
    const list = bySlug.get(subject.slug);
    if (list) list.push(subject);
    else bySlug.set(subject.slug, [subject]);
  }
  const subjects: Subject[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [slug, candidates] of bySlug) {
    if (candidates.length > 1) {
      candidates.sort(compareCandidates);
      const paths = candidates.map((c) => c.path);
      diagnostics.push({
        kind: 'content-error',
        code: 'duplicate-slug',
        message: `Duplicate slug ${JSON.stringify(slug)} in topic "${topicId}": ${paths.join(', ')} all have it; ${paths[0]} is used. Rename or remove the others.`,
        file: candidates[0]!.file,
      });
    }
    subjects.push(candidates[0]!);
  }
  subjects.sort((a, b) => compareStrings(a.slug, b.slug));
  return { subjects, diagnostics };
}

/** The subjects left once `disabled` entries are applied, and the entries that matched nothing. */
export interface EnabledSubjects {
  subjects: Subject[];
  unmatched: string[];
}

/**
 * Removes disabled subjects: an entry equal to a slug disables that subject, otherwise it is a
 * glob over every subject, hidden ones included.
 */
export function removeDisabled(subjects: readonly Subject[], disabled: readonly string[]): EnabledSubjects {
  if (disabled.length === 0) return { subjects: [...subjects], unmatched: [] };
  const bySlug = new Map(subjects.map((s) => [s.slug, s]));
  const resolution = resolvePatterns(subjects, bySlug, disabled, { globHidden: true });
  // Config validation compiles every entry, so resolution cannot fail here.
  if (!resolution.ok) throw new Error(resolution.message);
  const gone = new Set(resolution.slugs);
  return {
    subjects: subjects.filter((s) => !gone.has(s.slug)),
    unmatched: resolution.matches.filter((m) => m.slugs.length === 0).map((m) => m.pattern),
  };
}
