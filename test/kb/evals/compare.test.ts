/** Comparing two evaluations (content/reference/evaluations.md, "In review"): better, worse, tokens, regressions. */
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compareEvaluations } from '../../../src/kb/evals/compare.ts';
import { totalsOf } from '../../../src/kb/evals/evaluate.ts';
import { EvalDeltaSchema, renderEvalSchema, type EvalReport, type EvaluatedQuestion } from '../../../src/kb/evals/report-schema.ts';

function question(id: string, rank: number | null, tokens: number): EvaluatedQuestion {
  return {
    id,
    ask: `Question ${id}?`,
    rank,
    hitAt1: rank === 1,
    hitAt3: rank !== null && rank <= 3,
    reciprocalRank: rank === null ? 0 : Math.round(10000 / rank) / 10000,
    section: 'topic',
    listed: true,
    tokens,
    expect: [{ topic: 't', slug: id, rank, section: 'topic', listed: true, tokens }],
  };
}

function report(questions: EvaluatedQuestion[]): EvalReport {
  return { version: 1, findLimit: 10, sectionTokens: 50, questions, totals: totalsOf(questions) };
}

const base = report([
  question('same', 2, 100),
  question('up', 4, 100),
  question('down', 2, 100),
  question('lost', 7, 100),
  question('fatter', 1, 100),
  question('never', null, 90),
]);
const head = report([
  question('same', 2, 100),
  question('up', 1, 100),
  question('down', 5, 100),
  question('lost', null, 80),
  question('fatter', 1, 130),
  question('never', null, 90),
]);

describe('compareEvaluations', () => {
  it('lists the questions whose rank or tokens changed, names those that left the top 3 or are no longer found, and counts the rest', () => {
    expect(compareEvaluations(base, head, 'head')).toEqual({
      questionSet: 'head',
      totals: { base: base.totals, head: head.totals },
      questions: [
        { id: 'up', ask: 'Question up?', change: 'better', rank: { base: 4, head: 1 }, hitAt3: { base: false, head: true }, tokens: { base: 100, head: 100, delta: 0 } },
        { id: 'down', ask: 'Question down?', change: 'worse', rank: { base: 2, head: 5 }, hitAt3: { base: true, head: false }, tokens: { base: 100, head: 100, delta: 0 } },
        { id: 'lost', ask: 'Question lost?', change: 'worse', rank: { base: 7, head: null }, hitAt3: { base: false, head: false }, tokens: { base: 100, head: 80, delta: -20 } },
        { id: 'fatter', ask: 'Question fatter?', change: 'tokens', rank: { base: 1, head: 1 }, hitAt3: { base: true, head: true }, tokens: { base: 100, head: 130, delta: 30 } },
      ],
      // "never" is not found on either side: unchanged, not a change.
      unchanged: 2,
      regressions: ['down', 'lost'],
    });
  });

  it('gives a value of its JSON Schema (the diff publishes it)', () => {
    expect(EvalDeltaSchema.safeParse(compareEvaluations(base, head, 'base')).success).toBe(true);
  });
});

describe('renderEvalSchema', () => {
  it('accepts a report and refuses one with a rank of 0', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(renderEvalSchema());
    expect(validate(head) ? null : validate.errors).toBeNull();
    expect(validate({ ...head, questions: [{ ...head.questions[0]!, rank: 0 }] })).toBe(false);
  });
});
