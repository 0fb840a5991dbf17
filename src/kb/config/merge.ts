/**
 * Merging config files (content/reference/configuration.md, "Several config files"): validated
 * files in, the merged config with its defaults (config/defaults.ts) and its diagnostics out.
 * Parsing and validating a file is config/validate.ts's job, reading it the host's
 * (config/read.ts); topics are merged by config/topics.ts.
 */
import { configError, dottedPath } from './config-error.ts';
import path from 'node:path';
import {
  CHECK_DEFAULTS,
  EVAL_AGENT_DEFAULTS,
  EVAL_DEFAULTS,
  KB_DEFAULTS,
  PROFILE_DEFAULTS,
  PROMPT_DEFAULTS,
  SITE_DEFAULTS,
  SOURCES_DEFAULTS,
  SUMMARIES_DEFAULTS,
} from './defaults.ts';
import { locatePath } from './locate.ts';
import type { ConfigText } from './read.ts';
import type { CheckConfig, ConfigFile, EvalAgentConfig, EvalConfig, KbConfig, SiteConfig, PromptConfig, SourcesConfig, SummariesConfig } from './schema.ts';
import { addTopicTables, resolveTopics, type TopicConfig, type TopicDrafts } from './topics.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { splitKnowledgeFlag } from '../knowledge/extension.ts';

/** One config file as `validateConfigFile` left it: its parsed tables, or its configuration errors. */
export interface ValidatedConfigFile {
  configText: ConfigText;
  /** The file's tables, valid against the schema; undefined when it has a configuration error. */
  file: ConfigFile | undefined;
  diagnostics: Diagnostic[];
}

/** The merged configuration of a knowledge base. */
export interface SyllabusConfig {
  /** The config files, in merge order. */
  files: string[];
  site: SiteConfig;
  kb: KbConfig;
  /** `[check]`: near-duplicates of code, and the severities of warnings (content/reference/configuration.md). */
  check: CheckConfig;
  /** `[eval]`: the question set and the thresholds of `syllabus eval` (content/reference/evaluations.md), and `[eval.agent]` (content/reference/evaluations-agent.md). */
  eval: EvalConfig;
  /** Every topic, enabled or not, in config order. */
  topics: TopicConfig[];
  /** Profiles by name, in config order: their `knowledge` patterns. */
  profiles: Map<string, string[]>;
  /** Where `[site] logo` and `favicon` were set (the last file that sets each): paths are relative to that file's folder. */
  siteFileOrigins: Partial<Record<SiteFileKey, { file: string; line: number | undefined }>>;
}

/** The `[site]` keys that name a file of the knowledge base (config/site-files.ts). */
export type SiteFileKey = 'logo' | 'favicon';

/** The outcome of loading config files: a config when there is no configuration error. */
export interface ConfigResult {
  config: SyllabusConfig | undefined;
  diagnostics: Diagnostic[];
}

/** A table with its defaults applied: every key of `defaults`, in its order, set by the files or else defaulted. */
function withDefaults<Table>(defaults: { readonly [K in keyof Table]: Table[K] | undefined }, set: Partial<Record<keyof Table, unknown>>): Table {
  const out: Partial<Record<keyof Table, unknown>> = {};
  for (const key of Object.keys(defaults) as (keyof Table)[]) out[key] = set[key] ?? defaults[key];
  return out as Table;
}

/**
 * What is wrong with a merged `[kb.summaries]` (`configText`: the last file that has the table):
 * LLM summaries need an endpoint and a model. (Each file's endpoint is checked with the file.)
 */
function summariesProblems(summaries: Record<string, unknown>, configText: ConfigText): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const key of ['endpoint', 'model']) {
    if (summaries[key] !== undefined) continue;
    problems.push(
      configError(
        configText,
        'missing-summaries-key',
        ['kb', 'summaries'],
        `kb.summaries.${key}: missing. LLM summaries need endpoint = "https://…/v1/chat/completions" and model = "<model name>"; remove [kb.summaries] to keep extractive summaries only.`,
      ),
    );
  }
  return problems;
}

/**
 * What is wrong with a merged `[eval.agent]` (`configText`: the last file that has the table): the
 * agent evaluation needs an endpoint and a model.
 */
function evalAgentProblems(agent: Record<string, unknown>, configText: ConfigText): Diagnostic[] {
  return ['endpoint', 'model']
    .filter((key) => agent[key] === undefined)
    .map((key) =>
      configError(
        configText,
        'missing-eval-key',
        ['eval', 'agent'],
        `eval.agent.${key}: missing. The agent evaluation needs endpoint = "https://…/v1/chat/completions" and model = "<model name>"; remove [eval.agent] if no model is to answer the question set.`,
      ),
    );
}

/**
 * Merges validated config files in order: scalars of a later file replace, `learned`, `disabled`
 * and profile `knowledge` lists are appended, topics and profiles merge by id, and topics keep
 * the order in which they first appear (config/topics.ts); `[check.severity]` merges code by
 * code and `[[check.override]]` tables are appended, each with its file's folder. Defaults fill
 * in what no file set.
 */
export function mergeConfigFiles(validated: readonly ValidatedConfigFile[]): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  const files: { configText: ConfigText; file: ConfigFile }[] = [];
  for (const { configText, file, diagnostics: found } of validated) {
    diagnostics.push(...found);
    if (file) files.push({ configText, file });
  }
  if (diagnostics.some((d) => d.kind === 'config-error')) return { config: undefined, diagnostics };

  const site: Partial<SiteConfig> = {};
  const kb: Record<string, unknown> = {};
  let summaries: Record<string, unknown> | undefined;
  let evalAgent: Record<string, unknown> | undefined;
  const sources: Record<string, unknown> = {};
  const prompt: Record<string, unknown> = {};
  const topics: TopicDrafts = new Map();
  const profiles = new Map<string, string[]>();
  const check: CheckConfig = { ...CHECK_DEFAULTS, severity: {}, override: [] };
  const siteFileOrigins: SyllabusConfig['siteFileOrigins'] = {};
  const evalSet: Record<string, unknown> = {};

  for (const { configText, file } of files) {
    Object.assign(site, file.site);
    for (const key of ['logo', 'favicon'] as const) {
      if (file.site?.[key] !== undefined) siteFileOrigins[key] = { file: configText.file, line: locatePath(configText.text, ['site', key])?.line };
    }
    const { topic: topicTables, summaries: s, sources: src, prompt: p, ...limits } = file.kb ?? {};
    Object.assign(kb, limits);
    Object.assign(prompt, p);
    if (s) summaries = { ...summaries, ...s };
    Object.assign(sources, src);
    addTopicTables(topics, topicTables ?? {}, configText);
    if (file.eval?.agent) evalAgent = { ...evalAgent, ...file.eval.agent };
    if (file.check) {
      check.near_duplicate_code = file.check.near_duplicate_code ?? check.near_duplicate_code;
      Object.assign(check.severity, file.check.severity);
      for (const override of file.check.override ?? []) {
        check.override.push({ root: path.dirname(configText.file), files: override.files, severity: { ...override.severity } });
      }
    }
    if (file.eval) {
      const { questions, ...thresholds } = file.eval;
      Object.assign(evalSet, thresholds);
      if (questions !== undefined) evalSet['questions'] = path.resolve(path.dirname(configText.file), questions);
    }
    for (const [name, profile] of Object.entries(file.profile ?? {})) {
      const knowledge = profiles.get(name) ?? [...PROFILE_DEFAULTS.knowledge];
      knowledge.push(...(profile.knowledge ?? []));
      profiles.set(name, knowledge);
    }
  }

  const resolved = resolveTopics(topics);
  diagnostics.push(...resolved.diagnostics);

  for (const [name, patterns] of profiles) {
    patterns.forEach((value, index) => {
      const topicId = splitKnowledgeFlag(value).topic;
      if (topics.has(topicId)) return;
      const configText = [...files].reverse().find((f) => f.file.profile?.[name])?.configText ?? files[0]!.configText;
      diagnostics.push(
        configError(
          configText,
          'unknown-profile-topic',
          ['profile', name, 'knowledge', index],
          `${dottedPath(['profile', name, 'knowledge', index])}: ${JSON.stringify(value)} names no topic ${JSON.stringify(topicId)}. Use "<topic>/<pattern>" with a topic of [kb.topic.*].`,
        ),
      );
    });
  }

  if (summaries) diagnostics.push(...summariesProblems(summaries, [...files].reverse().find((f) => f.file.kb?.summaries)!.configText));

  if (evalAgent) diagnostics.push(...evalAgentProblems(evalAgent, [...files].reverse().find((f) => f.file.eval?.agent)!.configText));

  if (files.length > 0 && topics.size === 0) {
    diagnostics.push({
      kind: 'warning',
      code: 'no-topics',
      message: 'No topics are configured. Add a [kb.topic.<id>] table with subjects = "<folder>".',
      file: files[0]!.configText.file,
    });
  }

  if (diagnostics.some((d) => d.kind === 'config-error')) return { config: undefined, diagnostics };

  return {
    config: {
      files: validated.map((v) => v.configText.file),
      site: withDefaults<SiteConfig>(SITE_DEFAULTS, site),
      kb: {
        ...withDefaults<Omit<KbConfig, 'summaries' | 'sources' | 'prompt'>>(KB_DEFAULTS, kb),
        summaries: summaries && withDefaults<SummariesConfig>(SUMMARIES_DEFAULTS, summaries),
        sources: withDefaults<SourcesConfig>(SOURCES_DEFAULTS, sources),
        prompt: withDefaults<PromptConfig>(PROMPT_DEFAULTS, prompt),
      },
      check,
      eval: { ...withDefaults<Omit<EvalConfig, 'agent'>>(EVAL_DEFAULTS, evalSet), agent: evalAgent && withDefaults<EvalAgentConfig>(EVAL_AGENT_DEFAULTS, evalAgent) },
      topics: resolved.topics,
      profiles,
      siteFileOrigins,
    },
    diagnostics,
  };
}
