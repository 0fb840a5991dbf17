/**
 * Near-duplicate subjects (`check`, content/reference/cli/check.md): groups of subjects whose word
 * sets have a Jaccard similarity over 0.8 (summaries/similarity.ts), the rule `learnings add`
 * refuses duplicate learnings by (content/reference/cli/learnings.md).
 */
import path from 'node:path';
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { learningTextOf } from '../learnings/subjects.ts';
import { wordSetOf } from '../summaries/keywords.ts';
import { findNearDuplicates, type NearDuplicatePair } from '../summaries/similarity.ts';
import { realPathOrSelf } from '../files/paths.ts';

/** How many members a group's message names before "and N more". */
const NAMED_MEMBERS = 5;

/**
 * License-like file names (content/reference/cli/check.md, "Near-duplicates"): copies of one
 * license are identical by design. The name, in any case, with or without an extension or a
 * suffix: `LICENSE`, `LICENSE.txt`, `licence.md`, `COPYING.LESSER`, `NOTICE`, `LICENSE-MIT`.
 */
const LICENSE_LIKE = /^(?:(?:un)?licen[cs]e|copying|copyright|notice|patents|third[-_]?party[-_]?notices)(?:[-_.].*)?$/i;

/** Whether a file name is a license-like name that near-duplicates never report. */
export function isLicenseLike(fileName: string): boolean {
  return LICENSE_LIKE.test(fileName);
}

/** Options of {@link checkNearDuplicates}. */
export interface NearDuplicateOptions {
  /** Also compare fenced subjects (code and config files): `[check] near_duplicate_code`. */
  code?: boolean;
  /** Word sets kept between runs, by what they are made of (see {@link wordSetKey}). */
  wordSets?: WordSetMemo | undefined;
}

/** Word sets kept between runs by a host (the build keeps them in its cache); each one used is set, taken from it or not. */
export interface WordSetMemo {
  get(key: string): readonly string[] | undefined;
  set(key: string, words: readonly string[]): void;
}

/** The key of the word set a subject is compared by: its content's sha256, and whether it is a learning (compared by its own words). */
export function wordSetKey(subject: Pick<CatalogSubject, 'sha256' | 'learning'>): string {
  return `${subject.learning ? 'learning' : 'content'}:${subject.sha256}`;
}

/**
 * A `near-duplicate` warning for every group of subjects whose word sets (of their content as
 * `learn` returns it) have a Jaccard similarity over 0.8: the pairs found, joined where they
 * share a subject (a subject similar to one of the group belongs to it). Compared: every enabled
 * subject of every topic, hidden ones included, except skipped files (their content is only a
 * message), license-like files (identical by design) and, unless `options.code`, fenced ones. A
 * file reached twice (under two topics, or through a symlink: one real path) is one member. One
 * warning per group, on its first member (topics in config order, then slugs), naming up to five
 * members relative to `root` (the folder of the first config file), then how many more; a
 * learning is named by its store and id, and the warning points at its entry's line; a URL
 * source by its `links.txt`, line and URL, and the warning points at that line. Groups come in
 * the order of their first members.
 */
export function checkNearDuplicates(catalog: Catalog, root: string, options: NearDuplicateOptions = {}): Diagnostic[] {
  const subjects: CatalogSubject[] = catalog.topics.flatMap((topic) =>
    topic.subjects.filter(
      (s) => s.skipped === null && (options.code === true || s.format !== 'code') && (s.learning !== null || s.source !== null || !isLicenseLike(path.basename(s.file))),
    ),
  );
  // A learning is compared by its own words, as `learnings add` compares learnings, not by its details list.
  const { wordSets } = options;
  const wordsOf = (s: CatalogSubject): readonly string[] => {
    const key = wordSetKey(s);
    const words = wordSets?.get(key) ?? wordSetOf(s.learning ? learningTextOf(s.content) : s.content);
    wordSets?.set(key, words);
    return words;
  };
  const pairs = findNearDuplicates(subjects.map(wordsOf));

  // Subjects that are one file (one real path, and one learning or URL in it) are one member,
  // the first of them; real paths are asked only of subjects in a pair.
  const inPairs = [...new Set(pairs.flatMap((p) => [p.first, p.second]))].sort((x, y) => x - y);
  const firstOf = new Map<string, number>();
  const member = new Map<number, number>();
  for (const index of inPairs) {
    const s = subjects[index]!;
    const identity = `${realPathOrSelf(s.file)}\0${s.learning?.id ?? s.source?.line ?? ''}`;
    if (!firstOf.has(identity)) firstOf.set(identity, index);
    member.set(index, firstOf.get(identity)!);
  }
  // Groups: pairs joined where they share a member (union-find; each group's root is its first member).
  const parent = new Map<number, number>();
  const rootOf = (i: number): number => {
    let r = i;
    while ((parent.get(r) ?? r) !== r) r = parent.get(r)!;
    parent.set(i, r);
    return r;
  };
  const linked: { a: number; b: number; pair: NearDuplicatePair }[] = [];
  for (const pair of pairs) {
    const a = member.get(pair.first)!;
    const b = member.get(pair.second)!;
    if (a === b) continue;
    linked.push({ a, b, pair });
    const [ra, rb] = [rootOf(a), rootOf(b)];
    if (ra !== rb) parent.set(Math.max(ra, rb), Math.min(ra, rb));
  }
  const groups = new Map<number, Set<number>>();
  for (const { a, b } of linked) {
    const group = rootOf(a);
    groups.set(group, (groups.get(group) ?? new Set<number>()).add(a).add(b));
  }

  const name = (s: CatalogSubject): string => {
    const file = path.relative(root, s.file).split(path.sep).join('/');
    if (s.source) return `${file}:${s.source.line} (${s.source.url})`;
    return s.learning ? `${file} (learning ${JSON.stringify(s.learning.id)})` : file;
  };
  const out: Diagnostic[] = [];
  for (const group of [...groups.keys()].sort((x, y) => x - y)) {
    const members = [...groups.get(group)!].sort((x, y) => x - y).map((i) => subjects[i]!);
    const first = members[0]!;
    let message: string;
    if (members.length === 2) {
      const { pair } = linked.find((l) => rootOf(l.a) === group)!;
      message = `${name(first)} and ${name(members[1]!)} are near-duplicates: they share ${pair.shared} of the ${pair.union} words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.`;
    } else {
      const named = members.length <= NAMED_MEMBERS ? members : members.slice(0, NAMED_MEMBERS - 1);
      const rest = members.length - named.length;
      const list = rest > 0 ? `${named.map(name).join(', ')} and ${rest} more` : `${named.slice(0, -1).map(name).join(', ')} and ${name(named.at(-1)!)}`;
      message = `${members.length} subjects are near-duplicates, each of at least one other (Jaccard similarity over 0.8): ${list}. Merge them, or make each say what the others do not.`;
    }
    out.push({ kind: 'warning', code: 'near-duplicate', message, file: first.file, line: first.learning ? first.learning.line : first.source ? first.source.line : 1 });
  }
  return out;
}
