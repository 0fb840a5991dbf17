/** `syllabus prompt [-k topic/glob]… [--profile NAME]`: the `<knowledge>` section (content/reference/cli/prompt.md). */
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION, viewForCommand } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const PROMPT_HELP = `Usage: syllabus prompt [-k topic/glob]… [--profile NAME] [--config PATH… | --remote URL] [--json]

Prints the <knowledge> section of the system prompt (nothing when there is no knowledge).

Options:
${KNOWLEDGE_HELP}
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
      --json              print {"prompt", "tool", "tokens"} as JSON (as /kb/knowledge.json)
  -h, --help              show this help

Exit codes: 0 success, 1 a site that cannot be read (--remote), 2 usage or configuration error
(an unknown or disabled topic in -k).`;

/** Runs `prompt`; returns the exit code. */
export async function promptCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, ...REMOTE_OPTION, json: { type: 'boolean' } }, 'prompt');
  if (values.help) {
    io.out(PROMPT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`prompt takes no arguments (got ${JSON.stringify(positionals[0])}); use -k topic/glob to pre-load subjects.`, 'prompt');
  const { view, reportContentErrors } = await viewForCommand(values, io, 'prompt');
  const prompt = await view.prompt();
  const tool = values.json ? await view.tool() : null;
  reportContentErrors();
  if (values.json) io.out(JSON.stringify({ prompt, tool, tokens: await view.tokens() }, null, 2));
  else io.out(prompt ?? '');
  return 0;
}
