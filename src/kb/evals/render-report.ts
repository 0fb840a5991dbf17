/**
 * The evaluation as `syllabus eval` prints it (content/reference/cli/eval.md): an aligned table,
 * one row per question, and a line of totals; and the thresholds of `[eval]` it must reach.
 */
import type { EvalReport, EvalTotals } from './report-schema.ts';

/** A figure as the table shows it: two decimals. */
export function formatShare(value: number): string {
  return value.toFixed(2);
}

/** The line of totals: `<n> questions: hit@1 0.50, hit@3 0.75, MRR 0.63, mean tokens 1234`. */
export function renderTotals(totals: EvalTotals): string {
  const count = `${totals.questions} ${totals.questions === 1 ? 'question' : 'questions'}`;
  return `${count}: hit@1 ${formatShare(totals.hitAt1)}, hit@3 ${formatShare(totals.hitAt3)}, MRR ${formatShare(totals.mrr)}, mean tokens ${totals.meanTokens}`;
}

/**
 * The table: `question`, `rank` (the best rank of its expected subjects in find, `-` when none
 * is found), `section` (how the <knowledge> section leads to them), `listed` (whether the topic
 * listing lists them), `tokens`; columns padded to their widest cell, numbers to the right;
 * then a blank line and {@link renderTotals}.
 */
export function renderReport(report: EvalReport): string {
  const header = ['question', 'rank', 'section', 'listed', 'tokens'];
  const rows = report.questions.map((q) => [q.id, q.rank === null ? '-' : String(q.rank), q.section, q.listed ? 'yes' : 'no', String(q.tokens)]);
  const right = [false, true, false, false, true];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (right[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line), '', renderTotals(report.totals)].join('\n');
}

/** The thresholds of `[eval]` (content/reference/configuration.md); undefined: none. */
export interface EvalThresholds {
  min_hit_at_3: number | undefined;
  min_mrr: number | undefined;
}

/** One line per total under its threshold, saying by how much and what to do; none when every threshold is met. */
export function unmetThresholds(totals: EvalTotals, thresholds: EvalThresholds): string[] {
  const unmet: string[] = [];
  const fix = 'Improve the subjects or their titles and summaries so that find ranks them higher (reference/evaluations, "Reading the figures"), or lower the threshold in [eval].';
  if (thresholds.min_hit_at_3 !== undefined && totals.hitAt3 < thresholds.min_hit_at_3) {
    unmet.push(`hit@3 is ${totals.hitAt3}, under [eval] min_hit_at_3 = ${thresholds.min_hit_at_3}. ${fix}`);
  }
  if (thresholds.min_mrr !== undefined && totals.mrr < thresholds.min_mrr) {
    unmet.push(`MRR is ${totals.mrr}, under [eval] min_mrr = ${thresholds.min_mrr}. ${fix}`);
  }
  return unmet;
}
