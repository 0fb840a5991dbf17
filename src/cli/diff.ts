/** `syllabus diff <base> <head>`: the knowledge diff of two versions of a knowledge base (content/reference/cli/diff.md). */
import { renderDiffMarkdown } from '../kb/diff/markdown.ts';
import { renderDiffSchema } from '../kb/diff/schema.ts';
import { diffSnapshots } from '../kb/diff/diff.ts';
import { readDiffSides } from './diff-sides.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { parseCommandArgs } from './parse-args.ts';

export const DIFF_HELP = `Usage: syllabus diff <base> <head> [--json]
       syllabus diff --schema

Prints what changed from <base> to <head>, as markdown for a pull-request comment: subjects
added, removed, changed (with a line diff), moved, and changed visibility; token deltas per
subject, topic, <knowledge> section and profile; the diff of the <knowledge> text.

Each side is one of:
  a kb.toml            a source: every subject, hidden and disabled ones included
  a folder             a build written by "syllabus build" (dist/): what was published
  an http(s) URL       a published site (its root, with any base path): what was published

A source compared with a build is compared as published (its hidden and disabled subjects
left out).

Options:
      --json              print the diff as JSON (its JSON Schema: --schema)
      --schema            print the JSON Schema of --json
  -h, --help              show this help

Exit codes: 0 the diff was printed (with or without changes: --json's "equal" tells which),
1 a side cannot be read (missing, not a Syllabus build, another format version, unreachable),
2 usage or configuration error (in a kb.toml).`;

/** Runs `diff`; returns the exit code. */
export async function diffCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' }, schema: { type: 'boolean' } }, 'diff');
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
  const { base, head } = await readDiffSides(positionals[0]!, positionals[1]!, io);
  const diff = diffSnapshots(base, head);
  io.out(values.json ? JSON.stringify(diff, null, 2) : renderDiffMarkdown(diff));
  return 0;
}
