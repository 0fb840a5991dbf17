/** `syllabus join`: the parts of a site, built with `build --part`, joined into one site (content/reference/cli/build.md, "Building in parts"). */
import path from 'node:path';
import { BuildError } from '../build/build-error.ts';
import { joinParts } from '../build/site-parts.ts';
import { displayPath, plural } from '../kb/diagnostics/diagnostics.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { parseCommandArgs } from './parse-args.ts';

export const JOIN_HELP = `Usage: syllabus join --out DIR PART…

Joins the output folders of a site built in parts ("syllabus build --part TOPICS --out PART" on
each machine) into one site in DIR, as one build of the whole knowledge base would have made it,
with the search index of every part. Every topic must be in exactly one part, and the files the
parts share (the home page, the endpoints, llms.txt, …) must be the same in every part: build all
parts from one commit, with the same config and Syllabus version. DIR is replaced whole, and
only when the join succeeds; a DIR that holds a part, the current folder or files no build made
is refused.

Options:
  -o, --out DIR   the joined site (default dist/)
  -h, --help      show this help

Exit codes: 0 joined, 1 the parts do not join (a topic missing or twice, a shared file that
differs, a folder that holds no part) or DIR is refused, 2 usage error.`;

/** Runs `join`; returns the exit code. */
export async function joinCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string', short: 'o' } }, 'join');
  if (values.help) {
    io.out(JOIN_HELP);
    return 0;
  }
  if (positionals.length === 0) throw usageError('join needs the output folders of the parts: syllabus join --out dist part-1 part-2 ….', 'join');
  const outDir = path.resolve(io.cwd, values.out ?? 'dist');
  const parts = positionals.map((part) => path.resolve(io.cwd, part));
  if (parts.includes(outDir)) throw usageError(`--out ${values.out ?? 'dist'} is also one of the parts: join them into another folder.`, 'join');
  try {
    const joined = await joinParts(parts, outDir, io.cwd, (dir) => displayPath(dir, io.cwd));
    io.err(`Joined ${plural(parts.length, 'part')} into ${displayPath(outDir, io.cwd)}/: ${plural(joined.files, 'file')}, ${plural(joined.shards, 'search shard')}`);
  } catch (error) {
    if (error instanceof BuildError) throw new CliError(error.message, 1);
    throw error;
  }
  return 0;
}
