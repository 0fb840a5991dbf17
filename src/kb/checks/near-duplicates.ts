/**
 * Near-duplicate subjects (`check`, content/reference/cli/check.md): pairs of subjects whose word
 * sets have a Jaccard similarity over 0.8, the rule `learnings add` refuses duplicate learnings by
 * (content/reference/cli/learnings.md). Found without comparing every pair: a size filter and an
 * inverted index of each word set's rarest words (prefix filtering).
 */
import path from 'node:path';
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { learningTextOf } from '../learnings/subjects.ts';
import { wordSetOf } from '../catalog/keywords.ts';
import { realPathOrSelf } from '../files/paths.ts';

/** Similarity over this fraction makes two subjects near-duplicates (content/reference/cli/check.md). */
const THRESHOLD = { numerator: 4, denominator: 5 };

/** Two word sets that are near-duplicates: their indexes (`first` < `second`) and overlap. */
export interface NearDuplicatePair {
  first: number;
  second: number;
  /** Words in both sets. */
  shared: number;
  /** Words in either set. */
  union: number;
}

/**
 * The pairs of word sets (each without repeated words) whose Jaccard similarity
 * |A ∩ B| / |A ∪ B| is over 0.8, sorted by `first` then `second`. Empty sets are never
 * near-duplicates. Exactly the pairs a comparison of every pair finds, without comparing every
 * pair (AllPairs and PPJoin: Bayardo et al. 2007, Xiao et al. 2008). Sets are taken smallest
 * first, each word set ordered rarest word first; for a larger set X and a smaller one Y,
 * similarity over 0.8 needs |X ∩ Y| > 0.8·|X| and |X ∩ Y| > (8/9)·|Y|, so:
 * - size filter: only pairs with 5·|Y| > 4·|X| can qualify;
 * - prefix filter: their first shared word lies among the first |X| − ⌊0.8·|X|⌋ words of X and
 *   the first |Y| − ⌊(8/9)·|Y|⌋ words of Y, so only those prefixes of Y are indexed, and only
 *   that prefix of X probes the index;
 * - positional filter: a candidate whose shared words so far, plus what remains after the
 *   current positions, cannot reach the overlap the pair needs is dropped before it is compared.
 */
export function findNearDuplicates(sets: readonly (readonly string[])[]): NearDuplicatePair[] {
  const { numerator: n, denominator: d } = THRESHOLD;
  // Words become numbers ranked by how many sets hold them, rarest first (ties: first seen first).
  const ids = new Map<string, number>();
  const holders: number[] = [];
  const numbered = sets.map((set) => {
    const out = new Int32Array(set.length);
    for (let i = 0; i < set.length; i++) {
      let id = ids.get(set[i]!);
      if (id === undefined) {
        ids.set(set[i]!, (id = holders.length));
        holders.push(0);
      }
      holders[id]!++;
      out[i] = id;
    }
    return out;
  });
  const rank = new Int32Array(holders.length);
  Int32Array.from(holders.keys())
    .sort((a, b) => holders[a]! - holders[b]! || a - b)
    .forEach((id, position) => (rank[id] = position));
  const records = numbered
    .map((words, index) => ({ index, words: words.map((id) => rank[id]!).sort() }))
    .filter((r) => r.words.length > 0)
    .sort((a, b) => a.words.length - b.words.length || a.index - b.index);

  // word → the records whose indexed prefix holds it, with its position there: [record, position, …],
  // in record order, so in size order; `start` skips those too small for every set still to come.
  const index = new Map<number, { items: number[]; start: number }>();
  const counts = new Int32Array(records.length);
  const touched: number[] = [];
  const pairs: NearDuplicatePair[] = [];
  for (let current = 0; current < records.length; current++) {
    const { words } = records[current]!;
    const size = words.length;
    const probe = size - Math.floor((n * size) / d);
    for (let i = 0; i < probe; i++) {
      const list = index.get(words[i]!);
      if (!list) continue;
      const { items } = list;
      while (list.start < items.length && d * records[items[list.start]!]!.words.length <= n * size) list.start += 2;
      for (let k = list.start; k < items.length; k += 2) {
        const other = items[k]!;
        const count = counts[other]!;
        if (count < 0) continue;
        if (count === 0) touched.push(other);
        const otherSize = records[other]!.words.length;
        // The overlap the pair needs: 9·|X ∩ Y| > 4·(|X| + |Y|) is similarity over 0.8.
        const needed = Math.floor((n * (size + otherSize)) / (n + d)) + 1;
        const bound = count + 1 + Math.min(size - i - 1, otherSize - items[k + 1]! - 1);
        counts[other] = bound >= needed ? count + 1 : -1;
      }
    }
    for (const other of touched) {
      if (counts[other]! > 0) {
        const candidate = records[other]!.words;
        const shared = overlapOfAtLeast(words, candidate, Math.floor((n * (size + candidate.length)) / (n + d)) + 1);
        const union = size + candidate.length - shared;
        if (shared >= 0 && d * shared > n * union) {
          const [a, b] = [records[current]!.index, records[other]!.index];
          pairs.push({ first: Math.min(a, b), second: Math.max(a, b), shared, union });
        }
      }
      counts[other] = 0;
    }
    touched.length = 0;
    const indexed = size - Math.floor((2 * n * size) / (n + d));
    for (let p = 0; p < indexed; p++) {
      const word = words[p]!;
      const list = index.get(word);
      if (list) list.items.push(current, p);
      else index.set(word, { items: [current, p], start: 0 });
    }
  }
  return pairs.sort((a, b) => a.first - b.first || a.second - b.second);
}

/**
 * The number of values two ascending arrays share, or -1 as soon as it is clear that they share
 * fewer than `needed`: most candidates fail after a few mismatches.
 */
function overlapOfAtLeast(a: Int32Array, b: Int32Array, needed: number): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (shared + Math.min(a.length - i, b.length - j) < needed) return -1;
    if (a[i] === b[j]) {
      shared++;
      i++;
      j++;
    } else if (a[i]! < b[j]!) i++;
    else j++;
  }
  return shared >= needed ? shared : -1;
}

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
  const pairs = findNearDuplicates(subjects.map((s) => wordSetOf(s.learning ? learningTextOf(s.content) : s.content)));

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
