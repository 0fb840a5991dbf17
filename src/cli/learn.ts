/** `syllabus learn <topic> [pattern…]`: the `learn` tool's result (content/reference/cli/learn.md). */
import { parseLearnArguments } from '../kb/knowledge/learn.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION, viewForCommand } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const LEARN_HELP = `Usage: syllabus learn <topic> [pattern…] [-k topic/glob]… [--profile NAME] [--config PATH… | --remote URL]

Prints what the learn tool returns to an agent.

  <topic>        a topic id, or a topic title (any case)
  [pattern…]     subjects to load: exact slugs (hidden ones too) or globs
                 (* one level, ** any depth); none lists the topic's subjects

Options:
${KNOWLEDGE_HELP}
                          (give the same -k and --profile as to "prompt", so that subjects
                          pre-loaded there are "already learned" here)
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
  -h, --help              show this help

Exit codes: 0 success, 1 tool error (unknown topic, no match) or a site that cannot be read,
2 usage or configuration error.`;

/** Runs `learn`; returns the exit code. */
export async function learnCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, ...REMOTE_OPTION }, 'learn');
  if (values.help) {
    io.out(LEARN_HELP);
    return 0;
  }
  const [topic, ...patterns] = positionals;
  if (topic === undefined) throw usageError('learn needs a topic: syllabus learn <topic> [pattern…].', 'learn');
  // The tool's own check, limits included: the same message as an agent gets, before anything is read.
  const args = { topic, subjects: patterns };
  const parsed = parseLearnArguments(args);
  if (!parsed.ok) throw new CliError(parsed.message, 1);
  const { view, reportContentErrors } = await viewForCommand(values, io, 'learn');
  const outcome = await view.learn(args);
  reportContentErrors();
  if (!outcome.ok) throw new CliError(outcome.message, 1);
  io.out(outcome.text);
  return 0;
}
