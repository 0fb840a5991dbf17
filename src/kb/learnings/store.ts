/**
 * Learnings stores (content/reference/cli/learnings.md, "The store"): the `knowledge.json` format,
 * read entry by entry. Pure: takes the file's text, returns its entries (valid ones parsed, invalid
 * ones with what is wrong) and writes a store back with everything it did not understand kept as
 * it was.
 */
import * as z from 'zod/mini';

/** The categories of a learning, in the order of the store's format. */
export const LEARNING_CATEGORIES = ['pattern', 'gotcha', 'fact', 'preference'] as const;

/** The store format version Syllabus reads and writes. */
export const LEARNINGS_STORE_VERSION = '1.0';

/** Most keywords a learning may have. */
export const MAX_LEARNING_KEYWORDS = 20;

/**
 * The schemas of one learning (exactly the fields of the store's format) and of a whole store,
 * made on first use: most commands never read a store, and making schemas is work at start. Keys
 * the format does not define are allowed (and kept when Syllabus rewrites the store), so a store
 * written by a newer tool still reads.
 */
export function learningsSchemas(): ReturnType<typeof makeLearningsSchemas> {
  return (schemas ??= makeLearningsSchemas());
}

let schemas: ReturnType<typeof makeLearningsSchemas> | undefined;

function makeLearningsSchemas() {
  const timestamp = z.iso.datetime({ offset: true });
  const learning = z.looseObject({
    /** Unique id, `learn-{timestamp}-{random}` when Syllabus makes it. */
    id: z.string().check(z.minLength(1)),
    /** The task that produced the learning (may be empty). */
    taskId: z.string(),
    category: z.enum(LEARNING_CATEGORIES),
    /** The learning, in natural language (markdown). */
    content: z.string().check(z.regex(/\S/)),
    /** Words for retrieval, at most 20. */
    keywords: z.array(z.string()).check(z.maxLength(MAX_LEARNING_KEYWORDS)),
    /** Optional structured details. */
    structured: z.optional(
      z.looseObject({
        file: z.optional(z.string()),
        pattern: z.optional(z.string()),
        approach: z.optional(z.string()),
      }),
    ),
    /** 0 to 1; a new learning starts at 0.5. */
    confidence: z.number().check(z.gte(0), z.lte(1)),
    /** Times injected into prompts. */
    usedCount: z.int().check(z.gte(0)),
    /** Times it led to task success: at most `usedCount`. */
    successCount: z.int().check(z.gte(0)),
    /** ISO 8601 timestamp. */
    createdAt: timestamp,
    /** ISO 8601 timestamp of the last injection. */
    lastUsedAt: z.optional(timestamp),
  });
  /** A whole store as Syllabus writes it: the store's file format. */
  const file = z.looseObject({
    version: z.literal(LEARNINGS_STORE_VERSION),
    lastUpdated: timestamp,
    learnings: z.array(learning),
  });
  return { learning, file };
}

/** One learning of a store. */
export type Learning = z.infer<ReturnType<typeof makeLearningsSchemas>['learning']>;
/** One of {@link LEARNING_CATEGORIES}. */
export type LearningCategory = (typeof LEARNING_CATEGORIES)[number];

/** One element of a store's `learnings` array. */
export interface StoreEntry {
  /** Index in the `learnings` array. */
  index: number;
  /** 1-based line of the file where the element starts. */
  line: number;
  /** The element as parsed from JSON (written back as it is). */
  raw: unknown;
  /** The learning, when the element is valid; null otherwise. */
  learning: Learning | null;
  /** What is wrong with an invalid element, one phrase per field (empty when valid). */
  problems: string[];
}

/** A store as read: its top-level object and its entries, in file order. */
export interface LearningsStore {
  /** The top-level object; its `learnings` is replaced by the entries when written. */
  envelope: Record<string, unknown>;
  entries: StoreEntry[];
}

/** What reading a store's text gave: the store, or why it cannot be used at all. */
export type StoreReading =
  | { ok: true; store: LearningsStore }
  | {
      ok: false;
      /** What is wrong, as a clause (`is not valid JSON (…)`). */
      problem: string;
      /** How to fix it, as a sentence. */
      fix: string;
      line?: number;
      column?: number;
    };

/** An empty store, as `learnings add` starts one. */
export function emptyLearningsStore(): LearningsStore {
  return { envelope: { version: LEARNINGS_STORE_VERSION, lastUpdated: '', learnings: [] }, entries: [] };
}

/**
 * Reads a store's text (BOM already dropped). The whole store is unusable only when it is not
 * JSON, is not an object with a `learnings` array, or declares another `version`; otherwise every
 * element is checked on its own, so one bad entry never hides the others.
 */
export function parseLearningsStore(text: string): StoreReading {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const place = positionOf(text, message);
    const what = message
      .replace(/ at position \d+.*$/s, '')
      .replace(/ in JSON$/, '')
      .replace(/, .* is not valid JSON$/s, '');
    return {
      ok: false,
      problem: `is not valid JSON (${what})`,
      fix: place ? `Fix the JSON at line ${place.line}, column ${place.column}.` : 'Fix the JSON.',
      ...(place ?? {}),
    };
  }
  const shape = 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problem: `is ${describeJson(value)}, not a learnings store object`, fix: shape };
  }
  const envelope = value as Record<string, unknown>;
  const version = envelope['version'];
  if (version !== undefined && version !== LEARNINGS_STORE_VERSION) {
    return {
      ok: false,
      problem: `has version ${describeJson(version)}; Syllabus reads version "${LEARNINGS_STORE_VERSION}" stores`,
      fix: `Convert the store to version "${LEARNINGS_STORE_VERSION}" (content/reference/cli/learnings.md).`,
    };
  }
  const learnings = envelope['learnings'];
  if (!Array.isArray(learnings)) {
    return {
      ok: false,
      problem: learnings === undefined ? 'has no "learnings" array' : `has a "learnings" that is ${describeJson(learnings)}, not an array`,
      fix: shape,
    };
  }
  const starts = locateLearnings(text);
  const lines = lineStarts(text);
  const entries = learnings.map((raw, index): StoreEntry => {
    const offset = starts[index];
    const line = offset === undefined ? 1 : lineAt(lines, offset);
    const checked = checkLearning(raw);
    return { index, line, raw, ...checked };
  });
  return { ok: true, store: { envelope, entries } };
}

/** The valid learnings of a store, in file order. */
export function validLearnings(store: LearningsStore): Learning[] {
  return store.entries.flatMap((e) => (e.learning ? [e.learning] : []));
}

/**
 * A store as JSON text (2-space indent, final newline): the top-level object with `lastUpdated`
 * set, every other key kept, and each entry written as it was read (invalid ones included).
 */
export function serializeLearningsStore(store: LearningsStore, lastUpdated: string): string {
  const out: Record<string, unknown> = {};
  if (!('version' in store.envelope)) out['version'] = LEARNINGS_STORE_VERSION;
  for (const [key, value] of Object.entries(store.envelope)) out[key] = value;
  out['lastUpdated'] = lastUpdated;
  out['learnings'] = store.entries.map((e) => e.raw);
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** Names an entry for a message: `learnings[3] (id "learn-x")`. */
export function entryName(entry: StoreEntry): string {
  const id = entry.raw !== null && typeof entry.raw === 'object' ? (entry.raw as Record<string, unknown>)['id'] : undefined;
  return typeof id === 'string' && id !== '' ? `learnings[${entry.index}] (id ${JSON.stringify(id)})` : `learnings[${entry.index}]`;
}

/** What is wrong with an invalid entry, as one sentence: `learnings[3] (id "x") is not a valid learning: …`. */
export function describeEntryProblems(entry: StoreEntry): string {
  return `${entryName(entry)} is not a valid learning: ${entry.problems.join('; ')}.`;
}

/** What each field must hold, for messages. */
const EXPECTED: Record<string, string> = {
  id: 'a non-empty string',
  taskId: 'a string (the task that produced the learning; may be "")',
  category: `one of ${LEARNING_CATEGORIES.map((c) => `"${c}"`).join(', ')}`,
  content: 'a string with some text',
  keywords: `an array of at most ${MAX_LEARNING_KEYWORDS} strings`,
  structured: 'an object whose file, pattern and approach are strings',
  confidence: 'a number from 0 to 1',
  usedCount: 'a whole number, 0 or more',
  successCount: 'a whole number, 0 or more',
  createdAt: 'an ISO 8601 time like "2024-01-10T08:00:00.000Z"',
  lastUsedAt: 'an ISO 8601 time like "2024-01-10T08:00:00.000Z", or no key at all',
};

/** Checks one element of `learnings`: the learning, or one phrase per wrong field. */
function checkLearning(raw: unknown): { learning: Learning | null; problems: string[] } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { learning: null, problems: [`it is ${describeJson(raw)}, not an object`] };
  }
  const result = learningsSchemas().learning.safeParse(raw);
  const fields: string[] = [];
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (!fields.includes(field)) fields.push(field);
    }
  }
  const record = raw as Record<string, unknown>;
  const problems = fields.map((field) => {
    const value = record[field];
    const got = value === undefined ? 'is missing' : `is ${describeJson(value)}`;
    return `${field} ${got}, expected ${EXPECTED[field] ?? 'a valid value'}`;
  });
  const { usedCount, successCount } = record;
  if (!fields.includes('usedCount') && !fields.includes('successCount') && (successCount as number) > (usedCount as number)) {
    problems.push(`successCount is ${String(successCount)}, more than usedCount (${String(usedCount)})`);
  }
  return problems.length === 0 && result.success ? { learning: result.data, problems } : { learning: null, problems };
}

/** Describes a JSON value for a message. */
function describeJson(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value;
}

/** Where a `JSON.parse` error points, from its message (V8 gives a position, and often a line and column). */
function positionOf(text: string, message: string): { line: number; column: number } | undefined {
  const lineColumn = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /at position (\d+)/.exec(message);
  if (position) {
    const offset = Number(position[1]);
    const lines = lineStarts(text);
    const line = lineAt(lines, offset);
    return { line, column: offset - lines[line - 1]! + 1 };
  }
  if (/Unexpected end of JSON input/.test(message)) {
    const lines = lineStarts(text);
    return { line: lines.length, column: text.length - lines[lines.length - 1]! + 1 };
  }
  return undefined;
}

/** Offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding an offset. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle]! <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/**
 * The offsets where the elements of the top-level object's `learnings` array start, in a text
 * `JSON.parse` accepted. With the key written twice, the last one counts, as for `JSON.parse`.
 */
export function locateLearnings(text: string): number[] {
  let i = 0;
  const space = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  // Skips any value; with `elements`, records where each element of an array starts.
  const skip = (elements?: number[]): void => {
    space();
    const c = text[i];
    if (c === '"') {
      string();
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i++;
      space();
      if (text[i] === close) {
        i++;
        return;
      }
      for (;;) {
        if (c === '{') {
          space();
          string();
          space();
          i++; // the colon
        } else {
          space();
          elements?.push(i);
        }
        skip();
        space();
        if (text[i++] === close) return;
      }
    } else {
      while (i < text.length && !/[\s,\]}]/.test(text[i]!)) i++;
    }
  };
  let found: number[] = [];
  space();
  if (text[i] !== '{') return found;
  i++;
  space();
  if (text[i] === '}') return found;
  for (;;) {
    space();
    const key = string();
    space();
    i++; // the colon
    space();
    if (key === 'learnings' && text[i] === '[') {
      found = [];
      skip(found);
    } else {
      skip();
    }
    space();
    if (text[i++] === '}') return found;
  }
}
