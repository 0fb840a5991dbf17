/** `syllabus learn <topic> [pattern…]`: the `learn` tool's result (SPEC 4). */
import { type Outcome, parseLearnArguments, runLearn } from '../kb/knowledge/learn.ts';
import type { RemoteSite } from '../remote/remote-site.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION } from './knowledge-flags.ts';
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
  const parsed = parseLearnArguments({ topic, subjects: patterns });
  if (!parsed.ok) throw new CliError(parsed.message, 1);
  const args = parsed.value;
  let outcome: Outcome;
  if (values.remote !== undefined) {
    const remote = await import('./remote-flags.ts');
    const site = remote.remoteSiteFor({ ...values, remote: values.remote }, io, 'learn');
    outcome = await remote.withRemoteErrors(() => learnRemotely(site, values, args));
  } else {
    const kb = openForCommand(await configWithKnowledge(values, io, 'learn'), io);
    outcome = runLearn(kb, args);
    warnContentErrors(kb, io);
  }
  if (!outcome.ok) throw new CliError(outcome.message, 1);
  io.out(outcome.text);
  return 0;
}

/** `learn --remote`: the learned subjects are the catalog's, or the profile's and -k's. */
async function learnRemotely(
  site: RemoteSite,
  values: { knowledge?: string[] | undefined; profile?: string | undefined },
  args: { topic: string; patterns: string[] },
): Promise<Outcome> {
  const [{ remoteKnowledgeFlags }, { extendKnowledge, learnedInKnowledge }, { learnedInIndex, runRemoteLearn }] = await Promise.all([
    import('./remote-flags.ts'),
    import('../remote/remote-knowledge.ts'),
    import('../remote/remote-learn.ts'),
  ]);
  const index = await site.index();
  const { profile, extra } = remoteKnowledgeFlags(values, index, 'learn');
  if (profile === undefined && extra.length === 0) return runRemoteLearn(site, index, learnedInIndex(index), args);
  const topics = await extendKnowledge(site, index, await site.knowledge(profile), extra);
  return runRemoteLearn(site, index, learnedInKnowledge(topics), args);
}
