/**
 * Which question set both sides of a diff or a preview are asked (content/reference/evaluations.md,
 * "In review"): the head's, else the base's; none without one; none, with a warning, when it has
 * errors.
 */
import { describe, expect, it } from 'vitest';
import { evaluateSides, type EvaluableSide } from '../../src/cli/diff-sides.ts';
import type { CommandIo } from '../../src/cli/io.ts';
import type { EvalQuestion, QuestionSet } from '../../src/kb/evals/questions.ts';
import type { EvalReport } from '../../src/kb/evals/report-schema.ts';
import type { Diagnostic } from '../../src/kb/diagnostics/diagnostics.ts';

const question = (id: string): EvalQuestion => ({ id, ask: `${id}?`, expect: [{ topic: 't', slug: id }], answerIncludes: [], rubric: undefined, line: 1 });
const set = (ids: string[], diagnostics: Diagnostic[] = []): QuestionSet => ({ file: '/kb/evals.toml', questions: ids.map(question), diagnostics });

/** A side that answers every question with `rank`, and records which questions it was asked. */
function side(questions: QuestionSet | undefined, rank: number | null): EvaluableSide & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    questions,
    asked,
    evaluate: async (qs) => {
      asked.push(qs.map((q) => q.id));
      const evaluated = qs.map((q) => ({
        id: q.id,
        ask: q.ask,
        rank,
        hitAt1: rank === 1,
        hitAt3: rank !== null && rank <= 3,
        reciprocalRank: rank === null ? 0 : 1 / rank,
        section: 'topic' as const,
        listed: true,
        tokens: 10,
        expect: [],
      }));
      const report: EvalReport = {
        version: 1,
        findLimit: 10,
        sectionTokens: 5,
        questions: evaluated,
        totals: { questions: qs.length, hitAt1: 0, hitAt3: 0, mrr: 0, meanTokens: 10, led: 1 },
      };
      return report;
    },
  };
}

function io(): CommandIo & { lines: string[] } {
  const lines: string[] = [];
  return { cwd: '/kb', env: {}, out: () => {}, err: (line) => lines.push(line), lines };
}

describe('evaluateSides', () => {
  it("asks both sides the head's questions when the head has a set", async () => {
    const base = side(set(['old']), 1);
    const head = side(set(['a', 'b']), 4);
    const delta = await evaluateSides(base, head, io());
    expect([base.asked, head.asked, delta?.questionSet, delta?.regressions]).toEqual([[['a', 'b']], [['a', 'b']], 'head', ['a', 'b']]);
  });

  it("asks both sides the base's questions when only the base has a set", async () => {
    const base = side(set(['old']), 2);
    const head = side(undefined, 1);
    const delta = await evaluateSides(base, head, io());
    expect([base.asked, head.asked, delta?.questionSet, delta?.questions.map((q) => q.change)]).toEqual([[['old']], [['old']], 'base', ['better']]);
  });

  it('evaluates nothing without a question set', async () => {
    const base = side(undefined, 1);
    expect(await evaluateSides(base, side(undefined, 1), io())).toBeUndefined();
    expect(base.asked).toEqual([]);
  });

  it('leaves a question set with errors out, with a warning naming it', async () => {
    const base = side(undefined, 1);
    const broken = set(['a'], [{ kind: 'content-error', code: 'unknown-expected', message: 'x', file: '/kb/evals.toml', line: 1 }]);
    const out = io();
    expect(await evaluateSides(base, side(broken, 1), out)).toBeUndefined();
    expect([base.asked, out.lines]).toEqual([[], ['warning: the question set evals.toml has errors, so the questions are not evaluated. Run "syllabus check" to see them.']]);
  });
});
