/**
 * `find` (content/reference/cli/find.md): the listed subjects that match a query, best first,
 * ranked with BM25F over each subject's title, name, summary, headings and body (stemmed terms,
 * search-terms.ts). Pure: local files (the catalog), a published site (`/kb/index.json` with
 * `/kb/keywords.json`, which carries the same terms) and the agent server build the same entries
 * and get the same ranking, text and JSON from here.
 */
import { z } from 'zod';
import { checkQuery } from '../knowledge/call-limits.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { compareStrings } from '../diagnostics/diagnostics.ts';
import { resolveTopicId, type TopicIdentity } from '../knowledge/learn.ts';
import { SEARCH_FIELDS, searchDocumentOfSubject, searchTermsOf, type SearchDocument } from './search-terms.ts';

/** How many subjects `find` returns when no limit is given. */
export const DEFAULT_FIND_LIMIT = 5;

/**
 * BM25F's parameters (content/reference/decisions.md): the weight of a term in each field (title,
 * name, summary, headings, body), how much each field's length normalises its counts, and how
 * fast repeated terms saturate.
 */
const FIELD_WEIGHTS = [3, 3, 2, 1.5, 1] as const;
const FIELD_LENGTH_NORMS = [0.3, 0.3, 0.6, 0.6, 0.75] as const;
const K1 = 1.2;
/** A score is multiplied by `1 - CONFIDENCE_SHARE + CONFIDENCE_SHARE × confidence`: a plain subject keeps it whole. */
const CONFIDENCE_SHARE = 0.3;
/** Scores and overlaps are rounded to this many decimals, and ranked as rounded. */
const DECIMALS = 4;

/** A subject `find` may return: a listed (visible, enabled) subject, with what ranking reads. */
export interface FindEntry {
  topic: string;
  slug: string;
  title: string;
  summary: string;
  /** Its fields' stemmed terms (search-terms.ts). */
  document: SearchDocument;
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
    overlap: z.number().min(0).max(1).describe("The share of the query's terms found in the subject (any field), rounded to 4 decimals."),
    confidence: z.number().min(0).max(1).describe('How much the subject is trusted: 1 for a plain subject, the stored value for a learning.'),
    score: z.number().min(0).describe("The subject's BM25F score for the query (title, name, summary, headings and body), times 0.7 + 0.3 × confidence, rounded to 4 decimals."),
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
    topic.subjects
      .filter((s) => !s.hidden)
      .map((s) => ({ topic: s.topic, slug: s.slug, title: s.title, summary: s.summary, document: searchDocumentOfSubject(s), confidence: s.confidence })),
  );
}

/** What ranking reads of an entries array, made once per array (hosts keep theirs between queries). */
interface PreparedEntries {
  titles: string[];
  names: string[];
  topicOrder: number[];
  /** Per term, the entries that hold it. */
  postings: Map<string, number[]>;
  /** Per field, the mean length over the entries. */
  meanLengths: number[];
}

const prepared = new WeakMap<readonly FindEntry[], PreparedEntries>();

function prepare(entries: readonly FindEntry[]): PreparedEntries {
  let ready = prepared.get(entries);
  if (!ready) {
    const topics = new Map<string, number>();
    const totals = SEARCH_FIELDS.map(() => 0);
    ready = { titles: [], names: [], topicOrder: [], postings: new Map(), meanLengths: [] };
    entries.forEach((entry, index) => {
      if (!topics.has(entry.topic)) topics.set(entry.topic, topics.size);
      ready!.titles.push(entry.title.toLowerCase());
      ready!.names.push(entry.slug.slice(entry.slug.lastIndexOf('/') + 1).toLowerCase());
      ready!.topicOrder.push(topics.get(entry.topic)!);
      entry.document.lengths.forEach((length, field) => (totals[field]! += length));
      for (const term of entry.document.terms.keys()) {
        let list = ready!.postings.get(term);
        if (!list) ready!.postings.set(term, (list = []));
        list.push(index);
      }
    });
    ready.meanLengths = totals.map((total) => (entries.length === 0 ? 0 : total / entries.length));
    prepared.set(entries, ready);
  }
  return ready;
}

function round(value: number): number {
  const scale = 10 ** DECIMALS;
  return Math.round(value * scale) / scale;
}

/**
 * Ranks `entries` (in catalog order: topics in config order) for a query, with BM25F: the query's
 * terms (search-terms.ts, each once) are looked up in every subject's fields; per term, its
 * counts in the fields are normalised by each field's length against the mean, weighted and
 * summed (title and name 3, summary 2, headings 1.5, body 1), saturated as `tf / (1.2 + tf)` and
 * multiplied by the term's inverse document frequency over all entries; the sum over the terms,
 * times `0.7 + 0.3 × confidence`, is the score. A subject whose title or last slug segment equals
 * the whole query (both lower-cased, the query trimmed) comes first. Ties: higher score, then
 * topic order, then slug. A subject that neither matches exactly nor holds a query term is not
 * returned; at most `limit` results. `topic` (an id) keeps that topic's only; the statistics are
 * those of every topic, so a subject's score does not depend on the filter.
 * What ranking reads is prepared once per `entries` array: do not change an array once ranked.
 */
export function rankSubjects(entries: readonly FindEntry[], query: string, options: { limit: number; topic?: string | undefined }): FindResult[] {
  const wanted = [...new Set(searchTermsOf(query))];
  const whole = query.trim().toLowerCase();
  const { titles, names, topicOrder, postings, meanLengths } = prepare(entries);
  const count = entries.length;
  const scores = new Float64Array(count);
  const matched = new Uint16Array(count);
  const touched: number[] = [];
  for (const term of wanted) {
    const holders = postings.get(term);
    if (!holders) continue;
    const idf = Math.log(1 + (count - holders.length + 0.5) / (holders.length + 0.5));
    for (const i of holders) {
      const { lengths, terms } = entries[i]!.document;
      const counts = terms.get(term)!;
      let tf = 0;
      for (let f = 0; f < counts.length; f++) {
        const n = counts[f]!;
        if (n === 0) continue;
        const mean = meanLengths[f]! || 1;
        tf += (FIELD_WEIGHTS[f]! * n) / (1 - FIELD_LENGTH_NORMS[f]! + (FIELD_LENGTH_NORMS[f]! * lengths[f]!) / mean);
      }
      if (matched[i] === 0) touched.push(i);
      matched[i]!++;
      scores[i]! += (idf * tf) / (K1 + tf);
    }
  }
  const candidates: number[] = [];
  const exact = new Uint8Array(count);
  const rounded = new Float64Array(count);
  const consider = (i: number): void => {
    const entry = entries[i]!;
    if (options.topic !== undefined && entry.topic !== options.topic) return;
    candidates.push(i);
    rounded[i] = round(scores[i]! * (1 - CONFIDENCE_SHARE + CONFIDENCE_SHARE * entry.confidence));
  };
  for (const i of touched) consider(i);
  if (whole !== '') {
    for (let i = 0; i < count; i++) {
      if (titles[i] !== whole && names[i] !== whole) continue;
      exact[i] = 1;
      if (matched[i] === 0) consider(i);
    }
  }
  candidates.sort((a, b) => exact[b]! - exact[a]! || rounded[b]! - rounded[a]! || topicOrder[a]! - topicOrder[b]! || compareStrings(entries[a]!.slug, entries[b]!.slug));
  return candidates.slice(0, options.limit).map((i) => {
    const entry = entries[i]!;
    return {
      topic: entry.topic,
      slug: entry.slug,
      title: entry.title,
      summary: entry.summary,
      exact: exact[i] === 1,
      overlap: wanted.length === 0 ? 0 : round(matched[i]! / wanted.length),
      confidence: entry.confidence,
      score: rounded[i]!,
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

/** How to call `find`: the end of every message about wrong arguments. */
export const FIND_USAGE = 'Call find with {"query": "<words>"}, and optionally "limit" (a whole number, 1 or more; default 5) and "topic" (a topic id or title).';

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
    'Find the subjects of the knowledge base that match a query, best first. A subject whose title or name is the query comes first; the others rank by how well the query\'s words (stemmed) match the subject\'s title, name, summary, headings and text (BM25F). Each line of the result is "- <topic>/<slug> (**<title>**): <summary>"; load a subject with the learn tool: {"topic": "<topic>", "subjects": "<slug>"}. An empty result: nothing matched.',
  parameters: FIND_PARAMETERS,
} as const;

/**
 * Checks raw tool arguments of `find`, and the query's length ({@link checkQuery}); wrong ones are
 * an error message that says how to call it. The CLI passes its arguments through here too.
 */
export function parseFindArguments(args: unknown): { ok: true; value: FindArguments } | { ok: false; message: string } {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return { ok: false, message: `Invalid arguments: expected an object. ${FIND_USAGE}` };
  const record = args as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => k !== 'query' && k !== 'limit' && k !== 'topic');
  if (extra.length > 0) return { ok: false, message: `Invalid arguments: unknown argument ${extra.map((k) => JSON.stringify(k)).join(', ')}. ${FIND_USAGE}` };
  const { query, limit, topic } = record;
  if (typeof query !== 'string') return { ok: false, message: `Invalid arguments: "query" must be a string${query === undefined ? ' and is required' : ''}. ${FIND_USAGE}` };
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 1)) {
    return { ok: false, message: `Invalid arguments: "limit" must be a whole number, 1 or more (got ${JSON.stringify(limit)}). ${FIND_USAGE}` };
  }
  if (topic !== undefined && topic !== null && typeof topic !== 'string') return { ok: false, message: `Invalid arguments: "topic" must be a string. ${FIND_USAGE}` };
  const limited = checkQuery(query);
  if (!limited.ok) return limited;
  return { ok: true, value: { query, limit: typeof limit === 'number' ? limit : DEFAULT_FIND_LIMIT, topic: typeof topic === 'string' ? topic : undefined } };
}
