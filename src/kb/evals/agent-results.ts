/**
 * The results of the agent evaluation (content/reference/evaluations-agent.md): one per question,
 * and their totals, as `syllabus eval --agent` prints them and as `--json` gives them.
 */
import type { AgentCounts } from './agent-loop.ts';
import type { AgentScore } from './agent-score.ts';

/** The result of one question. */
export interface AgentQuestionResult extends AgentScore {
  id: string;
  /** The model's final text; null when it gave none (see `error`, or it hit `max_turns`). */
  answer: string | null;
  /** The tool calls the model made, in order: the tool, the arguments as written, and whether the call succeeded. */
  toolCalls: { name: string; arguments: string; ok: boolean }[];
  counts: AgentCounts;
  /** Whether the result came from the cache (no call was made for it in this run). */
  cached: boolean;
  /** Why the question failed (a call timed out, an HTTP error, …); null when it did not. */
  error: string | null;
}

/** The totals of a run. */
export interface AgentTotals {
  questions: number;
  /** The mean score, from 0 to 1 (0 for no question). */
  score: number;
  subjectsLoaded: number;
  subjectsExpected: number;
  stringsFound: number;
  stringsExpected: number;
  judgePassed: number;
  judged: number;
  calls: number;
  /** Calls made in this run: those of the results that did not come from the cache. */
  callsMade: number;
  promptTokens: number;
  completionTokens: number;
  /** Whether some tokens were counted locally because an answer had no `usage`. */
  estimated: boolean;
  /** The sum of the questions' call times, in milliseconds. */
  ms: number;
  /** Results that came from the cache. */
  cached: number;
  /** Questions that failed. */
  failed: number;
}

/** The totals of `results`. Cached results count their calls and tokens as they were when paid for. */
export function totalAgentResults(results: readonly AgentQuestionResult[]): AgentTotals {
  const sum = (of: (result: AgentQuestionResult) => number): number => results.reduce((total, result) => total + of(result), 0);
  return {
    questions: results.length,
    score: results.length === 0 ? 0 : sum((r) => r.score) / results.length,
    subjectsLoaded: sum((r) => r.subjects.filter((s) => s.loaded).length),
    subjectsExpected: sum((r) => r.subjects.length),
    stringsFound: sum((r) => r.answerIncludes.filter((a) => a.found).length),
    stringsExpected: sum((r) => r.answerIncludes.length),
    judgePassed: sum((r) => (r.judge && 'pass' in r.judge && r.judge.pass ? 1 : 0)),
    judged: sum((r) => (r.judge ? 1 : 0)),
    calls: sum((r) => r.counts.calls),
    callsMade: sum((r) => (r.cached ? 0 : r.counts.calls)),
    promptTokens: sum((r) => r.counts.promptTokens),
    completionTokens: sum((r) => r.counts.completionTokens),
    estimated: results.some((r) => r.counts.estimated),
    ms: sum((r) => r.counts.ms),
    cached: sum((r) => (r.cached ? 1 : 0)),
    failed: sum((r) => (r.error !== null ? 1 : 0)),
  };
}
