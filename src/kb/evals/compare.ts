/**
 * Comparing two offline evaluations of one question set (content/reference/evaluations.md, "In
 * review"): per question, whether the way to its answer got better or worse, and which questions
 * regressed. Pure.
 */
import type { EvalDelta, EvalReport, QuestionDelta } from './report-schema.ts';

/** A rank for comparing: not found is below every rank. */
function order(rank: number | null): number {
  return rank ?? Number.POSITIVE_INFINITY;
}

/**
 * The changes from `base` to `head`, both evaluations of the same question set (`questionSet`
 * says whose). A question is better when it ranks higher, worse when lower, and `tokens` when
 * only its tokens changed; it regressed when it left the top 3, or is no longer found. A
 * question only one side has (it cannot happen with one question set) is left out.
 */
export function compareEvaluations(base: EvalReport, head: EvalReport, questionSet: EvalDelta['questionSet']): EvalDelta {
  const before = new Map(base.questions.map((q) => [q.id, q]));
  const questions: QuestionDelta[] = [];
  const regressions: string[] = [];
  let unchanged = 0;
  for (const h of head.questions) {
    const b = before.get(h.id);
    if (!b) continue;
    const rankChange = h.rank === b.rank ? 0 : order(h.rank) - order(b.rank);
    if (rankChange === 0 && h.tokens === b.tokens) {
      unchanged++;
      continue;
    }
    const change = rankChange < 0 ? 'better' : rankChange > 0 ? 'worse' : 'tokens';
    questions.push({
      id: h.id,
      ask: h.ask,
      change,
      rank: { base: b.rank, head: h.rank },
      hitAt3: { base: b.hitAt3, head: h.hitAt3 },
      tokens: { base: b.tokens, head: h.tokens, delta: h.tokens - b.tokens },
    });
    if (change === 'worse' && ((b.hitAt3 && !h.hitAt3) || h.rank === null)) regressions.push(h.id);
  }
  return { questionSet, totals: { base: base.totals, head: head.totals }, questions, unchanged, regressions };
}
