/** `syllabus prompt [-k topic/glob]… [--profile NAME]`: the `<knowledge>` section (SPEC 4). */
import { buildKnowledgeSection, buildLearnDefinition, countTokens, loadTokenizer, type LearnToolDefinition } from '../kb/index.ts';
import { remoteKnowledge, type RemoteKnowledge } from '../remote/remote-knowledge.ts';
import type { RemoteSite } from '../remote/remote-site.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION, remoteKnowledgeFlags, remoteSiteFor, withRemoteErrors } from './knowledge-flags.ts';
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
  const site = remoteSiteFor(values, io, 'prompt');
  let prompt: string;
  let tool: LearnToolDefinition | null;
  let tokens: number | undefined;
  if (site) {
    ({ prompt, tool, tokens } = await withRemoteErrors(() => readRemoteKnowledge(site, values, 'prompt')));
  } else {
    const kb = openForCommand(configWithKnowledge(values, io, 'prompt'), io);
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

/**
 * The section and the tool of a site with `--profile` and `-k` applied (also for `schema --tool`).
 * The catalog is fetched only when they need it.
 */
export async function readRemoteKnowledge(
  site: RemoteSite,
  values: { knowledge?: string[] | undefined; profile?: string | undefined },
  command: string,
): Promise<RemoteKnowledge> {
  if (values.profile === undefined && (values.knowledge ?? []).length === 0) return remoteKnowledge(site, await site.knowledge());
  const index = await site.index();
  const { profile, extra } = remoteKnowledgeFlags(values, index, command);
  return remoteKnowledge(site, await site.knowledge(profile), { index, extra });
}
