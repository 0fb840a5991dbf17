/** `syllabus schema [--tool]`: the `learn` tool's parameters schema, or its whole definition (content/reference/cli/schema.md). */
import { LEARN_PARAMETERS } from '../kb/knowledge/learn.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION, viewForCommand } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const SCHEMA_HELP = `Usage: syllabus schema [--tool [-k topic/glob]… [--profile NAME]] [--config PATH… | --remote URL]

Prints the learn tool's parameters schema (JSON). It is fixed, so it needs no config.

Options:
      --tool              print the whole tool definition {"name", "description", "parameters"}
                          for the knowledge base, or null when no topic is listable
${KNOWLEDGE_HELP}
  -c, --config PATH       config file for --tool (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
                          (without --tool the site is still read, to check that it answers)
  -h, --help              show this help

Exit codes: 0 success, 1 a site that cannot be read (--remote), 2 usage or configuration error.`;

/** Runs `schema`; returns the exit code. */
export async function schemaCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, ...REMOTE_OPTION, tool: { type: 'boolean' } }, 'schema');
  if (values.help) {
    io.out(SCHEMA_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`schema takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'schema');
  if (!values.tool) {
    // A site is still read, without -k and --profile, to check that it answers.
    if (values.remote !== undefined) await (await viewForCommand(values, io, 'schema', {})).view.tool();
    io.out(JSON.stringify(LEARN_PARAMETERS, null, 2));
    return 0;
  }
  const { view } = await viewForCommand(values, io, 'schema');
  io.out(JSON.stringify(await view.tool(), null, 2));
  return 0;
}
