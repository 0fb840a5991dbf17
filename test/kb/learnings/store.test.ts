/**
 * Reading learnings stores (content/reference/cli/learnings.md, "The store"): the whole file is
 * refused only when it is not a store at all; otherwise every entry is checked on its own and reported with its line.
 */
import { describe, expect, it } from 'vitest';
import { describeEntryProblems, emptyLearningsStore, serializeLearningsStore, type LearningsStore } from '../../../src/kb/index.ts';
import { parseLearningsStore } from '../../../src/kb/learnings/store.ts';
import { SAMPLE_LEARNING } from '../../helpers/sample-learning.ts';

/** A valid learning, as the store's format holds it; `fields` override or (as undefined) remove keys. */
function learning(fields: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = { ...SAMPLE_LEARNING };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) delete base[key];
    else base[key] = value;
  }
  return base;
}

/** A store's text with these entries, one per line after the header (entry i is on line 5 + i). */
function storeText(entries: unknown[]): string {
  return `{\n  "version": "1.0",\n  "lastUpdated": "2024-01-15T10:30:00.000Z",\n  "learnings": [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]\n}\n`;
}

function parsed(text: string): LearningsStore {
  const reading = parseLearningsStore(text);
  if (!reading.ok) throw new Error(`not a store: ${reading.problem}`);
  return reading.store;
}

/** Each entry's line and what is wrong with it (valid entries: []). */
function problemsOf(entries: unknown[]): { line: number; problems: string[] }[] {
  return parsed(storeText(entries)).entries.map((e) => ({ line: e.line, problems: e.problems }));
}

describe('parseLearningsStore: valid stores', () => {
  it("reads the example store of content/reference/cli/learnings.md, with each entry's line", () => {
    const text = `{
  "version": "1.0",
  "lastUpdated": "2024-01-15T10:30:00.000Z",
  "learnings": [
    {
      "id": "learn-lx2abc-def123",
      "taskId": "task-123",
      "category": "pattern",
      "content": "This project uses Zod schemas for all API validation",
      "keywords": ["zod", "schema", "validation", "api"],
      "confidence": 0.75,
      "usedCount": 5,
      "successCount": 4,
      "createdAt": "2024-01-10T08:00:00.000Z",
      "lastUsedAt": "2024-01-14T15:30:00.000Z"
    },
    {"id": "learn-2", "taskId": "", "category": "gotcha", "content": "x", "keywords": [], "structured": {"file": "src/a.ts", "pattern": "a()", "approach": "b"},
     "confidence": 0, "usedCount": 0, "successCount": 0, "createdAt": "2024-01-10T08:00:00+02:00"}
  ]
}`;
    const store = parsed(text);
    expect(store.entries.map((e) => ({ index: e.index, line: e.line, problems: e.problems, id: e.learning?.id }))).toEqual([
      { index: 0, line: 5, problems: [], id: 'learn-lx2abc-def123' },
      { index: 1, line: 17, problems: [], id: 'learn-2' },
    ]);
    expect(store.entries[0]!.learning).toEqual(learning());
  });

  it('keeps keys the format does not define, and reads a store without "version"', () => {
    const store = parsed(JSON.stringify({ learnings: [learning({ source: 'undercity', structured: { file: 'a.ts', extra: 1 } })], owner: 'team' }));
    expect(store.entries[0]!.learning).toEqual(learning({ source: 'undercity', structured: { file: 'a.ts', extra: 1 } }));
    expect(store.envelope['owner']).toBe('team');
  });

  it('takes the last "learnings" key, as JSON.parse does, for values and lines alike', () => {
    const store = parsed(`{"learnings": [1, 2],\n"learnings": [\n\n${JSON.stringify(learning())}]}`);
    expect(store.entries.map((e) => [e.line, e.learning?.id])).toEqual([[4, 'learn-lx2abc-def123']]);
  });

  it('finds the lines of entries after strings holding brackets, braces, quotes and escapes', () => {
    const tricky = learning({ content: 'a "[{" ] } \\" \\\\ ,\n line' });
    const text = `{"note": "] } [ { \\" ,", "nested": {"learnings": [0, 0]},\n"learnings": [\n${JSON.stringify(tricky)},\n\n  ${JSON.stringify(learning({ id: 'b' }))}\n]}`;
    expect(parsed(text).entries.map((e) => [e.line, e.learning?.id])).toEqual([
      [3, 'learn-lx2abc-def123'],
      [5, 'b'],
    ]);
  });
});

describe('parseLearningsStore: invalid entries, one by one', () => {
  it('reports every kind of wrong entry at its line, naming each wrong field and what it must hold', () => {
    const entries = [
      learning(),
      'oops',
      null,
      [1, 2],
      learning({ id: undefined, taskId: 7 }),
      learning({ id: '' }),
      learning({ category: 'tip' }),
      learning({ content: '  \n ' }),
      learning({ keywords: Array.from({ length: 21 }, (_, i) => `k${i}`) }),
      learning({ keywords: ['ok', 3] }),
      learning({ structured: { file: 1 } }),
      learning({ structured: 'src/a.ts' }),
      learning({ confidence: 1.5 }),
      learning({ confidence: '0.5' }),
      learning({ usedCount: -1 }),
      learning({ usedCount: 2.5 }),
      learning({ successCount: 6 }),
      learning({ createdAt: '2024-01-10' }),
      learning({ createdAt: undefined }),
      learning({ lastUsedAt: null }),
      learning({ lastUsedAt: 'yesterday' }),
      learning({ id: 'learn-ok-2' }),
    ];
    expect(problemsOf(entries)).toEqual([
      { line: 5, problems: [] },
      { line: 6, problems: ['it is "oops", not an object'] },
      { line: 7, problems: ['it is null, not an object'] },
      { line: 8, problems: ['it is an array, not an object'] },
      { line: 9, problems: ['id is missing, expected a non-empty string', 'taskId is 7, expected a string (the task that produced the learning; may be "")'] },
      { line: 10, problems: ['id is "", expected a non-empty string'] },
      { line: 11, problems: ['category is "tip", expected one of "pattern", "gotcha", "fact", "preference"'] },
      { line: 12, problems: ['content is "  \\n ", expected a string with some text'] },
      { line: 13, problems: ['keywords is an array, expected an array of at most 20 strings'] },
      { line: 14, problems: ['keywords is an array, expected an array of at most 20 strings'] },
      { line: 15, problems: ['structured is an object, expected an object whose file, pattern and approach are strings'] },
      { line: 16, problems: ['structured is "src/a.ts", expected an object whose file, pattern and approach are strings'] },
      { line: 17, problems: ['confidence is 1.5, expected a number from 0 to 1'] },
      { line: 18, problems: ['confidence is "0.5", expected a number from 0 to 1'] },
      { line: 19, problems: ['usedCount is -1, expected a whole number, 0 or more'] },
      { line: 20, problems: ['usedCount is 2.5, expected a whole number, 0 or more'] },
      { line: 21, problems: ['successCount is 6, more than usedCount (5)'] },
      { line: 22, problems: ['createdAt is "2024-01-10", expected an ISO 8601 time like "2024-01-10T08:00:00.000Z"'] },
      { line: 23, problems: ['createdAt is missing, expected an ISO 8601 time like "2024-01-10T08:00:00.000Z"'] },
      { line: 24, problems: ['lastUsedAt is null, expected an ISO 8601 time like "2024-01-10T08:00:00.000Z", or no key at all'] },
      { line: 25, problems: ['lastUsedAt is "yesterday", expected an ISO 8601 time like "2024-01-10T08:00:00.000Z", or no key at all'] },
      { line: 26, problems: [] },
    ]);
  });

  it('keeps valid entries next to invalid ones, and gives invalid ones no learning', () => {
    const store = parsed(storeText([learning({ id: 'a' }), learning({ id: 'b', confidence: 2 }), learning({ id: 'c' })]));
    expect(store.entries.map((e) => e.learning?.id ?? null)).toEqual(['a', null, 'c']);
  });

  it('describes an invalid entry in one sentence, by index and id when it has one', () => {
    const store = parsed(storeText([learning({ confidence: 2, usedCount: undefined }), 42]));
    expect(store.entries.map(describeEntryProblems)).toEqual([
      'learnings[0] (id "learn-lx2abc-def123") is not a valid learning: confidence is 2, expected a number from 0 to 1; usedCount is missing, expected a whole number, 0 or more.',
      'learnings[1] is not a valid learning: it is 42, not an object.',
    ]);
  });
});

describe('parseLearningsStore: files that are not a store', () => {
  it.each([
    ['{\n  "learnings": [\n  }', { ok: false, problem: "is not valid JSON (Unexpected token '}')", fix: 'Fix the JSON.' }],
    ['{\n  "a": 1,\n  }', { ok: false, problem: 'is not valid JSON (Expected double-quoted property name)', fix: 'Fix the JSON at line 3, column 3.', line: 3, column: 3 }],
    [
      '{"learnings": []}x',
      { ok: false, problem: 'is not valid JSON (Unexpected non-whitespace character after JSON)', fix: 'Fix the JSON at line 1, column 18.', line: 1, column: 18 },
    ],
    ['{\n  "learnings": [', { ok: false, problem: 'is not valid JSON (Unexpected end of JSON input)', fix: 'Fix the JSON at line 2, column 17.', line: 2, column: 17 }],
    ['', { ok: false, problem: 'is not valid JSON (Unexpected end of JSON input)', fix: 'Fix the JSON at line 1, column 1.', line: 1, column: 1 }],
    ['[]', { ok: false, problem: 'is an array, not a learnings store object', fix: 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.' }],
    ['"x"', { ok: false, problem: 'is "x", not a learnings store object', fix: 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.' }],
    ['{"version": "1.0"}', { ok: false, problem: 'has no "learnings" array', fix: 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.' }],
    [
      '{"learnings": {}}',
      { ok: false, problem: 'has a "learnings" that is an object, not an array', fix: 'A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.' },
    ],
    [
      '{"version": "2.0", "learnings": []}',
      { ok: false, problem: 'has version "2.0"; Syllabus reads version "1.0" stores', fix: 'Convert the store to version "1.0" (content/reference/cli/learnings.md).' },
    ],
  ])('%j', (text, expected) => {
    expect(parseLearningsStore(text)).toEqual(expected);
  });
});

describe('serializeLearningsStore', () => {
  it('writes every entry back as it was read (invalid ones and unknown keys included), with lastUpdated set', () => {
    const text = `{"owner": "team", "lastUpdated": "x", "version": "1.0", "learnings": [${JSON.stringify(learning({ source: 'u' }))}, "oops"]}`;
    expect(serializeLearningsStore(parsed(text), '2024-03-01T00:00:00.000Z')).toBe(
      `${JSON.stringify({ owner: 'team', lastUpdated: '2024-03-01T00:00:00.000Z', version: '1.0', learnings: [learning({ source: 'u' }), 'oops'] }, null, 2)}\n`,
    );
  });

  it("writes a new store in the format's shape", () => {
    expect(serializeLearningsStore(emptyLearningsStore(), '2024-03-01T00:00:00.000Z')).toBe(
      '{\n  "version": "1.0",\n  "lastUpdated": "2024-03-01T00:00:00.000Z",\n  "learnings": []\n}\n',
    );
  });

  it('adds "version" to a store read without it', () => {
    expect(serializeLearningsStore(parsed('{"learnings": []}'), 'T')).toBe('{\n  "version": "1.0",\n  "learnings": [],\n  "lastUpdated": "T"\n}\n');
  });
});
