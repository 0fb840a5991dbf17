/**
 * Similar word sets: the pairs whose Jaccard similarity is over 0.8, the rule behind `check`'s
 * near-duplicates (content/reference/cli/check.md) and the duplicates `learnings add` refuses
 * (content/reference/cli/learnings.md). Found without comparing every pair: a size filter and an
 * inverted index of each word set's rarest words (prefix filtering).
 */

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
