/**
 * `-k` and `--profile`: pre-loading more subjects (SPEC 5), and `--remote`: reading them from a
 * published site. Shared by every command whose answer depends on what is learned — `prompt`,
 * `learn` and `schema --tool` — so that an agent given a prompt built with them gets a `learn`
 * tool that agrees with it.
 */
import { type SyllabusConfig, splitKnowledgeFlag } from '../kb/config/merge.ts';
import { compilePattern } from '../kb/subjects/glob.ts';
import type { ExtraKnowledge } from '../remote/remote-knowledge.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand } from './knowledge-base-options.ts';

/** The options, for `parseCommandArgs`. */
export const KNOWLEDGE_OPTIONS = {
  knowledge: { type: 'string', short: 'k', multiple: true },
  profile: { type: 'string', short: 'p' },
} as const;

/** Help lines of the options. */
export const KNOWLEDGE_HELP = `  -k, --knowledge VALUE   pre-load more subjects: "topic/glob" appends glob to the
                          topic's learned patterns; "topic" alone means topic/** (repeatable)
  -p, --profile NAME      pre-load the subjects of [profile.NAME] (before any -k)`;

/** Checks a `-k`-style value against the topics: its topic and pattern, or a usage error (exit 2). */
export function checkKnowledgeValue(value: string, origin: string, topics: readonly { id: string; enable: boolean }[], command: string): ExtraKnowledge {
  const { topic: id, pattern } = splitKnowledgeFlag(value);
  const topic = topics.find((t) => t.id === id);
  const enabled = topics.filter((t) => t.enable).map((t) => t.id);
  const valid = enabled.length > 0 ? `Valid topics: ${enabled.join(', ')}.` : 'There are no topics.';
  if (!topic) throw usageError(`${origin} ${JSON.stringify(value)}: unknown topic ${JSON.stringify(id)}. ${valid}`, command);
  if (!topic.enable) throw usageError(`${origin} ${JSON.stringify(value)}: topic ${JSON.stringify(id)} is disabled (enable = false). ${valid}`, command);
  const compiled = compilePattern(pattern);
  if (!compiled.ok) throw usageError(`${origin} ${JSON.stringify(value)}: ${compiled.message}`, command);
  return { topic: id, pattern };
}

/** Appends `-k`-style values to their topics' learned patterns, or explains why one cannot be used (exit 2). */
export function applyKnowledge(config: SyllabusConfig, values: readonly { value: string; origin: string }[], command: string): SyllabusConfig {
  const topics = config.topics.map((t) => ({ ...t, learned: [...t.learned] }));
  for (const { value, origin } of values) {
    const { topic: id, pattern } = checkKnowledgeValue(value, origin, topics, command);
    topics.find((t) => t.id === id)!.learned.push(pattern);
  }
  return { ...config, topics };
}

/** The config of a command, with its `--profile` and `-k` values applied (profile first). */
export async function configWithKnowledge(
  values: { config?: string[] | undefined; knowledge?: string[] | undefined; profile?: string | undefined },
  io: CommandIo,
  command: string,
): Promise<SyllabusConfig> {
  const base = await configForCommand(values.config, io);
  const extra: { value: string; origin: string }[] = [];
  if (values.profile !== undefined) {
    const profile = base.profiles.get(values.profile);
    if (!profile) {
      const names = [...base.profiles.keys()];
      throw usageError(
        `Unknown profile ${JSON.stringify(values.profile)}. ${names.length > 0 ? `Valid profiles: ${names.join(', ')}.` : 'There are no profiles: add a [profile.<name>] table.'}`,
        command,
      );
    }
    extra.push(...profile.map((value) => ({ value, origin: `profile.${values.profile}.knowledge entry` })));
  }
  extra.push(...(values.knowledge ?? []).map((value) => ({ value, origin: '-k' })));
  return extra.length > 0 ? applyKnowledge(base, extra, command) : base;
}

/** The `--remote` option, for `parseCommandArgs`. */
export const REMOTE_OPTION = {
  remote: { type: 'string' },
} as const;

/** Help lines of `--remote`. */
export const REMOTE_HELP = `      --remote URL        read the published site at URL (its root, with any base path)
                          instead of local files: the same answers (not with --config)`;
