/** `syllabus diff <base> <head>`: the knowledge diff of two versions of a knowledge base (content/reference/cli/diff.md). */
import { renderDiffMarkdown } from '../kb/diff/markdown.ts';
import { renderDiffSchema, type KnowledgeDiff } from '../kb/diff/schema.ts';
import { diffSnapshots } from '../kb/diff/diff.ts';
import { readDiffSides } from './diff-sides.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { parseCommandArgs } from './parse-args.ts';

export const DIFF_HELP = `Usage: syllabus diff <base> <head> [--json] [--fail-on-regression]
       syllabus diff --schema

Prints what changed from <base> to <head>, as markdown for a pull-request comment: subjects
added, removed, changed (with a line diff), moved, and changed visibility; token deltas per
subject, topic, <knowledge> section and profile; the diff of the <knowledge> text; and, when a
side is a kb.toml with a question set ([eval] questions), how each question's rank in find and
its tokens changed (reference/evaluations).

Each side is one of:
  a kb.toml            a source: every subject, hidden and disabled ones included
  a folder             a build written by "syllabus build" (dist/): what was published
  an http(s) URL       a published site (its root, with any base path): what was published

A source compared with a build is compared as published (its hidden and disabled subjects
left out).

Options:
      --json              print the diff as JSON (its JSON Schema: --schema)
      --fail-on-regression
                          exit 1 after printing when a question of the question set
                          regressed (left the top 3 of find, or is no longer found)
      --schema            print the JSON Schema of --json
  -h, --help              show this help

Exit codes: 0 the diff was printed (with or without changes: --json's "equal" tells which),
1 a side cannot be read (missing, not a Syllabus build, another format version, unreachable)
or, with --fail-on-regression, a question regressed, 2 usage or configuration error (in a
kb.toml).`;

/** Runs `diff`; returns the exit code. */
export async function diffCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' }, schema: { type: 'boolean' }, 'fail-on-regression': { type: 'boolean' } }, 'diff');
  if (values.help) {
    io.out(DIFF_HELP);
    return 0;
  }
  if (values.schema) {
    if (positionals.length > 0 || values.json) throw usageError('diff --schema takes no other arguments: it prints the JSON Schema of diff --json.', 'diff');
    io.out(JSON.stringify(renderDiffSchema(), null, 2));
    return 0;
  }
  if (positionals.length !== 2) {
    const got = positionals.length === 0 ? 'nothing' : positionals.map((p) => JSON.stringify(p)).join(' ');
    throw usageError(`diff needs two sides, a base and a head (got ${got}): syllabus diff <base> <head>.`, 'diff');
  }
  const { base, head, evals } = await readDiffSides(positionals[0]!, positionals[1]!, io);
  const diff: KnowledgeDiff = { ...diffSnapshots(base, head), ...(evals ? { evals } : {}) };
  io.out(values.json ? JSON.stringify(diff, null, 2) : renderDiffMarkdown(diff));
  if (values['fail-on-regression'] && diff.evals && diff.evals.regressions.length > 0) {
    const ids = diff.evals.regressions.map((id) => JSON.stringify(id)).join(', ');
    throw new CliError(
      `${diff.evals.regressions.length === 1 ? 'a question regressed' : `${diff.evals.regressions.length} questions regressed`}: ${ids} (left the top 3 of find, or no longer found).`,
      1,
      ['Make find rank the expected subjects again (reference/evaluations, "Reading the figures"), or update the question set if the answer moved.'],
    );
  }
  return 0;
}
