/**
 * The rules over a learnings store (content/reference/cli/learnings.md): adding a learning
 * (refused when it duplicates one), statistics, and pruning old, unused, low-confidence
 * learnings. Pure: the host reads the store, passes the time, and writes the result.
 */
import { findNearDuplicates } from '../summaries/similarity.ts';
import { keywordsOf, wordSetOf } from '../summaries/keywords.ts';
import { LEARNING_CATEGORIES, validLearnings, type Learning, type LearningCategory, type LearningsStore, type StoreEntry } from './store.ts';

/** A new learning's confidence. */
export const INITIAL_CONFIDENCE = 0.5;
/** Pruning keeps learnings whose confidence is at least this. */
export const PRUNE_CONFIDENCE_BELOW = 0.7;
/** Pruning's default age, in days. */
export const DEFAULT_PRUNE_MAX_AGE_DAYS = 30;
/** How many learnings `mostUsed` lists. */
export const MOST_USED_COUNT = 5;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A learning id as `learnings add` makes them, `learn-{timestamp}-{random}`: the time in
 * milliseconds in base 36, then six base-36 characters from `random` (a function like
 * `Math.random`).
 */
export function newLearningId(now: Date, random: () => number): string {
  let suffix = '';
  for (let i = 0; i < 6; i++) suffix += Math.floor(random() * 36).toString(36);
  return `learn-${now.getTime().toString(36)}-${suffix}`;
}

/** What `learnings add` is given. */
export interface NewLearning {
  id: string;
  taskId: string;
  category: LearningCategory;
  content: string;
  /** The learning's keywords; when absent, the first 20 keywords of its content (content/reference/cli/find.md). */
  keywords?: string[] | undefined;
  structured?: { file?: string; pattern?: string; approach?: string } | undefined;
  /** ISO 8601 time of creation. */
  createdAt: string;
}

/** An existing learning the new one duplicates: word sets sharing `shared` of `union` words. */
export interface DuplicateMatch {
  learning: Learning;
  shared: number;
  union: number;
}

/** What adding gave: the new store, or why nothing was added. */
export type AddOutcome =
  { added: true; learning: Learning; store: LearningsStore } | { added: false; reason: 'duplicate'; duplicate: DuplicateMatch } | { added: false; reason: 'id-taken'; id: string };

/**
 * Adds a learning at the end of the store: confidence 0.5, never used. It is refused when its
 * content's word set has a Jaccard similarity over 0.8 with an existing valid learning's (the same
 * word sets and threshold as `check`'s near-duplicates; the most similar one is reported, the
 * first in file order on a tie), or when an entry already has its id.
 */
export function addLearning(store: LearningsStore, input: NewLearning): AddOutcome {
  if (store.entries.some((e) => idOf(e) === input.id)) return { added: false, reason: 'id-taken', id: input.id };
  const existing = validLearnings(store);
  const duplicate = mostSimilar(input.content, existing);
  if (duplicate) return { added: false, reason: 'duplicate', duplicate };
  const learning: Learning = {
    id: input.id,
    taskId: input.taskId,
    category: input.category,
    content: input.content,
    keywords: input.keywords ?? keywordsOf(input.content),
    ...(input.structured && Object.keys(input.structured).length > 0 ? { structured: input.structured } : {}),
    confidence: INITIAL_CONFIDENCE,
    usedCount: 0,
    successCount: 0,
    createdAt: input.createdAt,
  };
  const last = store.entries[store.entries.length - 1];
  const entry: StoreEntry = { index: store.entries.length, line: last ? last.line : 1, raw: learning, learning, problems: [] };
  return { added: true, learning, store: { envelope: store.envelope, entries: [...store.entries, entry] } };
}

/** The existing learning most similar to `content` over the duplicate threshold, if any. */
function mostSimilar(content: string, learnings: readonly Learning[]): DuplicateMatch | undefined {
  const pairs = findNearDuplicates([wordSetOf(content), ...learnings.map((l) => wordSetOf(l.content))]).filter((p) => p.first === 0);
  let best: (typeof pairs)[number] | undefined;
  for (const pair of pairs) {
    if (!best || pair.shared * best.union > best.shared * pair.union || (pair.shared * best.union === best.shared * pair.union && pair.second < best.second)) best = pair;
  }
  return best && { learning: learnings[best.second - 1]!, shared: best.shared, union: best.union };
}

function idOf(entry: StoreEntry): unknown {
  return entry.raw !== null && typeof entry.raw === 'object' ? (entry.raw as Record<string, unknown>)['id'] : undefined;
}

/** When pruning runs and how old an unused learning may get. */
export interface PruneRules {
  /** The time to judge ages at, in milliseconds since the epoch. */
  now: number;
  /** Learnings created longer ago than this may be pruned, in milliseconds. */
  maxAgeMs: number;
}

/** Pruning rules with an age in days (the default is {@link DEFAULT_PRUNE_MAX_AGE_DAYS}). */
export function pruneRules(now: Date, maxAgeDays: number = DEFAULT_PRUNE_MAX_AGE_DAYS): PruneRules {
  return { now: now.getTime(), maxAgeMs: maxAgeDays * DAY_MS };
}

/**
 * Whether pruning removes a learning: never used (`usedCount` 0), confidence under 0.7, and
 * created more than the maximum age before `now` (exactly that age is kept).
 */
export function isPrunable(learning: Learning, rules: PruneRules): boolean {
  return learning.usedCount === 0 && learning.confidence < PRUNE_CONFIDENCE_BELOW && rules.now - Date.parse(learning.createdAt) > rules.maxAgeMs;
}

/** The store without its prunable learnings, and those learnings in file order. Invalid entries are kept. */
export function pruneLearnings(store: LearningsStore, rules: PruneRules): { store: LearningsStore; pruned: Learning[] } {
  const pruned: Learning[] = [];
  const entries = store.entries.filter((entry) => {
    if (!entry.learning || !isPrunable(entry.learning, rules)) return true;
    pruned.push(entry.learning);
    return false;
  });
  return { store: { envelope: store.envelope, entries }, pruned };
}

/** The statistics of a store, and what pruning would remove. */
export interface LearningsStats {
  /** Valid learnings. */
  totalLearnings: number;
  /** Entries that are not valid learnings (not counted anywhere else). */
  invalidEntries: number;
  /** Valid learnings per category, every category listed. */
  byCategory: Record<LearningCategory, number>;
  /** Mean confidence of the valid learnings; null when there are none. */
  avgConfidence: number | null;
  /** The {@link MOST_USED_COUNT} learnings used most (used at least once), most first; file order on ties. */
  mostUsed: Learning[];
  /** How many learnings pruning would remove under the given rules. */
  prunable: number;
}

/** The statistics of a store. */
export function learningsStats(store: LearningsStore, rules: PruneRules): LearningsStats {
  const learnings = validLearnings(store);
  const byCategory = Object.fromEntries(LEARNING_CATEGORIES.map((c) => [c, 0])) as Record<LearningCategory, number>;
  for (const learning of learnings) byCategory[learning.category]++;
  const mostUsed = learnings
    .map((learning, order) => ({ learning, order }))
    .filter(({ learning }) => learning.usedCount > 0)
    .sort((a, b) => b.learning.usedCount - a.learning.usedCount || a.order - b.order)
    .slice(0, MOST_USED_COUNT)
    .map(({ learning }) => learning);
  return {
    totalLearnings: learnings.length,
    invalidEntries: store.entries.length - learnings.length,
    byCategory,
    avgConfidence: learnings.length === 0 ? null : learnings.reduce((sum, l) => sum + l.confidence, 0) / learnings.length,
    mostUsed,
    prunable: learnings.filter((l) => isPrunable(l, rules)).length,
  };
}
