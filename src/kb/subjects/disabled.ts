/**
 * Which subjects a topic's `disabled` entries switch off (content/guide/concepts/disabled-subjects.md).
 * An entry covers a slug equal to it (as written, or with one leading `.` dropped from each
 * component) and every slug its glob matches, hidden ones included — both, always: unlike `learn`,
 * exact equality never replaces the glob, so a file named like a pattern (`drafts/**.md`) cannot
 * narrow what the pattern covers. Pure.
 */
import { compilePattern } from '../patterns/glob.ts';
import { dropLeadingDots } from './slug.ts';

/** A topic's `disabled` entries, compiled: which subjects they cover, and which entry covers one. */
export interface DisabledMatcher {
  /** Whether any entry covers `slug`. */
  covers(slug: string): boolean;
  /** The index of each entry that covers `slug` (for warnings about entries that cover nothing). */
  coveringEntries(slug: string): number[];
}

/**
 * Compiles `disabled` entries. The exact part follows `learn`'s rule: an entry names the subject
 * whose slug it is, failing that (`exists` says no such subject exists) the one whose slug it is
 * with one leading `.` dropped from each component. Without `exists`, both are covered — the safe
 * side, for judging a symlink's target without walking its topic. An entry that cannot be compiled
 * as a glob still covers its exact slug (config validation has reported it already).
 */
export function createDisabledMatcher(entries: readonly string[], exists?: (slug: string) => boolean): DisabledMatcher {
  const tests = entries.map((entry) => {
    const undotted = dropLeadingDots(entry);
    const compiled = compilePattern(entry);
    const glob = compiled.ok ? compiled.test : () => false;
    const byUndotted = undotted !== entry && (exists === undefined || !exists(entry));
    return (slug: string): boolean => slug === entry || (byUndotted && slug === undotted) || glob(slug);
  });
  return {
    covers: (slug) => tests.some((test) => test(slug)),
    coveringEntries: (slug) => tests.flatMap((test, index) => (test(slug) ? [index] : [])),
  };
}
