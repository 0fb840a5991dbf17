/** `syllabus schema [--tool]`: the `learn` tool's parameters schema, or its whole definition. */
import { LEARN_PARAMETERS, buildLearnDefinition } from '../kb/knowledge/learn.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION } from './knowledge-flags.ts';
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
  if (values.remote !== undefined) {
    const remote = await import('./remote-flags.ts');
    const site = remote.remoteSiteFor({ ...values, remote: values.remote }, io, 'schema');
    if (!values.tool) {
      await remote.withRemoteErrors(() => site.knowledge());
      io.out(JSON.stringify(LEARN_PARAMETERS, null, 2));
    } else {
      const { tool } = await remote.withRemoteErrors(() => remote.readRemoteKnowledge(site, values, 'schema'));
      io.out(JSON.stringify(tool, null, 2));
    }
    return 0;
  }
  if (!values.tool) {
    io.out(JSON.stringify(LEARN_PARAMETERS, null, 2));
    return 0;
  }
  const kb = openForCommand(await configWithKnowledge(values, io, 'schema'), io);
  io.out(JSON.stringify(buildLearnDefinition(kb), null, 2));
  return 0;
}
