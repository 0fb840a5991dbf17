/** `syllabus prompt [-k topic/glob]… [--profile NAME]`: the `<knowledge>` section (SPEC 4). */
import { buildKnowledgeSection } from '../kb/knowledge/section.ts';
import { type LearnToolDefinition, buildLearnDefinition } from '../kb/knowledge/learn.ts';
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION } from './knowledge-flags.ts';
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
  let prompt: string;
  let tool: LearnToolDefinition | null;
  let tokens: number | undefined;
  if (values.remote !== undefined) {
    const remote = await import('./remote-flags.ts');
    const site = remote.remoteSiteFor({ ...values, remote: values.remote }, io, 'prompt');
    ({ prompt, tool, tokens } = await remote.withRemoteErrors(() => remote.readRemoteKnowledge(site, values, 'prompt')));
  } else {
    const kb = openForCommand(await configWithKnowledge(values, io, 'prompt'), io);
    prompt = buildKnowledgeSection(kb);
    tool = values.json ? buildLearnDefinition(kb) : null;
    warnContentErrors(kb, io);
  }
  if (values.json) {
    if (tokens === undefined) {
      await loadTokenizer();
      tokens = countTokens(prompt);
    }
    io.out(JSON.stringify({ prompt: prompt === '' ? null : prompt, tool, tokens }, null, 2));
  } else {
    io.out(prompt);
  }
  return 0;
}
