/** `syllabus learn <topic> [pattern…]`: the `learn` tool's result (SPEC 4). */
import { runLearn } from '../kb/index.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const LEARN_HELP = `Usage: syllabus learn <topic> [pattern…] [-k topic/glob]… [--profile NAME] [--config PATH]…

Prints what the learn tool returns to an agent.

  <topic>        a topic id, or a topic title (any case)
  [pattern…]     subjects to load: exact slugs (hidden ones too) or globs
                 (* one level, ** any depth); none lists the topic's subjects

Options:
${KNOWLEDGE_HELP}
                          (give the same -k and --profile as to "prompt", so that subjects
                          pre-loaded there are "already learned" here)
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -h, --help              show this help

Exit codes: 0 success, 1 tool error (unknown topic, no match), 2 usage or configuration error.`;

/** Runs `learn`; returns the exit code. */
export async function learnCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS }, 'learn');
  if (values.help) {
    io.out(LEARN_HELP);
    return 0;
  }
  const [topic, ...patterns] = positionals;
  if (topic === undefined) throw usageError('learn needs a topic: syllabus learn <topic> [pattern…].', 'learn');
  const kb = openForCommand(configWithKnowledge(values, io, 'learn'), io);
  const outcome = runLearn(kb, { topic, patterns: patterns.filter((p) => p !== '') });
  warnContentErrors(kb, io);
  if (!outcome.ok) throw new CliError(outcome.message, 1);
  io.out(outcome.text);
  return 0;
}
