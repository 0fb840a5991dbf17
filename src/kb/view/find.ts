/**
 * `find` (content/reference/cli/find.md): the listed subjects that match a query, best first, by
 * keywords. Pure: local files (the catalog), a published site (`/kb/keywords.json` with
 * `/kb/index.json`) and the agent server build the same entries and get the same ranking, text and
 * JSON from here.
 */
import { z } from 'zod';
import { checkQuery } from '../knowledge/call-limits.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { compareStrings } from '../diagnostics/diagnostics.ts';
import { keywordsOf } from '../summaries/keywords.ts';
import { resolveTopicId, type TopicIdentity } from '../knowledge/learn.ts';

/** How many subjects `find` returns when no limit is given. */
export const DEFAULT_FIND_LIMIT = 5;

/** Weight of the keyword overlap in a score; the confidence has the rest. */
const OVERLAP_WEIGHT = 0.7;
const CONFIDENCE_WEIGHT = 0.3;
/** Scores and overlaps are rounded to this many decimals, and ranked as rounded. */
const DECIMALS = 4;

/** A subject `find` may return: a listed (visible, enabled) subject, with what ranking reads. */
export interface FindEntry {
  topic: string;
  slug: string;
  title: string;
  summary: string;
  /** The subject's keywords, at most 20. */
  keywords: readonly string[];
  /** 0 to 1; 1 for a plain subject. */
  confidence: number;
}

/** What to find, checked. */
export interface FindArguments {
  /** The words to look for. */
  query: string;
  /** The most results to return, 1 or more. */
  limit: number;
  /** A topic id or title to search in; undefined for every topic. */
  topic: string | undefined;
}

/** One subject found. */
export const FindResultSchema = z
  .object({
    topic: z.string().describe('The topic id: pass it to the learn tool as "topic".'),
    slug: z.string().describe('The subject slug: pass it to the learn tool as "subjects".'),
    title: z.string().describe('The subject title.'),
    summary: z.string().describe('One paragraph on the subject; "" when there is none.'),
    exact: z.boolean().describe('Whether the title or the last slug segment equals the whole query (any case): such subjects come first.'),
    overlap: z.number().min(0).max(1).describe("The share of the query's keywords among the subject's keywords, rounded to 4 decimals."),
    confidence: z.number().min(0).max(1).describe('How much the subject is trusted: 1 for a plain subject, the stored value for a learning.'),
    score: z.number().min(0).max(1).describe('0.7 × overlap + 0.3 × confidence, rounded to 4 decimals.'),
  })
  .describe('A subject that matches the query.');

/** What `find --json` prints: the subjects found, best first. */
export const FindResultsSchema = z
  .array(FindResultSchema)
  .describe('The subjects that match a query, best first: exact matches, then by score, then in topic config order, then by slug. Empty when nothing matches.');

export type FindResult = z.infer<typeof FindResultSchema>;

/** The JSON Schema of `find --json`. */
export function renderFindSchema(): Record<string, unknown> {
  return z.toJSONSchema(FindResultsSchema, { target: 'draft-2020-12' });
}

/** The entries of the catalog's listed subjects: hidden subjects are never found. */
export function findEntriesOf(catalog: Catalog): FindEntry[] {
  return catalog.topics.flatMap((topic) =>
    topic.subjects.filter((s) => !s.hidden).map((s) => ({ topic: s.topic, slug: s.slug, title: s.title, summary: s.summary, keywords: s.keywords, confidence: s.confidence })),
  );
}

/** What ranking compares of each entry, lower-cased once per entries array (hosts keep theirs between queries). */
interface PreparedEntries {
  titles: string[];
  names: string[];
  topicOrder: number[];
}

const prepared = new WeakMap<readonly FindEntry[], PreparedEntries>();

function prepare(entries: readonly FindEntry[]): PreparedEntries {
  let ready = prepared.get(entries);
  if (!ready) {
    const topics = new Map<string, number>();
    ready = { titles: [], names: [], topicOrder: [] };
    for (const entry of entries) {
      if (!topics.has(entry.topic)) topics.set(entry.topic, topics.size);
      ready.titles.push(entry.title.toLowerCase());
      ready.names.push(entry.slug.slice(entry.slug.lastIndexOf('/') + 1).toLowerCase());
      ready.topicOrder.push(topics.get(entry.topic)!);
    }
    prepared.set(entries, ready);
  }
  return ready;
}

function round(value: number): number {
  const scale = 10 ** DECIMALS;
  return Math.round(value * scale) / scale;
}

/**
 * Ranks `entries` (in catalog order: topics in config order) for a query. The query's keywords
 * are extracted as a subject's are; overlap = the share of them found in a subject's keywords;
 * score = 0.7 × overlap + 0.3 × confidence. A subject whose title or last slug segment
 * equals the whole query (both lower-cased, the query trimmed) comes first. Ties: higher score,
 * then topic order, then slug. A subject that neither matches exactly nor shares a keyword with
 * the query is not returned; at most `limit` results. `topic` (an id) keeps that topic's only.
 * What ranking compares is prepared once per `entries` array: do not change an array once ranked.
 */
export function rankSubjects(entries: readonly FindEntry[], query: string, options: { limit: number; topic?: string | undefined }): FindResult[] {
  const wanted = keywordsOf(query);
  const whole = query.trim().toLowerCase();
  const { titles, names, topicOrder } = prepare(entries);
  // Candidates as numbers; results are made for the first `limit` only.
  const candidates: number[] = [];
  const exact = new Uint8Array(entries.length);
  const overlaps = new Float64Array(entries.length);
  const scores = new Float64Array(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    if (options.topic !== undefined && entry.topic !== options.topic) continue;
    let matched = 0;
    for (const word of wanted) if (entry.keywords.includes(word)) matched++;
    const isExact = whole !== '' && (titles[i] === whole || names[i] === whole);
    if (matched === 0 && !isExact) continue;
    const overlap = wanted.length === 0 ? 0 : matched / wanted.length;
    candidates.push(i);
    exact[i] = isExact ? 1 : 0;
    overlaps[i] = round(overlap);
    scores[i] = round(OVERLAP_WEIGHT * overlap + CONFIDENCE_WEIGHT * entry.confidence);
  }
  candidates.sort((a, b) => exact[b]! - exact[a]! || scores[b]! - scores[a]! || topicOrder[a]! - topicOrder[b]! || compareStrings(entries[a]!.slug, entries[b]!.slug));
  return candidates.slice(0, options.limit).map((i) => {
    const entry = entries[i]!;
    return {
      topic: entry.topic,
      slug: entry.slug,
      title: entry.title,
      summary: entry.summary,
      exact: exact[i] === 1,
      overlap: overlaps[i]!,
      confidence: entry.confidence,
      score: scores[i]!,
    };
  });
}

/**
 * Runs `find`: `args.topic` resolves as the learn tool resolves a topic (id, else title in any
 * case; an unknown one is the learn tool's error), then {@link rankSubjects}.
 */
export function runFind(
  entries: readonly FindEntry[],
  topics: readonly TopicIdentity[],
  args: FindArguments,
): { ok: true; results: FindResult[] } | { ok: false; message: string } {
  let topic: string | undefined;
  if (args.topic !== undefined) {
    const resolved = resolveTopicId(topics, args.topic);
    if (!resolved.ok) return resolved;
    topic = resolved.id;
  }
  return { ok: true, results: rankSubjects(entries, args.query, { limit: args.limit, topic }) };
}

/**
 * The text of `find`'s results, as the CLI prints them and the tool returns them: one line per
 * subject, best first, `- <topic>/<slug> (**<title>**): <summary>` (`- <topic>/<slug>
 * (**<title>**)` without a summary); `''` when nothing was found.
 */
export function renderFindResults(results: readonly FindResult[]): string {
  return results
    .map((r) => {
      const summary = r.summary.replace(/\s+/g, ' ').trim();
      return `- ${r.topic}/${r.slug} (**${r.title}**)${summary === '' ? '' : `: ${summary}`}`;
    })
    .join('\n');
}

const USAGE = 'Call find with {"query": "<words>"}, and optionally "limit" (a whole number, 1 or more; default 5) and "topic" (a topic id or title).';

/** The parameters schema of the `find` tool. */
export const FIND_PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'The words to look for, or the exact title or name of a subject.' },
    limit: { type: 'integer', minimum: 1, description: `The most subjects to return (default ${DEFAULT_FIND_LIMIT}).` },
    topic: { type: 'string', description: 'Search only this topic (its ID or title).' },
  },
  required: ['query'],
  additionalProperties: false,
} as const;

/** The definition of the `find` tool, as the agent server lists it. */
export const FIND_DEFINITION = {
  name: 'find',
  description:
    'Find the subjects of the knowledge base that match a query, best first. A subject whose title or name is the query comes first; the others rank by the share of the query\'s words found among the subject\'s keywords (from its title, summary and headings). Each line of the result is "- <topic>/<slug> (**<title>**): <summary>"; load a subject with the learn tool: {"topic": "<topic>", "subjects": "<slug>"}. An empty result: nothing matched.',
  parameters: FIND_PARAMETERS,
} as const;

/**
 * Checks raw tool arguments of `find`, and the query's length ({@link checkQuery}); wrong ones are
 * an error message that says how to call it. The CLI passes its arguments through here too.
 */
export function parseFindArguments(args: unknown): { ok: true; value: FindArguments } | { ok: false; message: string } {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: false, message: `Invalid arguments: expected an object. ${USAGE}` };
  const record = args as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => k !== 'query' && k !== 'limit' && k !== 'topic');
  if (extra.length > 0) return { ok: false, message: `Invalid arguments: unknown argument ${extra.map((k) => JSON.stringify(k)).join(', ')}. ${USAGE}` };
  const { query, limit, topic } = record;
  if (typeof query !== 'string') return { ok: false, message: `Invalid arguments: "query" must be a string${query === undefined ? ' and is required' : ''}. ${USAGE}` };
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
    return { ok: false, message: `Invalid arguments: "limit" must be a whole number, 1 or more (got ${JSON.stringify(limit)}). ${USAGE}` };
  }
  if (topic !== undefined && topic !== null && typeof topic !== 'string') return { ok: false, message: `Invalid arguments: "topic" must be a string. ${USAGE}` };
  const limited = checkQuery(query);
  if (!limited.ok) return limited;
  return { ok: true, value: { query, limit: typeof limit === 'number' ? limit : DEFAULT_FIND_LIMIT, topic: typeof topic === 'string' ? topic : undefined } };
}
