/** `syllabus build`: the site of a knowledge base (SPEC 6). */
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const BUILD_HELP = `Usage: syllabus build [--config PATH]… [--out DIR]

Builds the knowledge base into a static site with its agent endpoints.

Options:
  -c, --config PATH   config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -o, --out DIR       output folder (default dist/)
  -h, --help          show this help

Exit codes: 0 built, 1 content errors (nothing is written), 2 usage or configuration error.`;

/** Runs `build`; returns the exit code. */
export async function buildCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, out: { type: 'string', short: 'o' } }, 'build');
  if (values.help) {
    io.out(BUILD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`build takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'build');
  throw usageError('build is not implemented yet.', 'build');
}
