/** `syllabus prompt [-k topic/glob]… [--profile NAME]`: the `<knowledge>` section (SPEC 4). */
import { buildKnowledgeSection, buildLearnDefinition, countTokens, loadTokenizer } from '../kb/index.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const PROMPT_HELP = `Usage: syllabus prompt [-k topic/glob]… [--profile NAME] [--config PATH]… [--json]

Prints the <knowledge> section of the system prompt (nothing when there is no knowledge).

Options:
${KNOWLEDGE_HELP}
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
      --json              print {"prompt", "tool", "tokens"} as JSON (as /kb/knowledge.json)
  -h, --help              show this help

Exit codes: 0 success, 2 usage or configuration error (an unknown or disabled topic in -k).`;

/** Runs `prompt`; returns the exit code. */
export async function promptCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, json: { type: 'boolean' } }, 'prompt');
  if (values.help) {
    io.out(PROMPT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`prompt takes no arguments (got ${JSON.stringify(positionals[0])}); use -k topic/glob to pre-load subjects.`, 'prompt');
  const kb = openForCommand(configWithKnowledge(values, io, 'prompt'), io);
  const prompt = buildKnowledgeSection(kb);
  warnContentErrors(kb, io);
  if (values.json) {
    await loadTokenizer();
    io.out(JSON.stringify({ prompt: prompt === '' ? null : prompt, tool: buildLearnDefinition(kb), tokens: countTokens(prompt) }, null, 2));
  } else {
    io.out(prompt);
  }
  return 0;
}
