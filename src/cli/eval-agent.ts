/**
 * `syllabus eval --agent`: the agent evaluation of a question set, as a table and totals or as
 * JSON (content/reference/evaluations-agent.md). The `eval` command parses its options and the
 * question set, then calls {@link runAgentEvaluation}.
 */
import path from 'node:path';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import type { AgentQuestionResult, AgentTotals } from '../kb/evals/agent-results.ts';
import type { EvalQuestion } from '../kb/evals/questions.ts';
import type { KnowledgeView } from '../kb/view/view.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { evaluateAgent, type AgentEvaluation } from '../evals/agent-evaluation.ts';
import { CliError } from './errors.ts';
import type { CommandIo } from './io.ts';

/** Options of {@link runAgentEvaluation}. */
export interface AgentEvaluationCommand {
  config: SyllabusConfig;
  questions: readonly EvalQuestion[];
  view: KnowledgeView;
  io: CommandIo;
  /** Print JSON instead of the table. */
  json: boolean;
  /** false: take no result from the cache (`--no-cache`). Default true. */
  cache?: boolean;
}

/**
 * Runs the agent evaluation and prints it; returns the exit code: 1 when the mean score is under
 * `eval.agent.min_score`, else 0. A call that ends the run (no such endpoint or model, a refused
 * key) is a CliError with exit code 1; no `[eval.agent]` table, one with exit code 2.
 */
export async function runAgentEvaluation(options: AgentEvaluationCommand): Promise<number> {
  const { config, io } = options;
  const settings = config.eval.agent;
  if (!settings) {
    throw new CliError(
      'eval --agent needs a model: the config has no [eval.agent] table. Add one with endpoint = "https://…/v1/chat/completions" and model = "<model name>" (reference/evaluations-agent).',
      2,
    );
  }
  const cacheFile = cacheFolder(defaultCacheDir(path.resolve(io.cwd, config.files[0]!))).agentEvals;
  const total = options.questions.length;
  io.status?.(`eval --agent: asking ${settings.model} 0/${total}…`);
  let evaluation: AgentEvaluation;
  try {
    evaluation = await evaluateAgent({
      settings,
      questions: options.questions,
      view: options.view,
      env: io.env,
      cacheFile,
      useCache: options.cache !== false,
      onProgress: (done) => io.status?.(`eval --agent: asking ${settings.model} ${done}/${total}…`),
    });
  } finally {
    io.status?.(null);
  }
  for (const warning of evaluation.warnings) io.err(`warning: ${warning}`);
  if (evaluation.stopped !== undefined) throw new CliError(`The agent evaluation stopped: ${evaluation.stopped}`, 1);

  const minScore = settings.min_score;
  const passed = minScore === undefined || evaluation.totals.score >= minScore;
  if (options.json) {
    io.out(
      JSON.stringify(
        { model: evaluation.model, judgeModel: evaluation.judgeModel, questions: evaluation.results, totals: evaluation.totals, minScore: minScore ?? null, passed },
        null,
        2,
      ),
    );
  } else {
    io.out(renderAgentTable(evaluation.results, evaluation.totals));
    io.out(renderAgentSummary(evaluation, minScore));
  }
  for (const result of evaluation.results) {
    if (result.error !== null) io.err(`${result.id}: ${result.error}`);
    else if (result.judge && 'error' in result.judge) io.err(`${result.id}: judge: ${result.judge.error}`);
  }
  if (!passed) io.err(`The mean score ${fixed(evaluation.totals.score)} is under eval.agent.min_score ${fixed(minScore)}.`);
  return passed ? 0 : 1;
}

const HEADER = ['question', 'score', 'expected', 'answer', 'judge', 'calls', 'tokens', 'seconds', 'cached'];
/** Columns aligned right (numbers); the others are aligned left. */
const RIGHT = new Set(['score', 'calls', 'tokens', 'seconds']);

/**
 * The table of results: a row per question, then the totals. `expected` is the expected subjects
 * loaded of those expected, `answer` the strings found of those asked (`-` for none asked),
 * `judge` the verdict (`pass`, `fail`, `error`, `-` without a rubric), `tokens` prompt and
 * completion tokens together; a question that failed shows `failed` in `cached`.
 */
export function renderAgentTable(results: readonly AgentQuestionResult[], totals: AgentTotals): string {
  const rows = results.map((r) => [
    r.id,
    fixed(r.score),
    `${r.subjects.filter((s) => s.loaded).length}/${r.subjects.length}`,
    r.answerIncludes.length === 0 ? '-' : `${r.answerIncludes.filter((a) => a.found).length}/${r.answerIncludes.length}`,
    r.judge === undefined ? '-' : 'error' in r.judge ? 'error' : r.judge.pass ? 'pass' : 'fail',
    String(r.counts.calls),
    String(r.counts.promptTokens + r.counts.completionTokens),
    (r.counts.ms / 1000).toFixed(1),
    r.error !== null ? 'failed' : r.cached ? 'yes' : 'no',
  ]);
  rows.push([
    'total',
    fixed(totals.score),
    `${totals.subjectsLoaded}/${totals.subjectsExpected}`,
    totals.stringsExpected === 0 ? '-' : `${totals.stringsFound}/${totals.stringsExpected}`,
    totals.judged === 0 ? '-' : `${totals.judgePassed}/${totals.judged}`,
    String(totals.calls),
    String(totals.promptTokens + totals.completionTokens),
    (totals.ms / 1000).toFixed(1),
    `${totals.cached}/${totals.questions}`,
  ]);
  const widths = HEADER.map((name, column) => Math.max(name.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (RIGHT.has(HEADER[column]!) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(HEADER), ...rows.map(line)].join('\n');
}

/** The lines after the table: the mean score against the threshold, and what the run cost. */
export function renderAgentSummary(evaluation: AgentEvaluation, minScore: number | undefined): string {
  const { totals } = evaluation;
  const threshold = minScore === undefined ? '' : ` (min_score ${fixed(minScore)})`;
  const judge = evaluation.judgeModel === evaluation.model ? '' : `, judged by ${evaluation.judgeModel}`;
  const failed = totals.failed === 0 ? '' : `, ${totals.failed} failed`;
  const estimated = totals.estimated ? ' (counted with o200k_base where the endpoint gave no usage)' : '';
  return [
    `Mean score ${fixed(totals.score)}${threshold} over ${totals.questions} ${totals.questions === 1 ? 'question' : 'questions'}${failed}.`,
    `${evaluation.model}${judge}: ${totals.callsMade} ${totals.callsMade === 1 ? 'call' : 'calls'} made, ${totals.cached} ${totals.cached === 1 ? 'answer' : 'answers'} from the cache; ${totals.promptTokens} prompt and ${totals.completionTokens} completion tokens${estimated}.`,
  ].join('\n');
}

/** A score with two decimals. */
function fixed(value: number | undefined): string {
  return (value ?? 0).toFixed(2);
}
