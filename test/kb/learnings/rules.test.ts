/**
 * The rules over a store (content/reference/cli/learnings.md): add (with its duplicate rule, Jaccard similarity over 0.8),
 * statistics, and pruning (never used, confidence under 0.7, older than the maximum age).
 */
import { describe, expect, it } from 'vitest';
import {
  addLearning,
  learningsStats,
  newLearningId,
  pruneLearnings,
  pruneRules,
  serializeLearningsStore,
  type Learning,
  type LearningsStore,
  type NewLearning,
} from '../../../src/kb/index.ts';
import { isPrunable } from '../../../src/kb/learnings/rules.ts';
import { parseLearningsStore } from '../../../src/kb/learnings/store.ts';

const NOW = new Date('2024-03-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

function learning(fields: Partial<Learning> = {}): Learning {
  return {
    id: 'learn-1',
    taskId: 'task-1',
    category: 'pattern',
    content: 'This project uses Zod schemas for all API validation',
    keywords: ['zod'],
    confidence: 0.5,
    usedCount: 0,
    successCount: 0,
    createdAt: '2024-01-01T00:00:00.000Z',
    ...fields,
  };
}

function store(entries: unknown[]): LearningsStore {
  const reading = parseLearningsStore(JSON.stringify({ version: '1.0', lastUpdated: '2024-01-01T00:00:00.000Z', learnings: entries }));
  if (!reading.ok) throw new Error(reading.problem);
  return reading.store;
}

function input(fields: Partial<NewLearning> = {}): NewLearning {
  return { id: 'learn-new', taskId: '', category: 'gotcha', content: 'ESM imports need the js extension', createdAt: NOW.toISOString(), ...fields };
}

const ids = (s: LearningsStore): unknown[] => s.entries.map((e) => (e.raw as { id?: unknown }).id ?? e.raw);

describe('newLearningId', () => {
  it('is learn-{time in base 36}-{six base-36 characters}', () => {
    const values = [0, 0.5, 0.99, 0.1, 0.2, 0.3];
    expect(newLearningId(NOW, () => values.shift()!)).toBe(`learn-${NOW.getTime().toString(36)}-0iz37a`);
  });
});

describe('addLearning', () => {
  it('appends a learning: confidence 0.5, never used, keywords from its content', () => {
    const outcome = addLearning(store([learning()]), input({ structured: { file: 'src/a.ts' } }));
    const expected: Learning = {
      id: 'learn-new',
      taskId: '',
      category: 'gotcha',
      content: 'ESM imports need the js extension',
      keywords: ['esm', 'imports', 'need', 'extension'],
      structured: { file: 'src/a.ts' },
      confidence: 0.5,
      usedCount: 0,
      successCount: 0,
      createdAt: '2024-03-01T00:00:00.000Z',
    };
    expect(outcome).toMatchObject({ added: true, learning: expected });
    if (!outcome.added) return;
    expect(ids(outcome.store)).toEqual(['learn-1', 'learn-new']);
    expect(outcome.store.entries[1]!.raw).toEqual(expected);
  });

  it('keeps keywords given, and leaves out an empty structured', () => {
    const outcome = addLearning(store([]), input({ keywords: ['ESM', 'node'], structured: {} }));
    expect(outcome.added && outcome.learning).toEqual({
      id: 'learn-new',
      taskId: '',
      category: 'gotcha',
      content: 'ESM imports need the js extension',
      keywords: ['ESM', 'node'],
      confidence: 0.5,
      usedCount: 0,
      successCount: 0,
      createdAt: '2024-03-01T00:00:00.000Z',
    });
  });

  it('adds a learning whose word set has a similarity of exactly 0.8 with an existing one (4 of 5 words)', () => {
    const outcome = addLearning(store([learning({ content: 'alpha bravo charlie delta echo' })]), input({ content: 'Alpha, bravo; charlie and delta.' }));
    expect(outcome.added).toBe(true);
  });

  it('refuses one just over 0.8 (5 of 6 words), reporting the duplicate and its overlap', () => {
    const existing = learning({ content: 'alpha bravo charlie delta echo foxtrot' });
    const outcome = addLearning(store([existing]), input({ content: 'The alpha, the bravo, charlie, delta and echo' }));
    expect(outcome).toEqual({ added: false, reason: 'duplicate', duplicate: { learning: existing, shared: 5, union: 6 } });
  });

  it('reports the most similar of several duplicates, the first in file order on a tie, whatever their category', () => {
    const a = learning({ id: 'a', content: 'word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 extra' }); // 10 of 11
    const b = learning({ id: 'b', category: 'fact', content: 'word1 word2 word3 word4 word5 word6 word7 word8 word9 word10' }); // 10 of 10
    const c = learning({ id: 'c', content: 'word10 word9 word8 word7 word6 word5 word4 word3 word2 word1' }); // 10 of 10, later
    const outcome = addLearning(store([a, b, c]), input({ content: 'word1 word2 word3 word4 word5 word6 word7 word8 word9 word10' }));
    expect(outcome).toEqual({ added: false, reason: 'duplicate', duplicate: { learning: b, shared: 10, union: 10 } });
  });

  it('compares with valid learnings only, and keeps invalid entries as they were', () => {
    const bad = { id: 'bad', content: 'ESM imports need the js extension' };
    const outcome = addLearning(store([bad, 'oops']), input());
    expect(outcome.added).toBe(true);
    if (outcome.added) expect(outcome.store.entries.map((e) => e.raw)).toEqual([bad, 'oops', outcome.learning]);
  });

  it('refuses an id an entry already has (a valid or an invalid one)', () => {
    expect(addLearning(store([learning()]), input({ id: 'learn-1' }))).toEqual({ added: false, reason: 'id-taken', id: 'learn-1' });
    expect(addLearning(store([{ id: 'x' }]), input({ id: 'x' }))).toEqual({ added: false, reason: 'id-taken', id: 'x' });
  });

  it('writes back as a store with the new learning last', () => {
    const outcome = addLearning(store([]), input({ keywords: [] }));
    if (!outcome.added) throw new Error('not added');
    expect(serializeLearningsStore(outcome.store, NOW.toISOString())).toBe(`{
  "version": "1.0",
  "lastUpdated": "2024-03-01T00:00:00.000Z",
  "learnings": [
    {
      "id": "learn-new",
      "taskId": "",
      "category": "gotcha",
      "content": "ESM imports need the js extension",
      "keywords": [],
      "confidence": 0.5,
      "usedCount": 0,
      "successCount": 0,
      "createdAt": "2024-03-01T00:00:00.000Z"
    }
  ]
}
`);
  });
});

describe('pruning', () => {
  const rules = pruneRules(NOW);
  const old = new Date(NOW.getTime() - 31 * DAY).toISOString();

  it('prunes a learning only when it is never used, under 0.7 confidence and older than 30 days', () => {
    expect(isPrunable(learning({ createdAt: old }), rules)).toBe(true);
  });

  it.each([
    ['used once', { usedCount: 1 }],
    ['confidence exactly 0.7', { confidence: 0.7 }],
    ['confidence 0.9', { confidence: 0.9 }],
    ['created exactly 30 days ago', { createdAt: new Date(NOW.getTime() - 30 * DAY).toISOString() }],
    ['created 29 days ago', { createdAt: new Date(NOW.getTime() - 29 * DAY).toISOString() }],
  ])('keeps a learning %s', (_, fields) => {
    expect(isPrunable(learning({ createdAt: old, ...fields }), rules)).toBe(false);
  });

  it('takes the maximum age in days, and judges a time with an offset by its instant', () => {
    expect(isPrunable(learning({ createdAt: '2024-02-20T00:00:00.000Z' }), pruneRules(NOW, 10))).toBe(false);
    expect(isPrunable(learning({ createdAt: '2024-02-20T00:00:00.000Z' }), pruneRules(NOW, 9.5))).toBe(true);
    expect(isPrunable(learning({ createdAt: '2024-02-20T01:00:00+02:00' }), pruneRules(NOW, 10))).toBe(true);
  });

  it('removes prunable learnings in file order and keeps everything else, invalid entries included', () => {
    const a = learning({ id: 'a', createdAt: old });
    const b = learning({ id: 'b', createdAt: old, usedCount: 1 });
    const c = learning({ id: 'c', category: 'fact', createdAt: old, confidence: 0.1 });
    const result = pruneLearnings(store([a, { id: 'broken' }, b, c]), rules);
    expect(result.pruned).toEqual([a, c]);
    expect(ids(result.store)).toEqual(['broken', 'b']);
  });
});

describe('learningsStats', () => {
  it('counts by category, averages confidence, lists the most used (five, most first, file order on ties) and what prune would remove', () => {
    const old = '2023-01-01T00:00:00.000Z';
    const entries = [
      learning({ id: 'a', usedCount: 2, successCount: 1, confidence: 0.6 }),
      learning({ id: 'b', category: 'gotcha', usedCount: 9, successCount: 9, confidence: 0.95 }),
      learning({ id: 'c', category: 'gotcha', usedCount: 2, successCount: 0, confidence: 0.1 }),
      learning({ id: 'd', category: 'fact', usedCount: 0, confidence: 0.5, createdAt: old }),
      learning({ id: 'e', usedCount: 1, successCount: 1, confidence: 0.8 }),
      learning({ id: 'f', usedCount: 3, successCount: 2, confidence: 0.65 }),
      learning({ id: 'g', usedCount: 1, successCount: 0, confidence: 0.4 }),
      { id: 'invalid' },
    ];
    const stats = learningsStats(store(entries), pruneRules(NOW));
    expect({ ...stats, mostUsed: stats.mostUsed.map((l) => l.id) }).toEqual({
      totalLearnings: 7,
      invalidEntries: 1,
      byCategory: { pattern: 4, gotcha: 2, fact: 1, preference: 0 },
      avgConfidence: (0.6 + 0.95 + 0.1 + 0.5 + 0.8 + 0.65 + 0.4) / 7,
      mostUsed: ['b', 'f', 'a', 'c', 'e'],
      prunable: 1,
    });
  });

  it('has no average and no most used for a store without learnings', () => {
    expect(learningsStats(store([]), pruneRules(NOW))).toEqual({
      totalLearnings: 0,
      invalidEntries: 0,
      byCategory: { pattern: 0, gotcha: 0, fact: 0, preference: 0 },
      avgConfidence: null,
      mostUsed: [],
      prunable: 0,
    });
  });
});
