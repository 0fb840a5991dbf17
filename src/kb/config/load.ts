/**
 * The config's types and the merging of config files (SPEC 1): validated files in, the merged
 * config and its diagnostics out. Parsing and validating a file is `config/validate.ts`'s job,
 * reading it the host's (`config/read.ts`).
 */
import path from 'node:path';
import { locatePath } from './locate.ts';
import type { ConfigFile } from './schema.ts';
import { quoteKey } from './values.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { isOutside } from '../subjects/paths.ts';
import { splitKnowledgeFlag } from '../knowledge/extension.ts';

/** The prompt used when `[kb.summaries]` sets none. */
export const DEFAULT_SUMMARY_PROMPT =
  'You write the index of a knowledge base. Summarise the document the user sends in one paragraph ' +
  'of plain text, under 300 characters: what it covers and when a reader or an AI agent should open ' +
  'it. No markdown, no heading, no list, and no opening such as "This document".';

/** A config file's path (absolute) and text. */
export interface ConfigSource {
  file: string;
  text: string;
}

/** `[site]` with defaults applied. */
export interface SiteConfig {
  title: string;
  description: string | undefined;
  url: string | undefined;
  base: string;
  repository: string | undefined;
  branch: string;
  allow_html: boolean;
}

/** `[kb.summaries]` with defaults applied; `endpoint` and `model` are required when the table is present. */
export interface SummariesConfig {
  /** An `http(s)` URL. */
  endpoint: string;
  model: string;
  api_key_env: string;
  /** The table's prompt, else `DEFAULT_SUMMARY_PROMPT`. */
  prompt: string;
  concurrency: number;
  timeout_seconds: number;
}

/** `[kb.sources]` with defaults applied. */
export interface SourcesConfig {
  timeout_seconds: number;
  max_bytes: number;
  concurrency: number;
  allow_private: boolean;
}

/** One topic after merging. */
export interface TopicConfig {
  id: string;
  enable: boolean;
  title: string | undefined;
  introduction: string | undefined;
  description: string | undefined;
  /** Where the subjects come from: a `subjects` folder, or a `learnings` store (SPEC 8). */
  kind: 'folder' | 'learnings';
  /** `subjects` (or, for a learnings topic, `learnings`) as written. */
  subjects: string;
  /** Absolute folder of the subjects, or of a learnings topic the store file (not yet checked on disk). */
  dir: string;
  /** Folder of the config file that named `subjects`: the bound for the folder and its symlinks. */
  root: string;
  /** The config file that named `subjects` (or `learnings`). */
  file: string;
  /** Line of the `subjects` (or `learnings`) key in `file`, when found. */
  line: number | undefined;
  learned: string[];
  disabled: string[];
  /** Where each `learned` entry was written (same indexes; entries added by `-k` have none). */
  learnedFrom: PatternOrigin[];
  /** Where each `disabled` entry was written (same indexes). */
  disabledFrom: PatternOrigin[];
}

/** The file and line a pattern entry was written at. */
export interface PatternOrigin {
  file: string;
  line: number | undefined;
}

/** The merged configuration of a knowledge base. */
export interface SyllabusConfig {
  /** The config files, in merge order. */
  files: string[];
  site: SiteConfig;
  kb: {
    max_subject_bytes: number;
    warn_subject_tokens: number;
    knowledge_budget_tokens: number;
    summaries: SummariesConfig | undefined;
    sources: SourcesConfig;
  };
  /** Every topic, enabled or not, in config order. */
  topics: TopicConfig[];
  /** Profiles by name, in config order: their `knowledge` patterns. */
  profiles: Map<string, string[]>;
}

/** The outcome of loading config files: a config when there is no configuration error. */
export interface ConfigResult {
  config: SyllabusConfig | undefined;
  diagnostics: Diagnostic[];
}

/** Builds a configuration error located at a dotted path of a file. */
export function configError(
  source: ConfigSource,
  code: Diagnostic['code'],
  at: readonly (string | number)[],
  message: string,
): Diagnostic {
  const position = locatePath(source.text, at);
  return { kind: 'config-error', code, message, file: source.file, ...(position ?? {}) };
}

/**
 * What is wrong with a merged `[kb.summaries]` (`source`: the last file that has the table):
 * LLM summaries need an endpoint and a model. (Each file's endpoint is checked with the file.)
 */
function summariesProblems(summaries: Record<string, unknown>, source: ConfigSource): Diagnostic[] {
  const problems: Diagnostic[] = [];
  for (const key of ['endpoint', 'model']) {
    if (summaries[key] !== undefined) continue;
    problems.push(
      configError(
        source,
        'missing-summaries-key',
        ['kb', 'summaries'],
        `kb.summaries.${key}: missing. LLM summaries need endpoint = "https://…/v1/chat/completions" and model = "<model name>"; remove [kb.summaries] to keep extractive summaries only.`,
      ),
    );
  }
  return problems;
}

/** Writes a path as `kb.topic.x.learned[0]`; a key TOML cannot write bare is quoted, `profile."code review"`. */
export function dottedPath(at: readonly PropertyKey[]): string {
  let out = '';
  for (const part of at) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += (out ? '.' : '') + quoteKey(String(part));
  }
  return out;
}

/** One config file as `validateConfigFile` left it: its parsed tables, or its configuration errors. */
export interface ValidatedConfigFile {
  source: ConfigSource;
  /** The file's tables, valid against the schema; undefined when it has a configuration error. */
  file: ConfigFile | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Merges validated config files in order (SPEC 1): scalars of a later file replace, `learned`,
 * `disabled` and profile `knowledge` lists are appended, topics and profiles merge by id, and
 * topics keep the order in which they first appear. Paths are resolved and checked here, on every
 * load: a folder may become a symlink while the file stays the same.
 */
export function mergeConfigFiles(validated: readonly ValidatedConfigFile[]): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  const files: { source: ConfigSource; file: ConfigFile }[] = [];
  for (const { source, file, diagnostics: found } of validated) {
    diagnostics.push(...found);
    if (file) files.push({ source, file });
  }
  if (diagnostics.some((d) => d.kind === 'config-error')) return { config: undefined, diagnostics };

  const site: Partial<SiteConfig> = {};
  const kb: Record<string, unknown> = {};
  let summaries: Record<string, unknown> | undefined;
  const sourcesTable: Record<string, unknown> = {};
  const topics = new Map<
    string,
    { table: Partial<TopicConfig>; learned: string[]; disabled: string[]; learnedFrom: PatternOrigin[]; disabledFrom: PatternOrigin[]; lastSource: ConfigSource }
  >();
  const profiles = new Map<string, string[]>();

  for (const { source, file } of files) {
    Object.assign(site, file.site);
    const { topic: topicTables, summaries: s, sources: src, ...limits } = file.kb ?? {};
    Object.assign(kb, limits);
    if (s) summaries = { ...summaries, ...s };
    Object.assign(sourcesTable, src);
    for (const [id, table] of Object.entries(topicTables ?? {})) {
      const entry = topics.get(id) ?? { table: { id }, learned: [], disabled: [], learnedFrom: [], disabledFrom: [], lastSource: source };
      entry.lastSource = source;
      const { learned, disabled, subjects, learnings, ...scalars } = table;
      Object.assign(entry.table, scalars);
      // A later file's subjects or learnings replaces where the topic's subjects come from.
      const location = learnings ?? subjects;
      if (location !== undefined) {
        const kind = learnings !== undefined ? 'learnings' : 'folder';
        const root = path.dirname(source.file);
        const line = locatePath(source.text, ['kb', 'topic', id, kind === 'learnings' ? 'learnings' : 'subjects'])?.line;
        Object.assign(entry.table, { kind, subjects: location, dir: path.resolve(root, location), root, file: source.file, line });
      }
      const origin = (key: string): PatternOrigin => ({ file: source.file, line: locatePath(source.text, ['kb', 'topic', id, key])?.line });
      if (learned) {
        const from = origin('learned');
        entry.learned.push(...learned);
        entry.learnedFrom.push(...learned.map(() => from));
      }
      if (disabled) {
        const from = origin('disabled');
        entry.disabled.push(...disabled);
        entry.disabledFrom.push(...disabled.map(() => from));
      }
      topics.set(id, entry);
    }
    for (const [name, profile] of Object.entries(file.profile ?? {})) {
      profiles.set(name, [...(profiles.get(name) ?? []), ...(profile.knowledge ?? [])]);
    }
  }

  const merged: TopicConfig[] = [];
  for (const [id, entry] of topics) {
    const t = entry.table;
    if (t.kind === undefined || t.subjects === undefined || t.dir === undefined || t.root === undefined || t.file === undefined) {
      diagnostics.push(
        configError(
          entry.lastSource,
          'missing-subjects',
          ['kb', 'topic', id],
          `kb.topic.${id}.subjects: missing. Every topic needs subjects = "<folder>", a folder relative to the config file that names it (or learnings = "<file>.json", a learnings store).`,
        ),
      );
      continue;
    }
    const escape = escapeProblem(t.subjects, t.root, t.dir, t.kind);
    if (escape) {
      const key = t.kind === 'learnings' ? 'learnings' : 'subjects';
      diagnostics.push(configError(entry.lastSource, 'escaping-subjects', ['kb', 'topic', id, key], `kb.topic.${id}.${key}: ${escape}`));
      continue;
    }
    merged.push({
      id,
      kind: t.kind,
      enable: t.enable ?? true,
      title: t.title,
      introduction: t.introduction,
      description: t.description,
      subjects: t.subjects,
      dir: t.dir,
      root: t.root,
      file: t.file,
      line: t.line,
      learned: entry.learned,
      disabled: entry.disabled,
      learnedFrom: entry.learnedFrom,
      disabledFrom: entry.disabledFrom,
    });
  }

  for (const [name, patterns] of profiles) {
    patterns.forEach((value, index) => {
      const topicId = splitKnowledgeFlag(value).topic;
      if (topics.has(topicId)) return;
      const source = [...files].reverse().find((f) => f.file.profile?.[name])?.source ?? files[0]!.source;
      diagnostics.push(
        configError(
          source,
          'unknown-profile-topic',
          ['profile', name, 'knowledge', index],
          `${dottedPath(['profile', name, 'knowledge', index])}: ${JSON.stringify(value)} names no topic ${JSON.stringify(topicId)}. Use "<topic>/<pattern>" with a topic of [kb.topic.*].`,
        ),
      );
    });
  }

  if (summaries) diagnostics.push(...summariesProblems(summaries, [...files].reverse().find((f) => f.file.kb?.summaries)!.source));

  if (files.length > 0 && topics.size === 0) {
    diagnostics.push({
      kind: 'warning',
      code: 'no-topics',
      message: 'No topics are configured. Add a [kb.topic.<id>] table with subjects = "<folder>".',
      file: files[0]!.source.file,
    });
  }

  if (diagnostics.some((d) => d.kind === 'config-error')) return { config: undefined, diagnostics };

  return {
    config: {
      files: validated.map((v) => v.source.file),
      site: {
        title: site.title ?? 'Knowledge',
        description: site.description,
        url: site.url,
        base: site.base ?? '/',
        repository: site.repository,
        branch: site.branch ?? 'main',
        allow_html: site.allow_html ?? false,
      },
      kb: {
        max_subject_bytes: (kb['max_subject_bytes'] as number | undefined) ?? 1048576,
        warn_subject_tokens: (kb['warn_subject_tokens'] as number | undefined) ?? 20000,
        knowledge_budget_tokens: (kb['knowledge_budget_tokens'] as number | undefined) ?? 8000,
        summaries: summaries && {
          endpoint: summaries['endpoint'] as string,
          model: summaries['model'] as string,
          api_key_env: (summaries['api_key_env'] as string | undefined) ?? 'SYLLABUS_LLM_KEY',
          prompt: (summaries['prompt'] as string | undefined) ?? DEFAULT_SUMMARY_PROMPT,
          concurrency: (summaries['concurrency'] as number | undefined) ?? 4,
          timeout_seconds: (summaries['timeout_seconds'] as number | undefined) ?? 30,
        },
        sources: {
          timeout_seconds: (sourcesTable['timeout_seconds'] as number | undefined) ?? 10,
          max_bytes: (sourcesTable['max_bytes'] as number | undefined) ?? 2097152,
          concurrency: (sourcesTable['concurrency'] as number | undefined) ?? 4,
          allow_private: (sourcesTable['allow_private'] as boolean | undefined) ?? false,
        },
      },
      topics: merged,
      profiles,
    },
    diagnostics,
  };
}

/** Why a `subjects` (or `learnings`) path may not be used as written, judged on the path alone. */
export function escapeProblem(subjects: string, root: string, dir: string, kind: 'folder' | 'learnings' = 'folder'): string | undefined {
  const fix =
    kind === 'folder'
      ? `Topic folders must lie inside the folder of the config file (${root}), because PR previews build configs from untrusted branches; move the folder there and use a relative path.`
      : `Learnings stores must lie inside the folder of the config file (${root}), because PR previews build configs from untrusted branches; move the file there and use a relative path.`;
  if (path.isAbsolute(subjects)) return `${JSON.stringify(subjects)} is an absolute path. ${fix}`;
  if (isOutside(root, dir)) return `${JSON.stringify(subjects)} leaves the folder of the config file. ${fix}`;
  return undefined;
}

