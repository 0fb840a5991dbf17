/** `syllabus prompt [-k topic/glob]… [--profile NAME]`: the `<knowledge>` section (SPEC 4). */
import {
  buildKnowledgeSection,
  buildLearnDefinition,
  compilePattern,
  countTokens,
  loadTokenizer,
  splitKnowledgeFlag,
  type SyllabusConfig,
} from '../kb/index.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const PROMPT_HELP = `Usage: syllabus prompt [-k topic/glob]… [--profile NAME] [--config PATH]… [--json]

Prints the <knowledge> section of the system prompt.

Options:
  -k, --knowledge VALUE   pre-load more subjects: "topic/glob" appends glob to the
                          topic's learned patterns; "topic" alone means topic/** (repeatable)
  -p, --profile NAME      pre-load the subjects of [profile.NAME]
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
      --json              print {"prompt", "tool", "tokens"} as JSON (as /kb/knowledge.json)
  -h, --help              show this help

Exit codes: 0 success, 2 usage or configuration error (an unknown or disabled topic in -k).`;

/** Appends `-k`-style values to their topics' learned patterns, or explains why one cannot be used. */
export function applyKnowledge(config: SyllabusConfig, values: readonly { value: string; origin: string }[]): SyllabusConfig {
  const topics = config.topics.map((t) => ({ ...t, learned: [...t.learned] }));
  for (const { value, origin } of values) {
    const { topic: id, pattern } = splitKnowledgeFlag(value);
    const topic = topics.find((t) => t.id === id);
    const enabled = topics.filter((t) => t.enable).map((t) => t.id);
    const valid = enabled.length > 0 ? `Valid topics: ${enabled.join(', ')}.` : 'There are no topics.';
    if (!topic) throw usageError(`${origin} ${JSON.stringify(value)}: unknown topic ${JSON.stringify(id)}. ${valid}`, 'prompt');
    if (!topic.enable) throw usageError(`${origin} ${JSON.stringify(value)}: topic ${JSON.stringify(id)} is disabled (enable = false). ${valid}`, 'prompt');
    const compiled = compilePattern(pattern);
    if (!compiled.ok) throw usageError(`${origin} ${JSON.stringify(value)}: ${compiled.message}`, 'prompt');
    topic.learned.push(pattern);
  }
  return { ...config, topics };
}

/** Runs `prompt`; returns the exit code. */
export async function promptCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      ...CONFIG_OPTION,
      knowledge: { type: 'string', short: 'k', multiple: true },
      profile: { type: 'string', short: 'p' },
      json: { type: 'boolean' },
    },
    'prompt',
  );
  if (values.help) {
    io.out(PROMPT_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`prompt takes no arguments (got ${JSON.stringify(positionals[0])}); use -k topic/glob to pre-load subjects.`, 'prompt');
  const base = configForCommand(values.config, io);
  const extra: { value: string; origin: string }[] = [];
  if (values.profile !== undefined) {
    const profile = base.profiles.get(values.profile);
    if (!profile) {
      const names = [...base.profiles.keys()];
      throw usageError(
        `Unknown profile ${JSON.stringify(values.profile)}. ${names.length > 0 ? `Valid profiles: ${names.join(', ')}.` : 'There are no profiles: add a [profile.<name>] table.'}`,
        'prompt',
      );
    }
    extra.push(...profile.map((value) => ({ value, origin: `profile.${values.profile}.knowledge entry` })));
  }
  extra.push(...(values.knowledge ?? []).map((value) => ({ value, origin: '-k' })));
  const config = applyKnowledge(base, extra);
  const kb = openForCommand(config, io);
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
