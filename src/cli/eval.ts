/** `syllabus eval`: the offline evaluation of a question set (content/reference/cli/eval.md). */
import type { Catalog } from '../kb/catalog/catalog.ts';
import { displayPath, formatDiagnostic, hasConfigErrors, hasContentErrors, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import { readCheckedQuestionSet, topicTitlesOf } from '../kb/evals/checked-questions.ts';
import { EVAL_FIND_LIMIT, evaluateQuestions } from '../kb/evals/evaluate.ts';
import { renderReport, unmetThresholds } from '../kb/evals/render-report.ts';
import { renderEvalSchema } from '../kb/evals/report-schema.ts';
import { CliError, usageError } from './errors.ts';
import { runAgentEvaluation } from './eval-agent.ts';
import { catalogWithCache } from './find.ts';
import type { CommandIo } from './io.ts';
import { localViewFor } from './knowledge-flags.ts';
import { warnContentErrors } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const EVAL_HELP = `Usage: syllabus eval [--json] [--config PATH]…
       syllabus eval --agent [--no-cache] [--json] [--config PATH]…
       syllabus eval --schema

Asks every question of the question set ([eval] questions in kb.toml) of the knowledge base's
own tools, without a model, and prints one row per question and the totals:

  rank      where find ranks the best of its expected subjects (- : not in the first ${EVAL_FIND_LIMIT})
  section   how the <knowledge> section leads to them: preloaded, index, topic or none
  listed    whether the topic's listing (learn with the topic alone) lists them
  tokens    what an agent reads to reach them: section + listing + subjects

Totals: hit@1 and hit@3 (the share of questions whose expected subjects find ranks first, or in
its top 3), MRR (mean reciprocal rank) and the mean tokens. The site is not built.

With --agent, a model ([eval.agent] in kb.toml) answers each question instead, with the
<knowledge> section as its system prompt and the learn and find tools, and is scored on the
expected subjects it loaded and on its answer (answer_includes, and a judge for a rubric);
answers are cached by content (reference/evaluations-agent).

Options:
      --json              print the evaluation as JSON (its JSON Schema: --schema)
      --agent             run the agent evaluation with the model of [eval.agent]
      --no-cache          with --agent: ask the model again for every question
      --schema            print the JSON Schema of --json
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -h, --help              show this help

Exit codes: 0 evaluated (every threshold of [eval] met), 1 a total under its threshold
(min_hit_at_3, min_mrr; with --agent, min_score) or an agent evaluation the endpoint stopped,
2 usage or configuration error (no question set, or one with errors; no [eval.agent] table).`;

/** Runs `eval`; returns the exit code. */
export async function evalCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...CONFIG_OPTION, json: { type: 'boolean' }, schema: { type: 'boolean' }, agent: { type: 'boolean' }, 'no-cache': { type: 'boolean' } },
    'eval',
  );
  if (values.help) {
    io.out(EVAL_HELP);
    return 0;
  }
  if (values.schema) {
    if (positionals.length > 0 || values.json || values.agent) throw usageError('eval --schema takes no other arguments: it prints the JSON Schema of eval --json.', 'eval');
    io.out(JSON.stringify(renderEvalSchema(), null, 2));
    return 0;
  }
  if (positionals.length > 0) throw usageError(`eval takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'eval');
  if (values['no-cache'] && !values.agent) throw usageError('--no-cache goes with --agent: the offline evaluation asks no model and caches nothing.', 'eval');

  // One catalog for every question: find asks for it at each call.
  const withCache = catalogWithCache(io);
  let catalog: Promise<Catalog> | undefined;
  const { view, kb } = await localViewFor(values, io, 'eval', {}, { catalog: (base) => (catalog ??= withCache(base)) });
  const set = readCheckedQuestionSet(kb);
  if (!set) {
    const files = kb.config.files.map((file) => displayPath(file, io.cwd)).join(', ');
    throw new CliError(`${files} sets no [eval] questions: there is no question set to evaluate.`, 2, [
      'Add [eval] questions = "evals.toml" and write the questions in that file, next to kb.toml (reference/evaluations).',
    ]);
  }
  if (hasConfigErrors(set.diagnostics) || hasContentErrors(set.diagnostics)) {
    const lines = sortDiagnostics(set.diagnostics.filter((d) => d.kind !== 'warning')).map((d) => formatDiagnostic(d, io.cwd));
    throw new CliError(lines[0]!, 2, [...lines.slice(1).map((line) => `error: ${line}`), 'Fix the question set; "syllabus check" reports the same.']);
  }
  if (values.agent) {
    const code = await runAgentEvaluation({ config: kb.config, questions: set.questions, view, io, json: values.json === true, cache: !values['no-cache'] });
    warnContentErrors(kb, io);
    return code;
  }
  const report = await evaluateQuestions(view, set.questions, topicTitlesOf(kb));
  warnContentErrors(kb, io);
  io.out(values.json ? JSON.stringify(report, null, 2) : renderReport(report));
  const unmet = unmetThresholds(report.totals, kb.config.eval);
  if (unmet.length === 0) return 0;
  throw new CliError(
    unmet[0]!,
    1,
    unmet.slice(1).map((line) => `error: ${line}`),
  );
}
