/**
 * Parsing, validating and merging config files (SPEC 1). Takes file texts, returns the merged
 * config and its diagnostics; reading the files is the host's job (`config-read.ts`).
 */
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type * as z from 'zod/mini';
import { locatePath } from './config-locate.ts';
import {
  ConfigFileSchema,
  KNOWN_KEYS,
  KNOWN_TABLES,
  RESERVED_TOPIC_IDS,
  TOPIC_ID,
  type ConfigFile,
} from './config-schema.ts';
import type { Diagnostic } from './diagnostics.ts';
import { compilePattern } from './glob.ts';
import { DEFAULT_SUMMARY_PROMPT } from './llm-summary.ts';
import { isOutside } from './paths.ts';
import { suggestName } from './suggest.ts';

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
function configError(
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
 * LLM summaries need an endpoint and a model, and the endpoint must be an `http(s)` URL.
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
  const endpoint = summaries['endpoint'];
  if (typeof endpoint === 'string' && !isHttpUrl(endpoint)) {
    problems.push(
      configError(
        source,
        'bad-summaries-endpoint',
        ['kb', 'summaries', 'endpoint'],
        `kb.summaries.endpoint: ${JSON.stringify(endpoint)} is not an http(s) URL. Give the whole chat completions URL, e.g. "https://api.openai.com/v1/chat/completions".`,
      ),
    );
  }
  return problems;
}

function isHttpUrl(text: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
}

/** Writes a path as `kb.topic.x.learned[0]`. */
export function dottedPath(at: readonly PropertyKey[]): string {
  let out = '';
  for (const part of at) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += (out ? '.' : '') + String(part);
  }
  return out;
}

/** Describes a TOML value's type for an error message. */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null || value === undefined) return 'nothing';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `${typeof value === 'boolean' ? 'the boolean' : 'the value'} ${String(value)}`;
}

/** Describes what a Zod type issue expected. */
function describeExpected(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    switch (issue.expected) {
      case 'string':
        return 'a string (in quotes)';
      case 'boolean':
        return 'true or false';
      case 'array':
        return 'an array of strings, like ["a", "b"]';
      case 'object':
        return 'a table';
      case 'int':
        return 'a whole number';
      case 'number':
        return 'a number';
      default:
        return String(issue.expected);
    }
  }
  if (issue.code === 'too_small') return 'a number greater than 0';
  return issue.message;
}

/** The known keys for a table path, if Syllabus defines that table. */
function knownKeysAt(at: readonly PropertyKey[]): readonly string[] | undefined {
  const shape = at.map((p, i) => ((at[0] === 'kb' && at[1] === 'topic' && i === 2) || (at[0] === 'profile' && i === 1) ? '*' : String(p)));
  return KNOWN_KEYS[shape.join('.')];
}

/** Normalises strings: `\r\n` → `\n`, trailing line breaks removed, empty strings dropped. */
function normalizeStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.replaceAll('\r\n', '\n').replace(/\n+$/, '');
    return text === '' ? undefined : text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const normalized = normalizeStrings(item);
    if (normalized !== undefined) out[key] = normalized;
  }
  return out;
}

/** Parses and validates one config file. */
function validateFile(source: ConfigSource): { file: ConfigFile | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let raw: Record<string, unknown>;
  try {
    raw = parse(source.text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    diagnostics.push({
      kind: 'config-error',
      code: 'toml-syntax',
      message: `TOML syntax error: ${what}. Fix the TOML at line ${error.line}, column ${error.column}.`,
      file: source.file,
      line: error.line,
      column: error.column,
    });
    return { file: undefined, diagnostics };
  }

  for (const key of Object.keys(raw)) {
    if ((KNOWN_TABLES as readonly string[]).includes(key)) continue;
    const suggestion = suggestName(key, KNOWN_TABLES);
    if (suggestion) {
      const position = locatePath(source.text, [key]);
      diagnostics.push({
        kind: 'warning',
        code: 'unknown-table',
        message: `[${key}] is not a Syllabus table and is ignored. Did you mean [${suggestion}]?`,
        file: source.file,
        ...(position ?? {}),
      });
    }
  }

  const known = Object.fromEntries(KNOWN_TABLES.filter((t) => t in raw).map((t) => [t, normalizeStrings(raw[t])]));
  const result = ConfigFileSchema.safeParse(known, { reportInput: true });
  if (!result.success) {
    for (const issue of result.error.issues) diagnostics.push(...describeIssue(source, issue));
  }

  const topics = (raw['kb'] as { topic?: unknown } | undefined)?.topic;
  if (topics && typeof topics === 'object' && !Array.isArray(topics)) {
    for (const id of Object.keys(topics)) diagnostics.push(...checkTopicId(source, id));
  }
  if (diagnostics.some((d) => d.kind === 'config-error')) return { file: undefined, diagnostics };
  const file = result.data!;
  for (const [id, topic] of Object.entries(file.kb?.topic ?? {})) {
    if (topic.subjects !== undefined && topic.learnings !== undefined) {
      diagnostics.push(
        configError(
          source,
          'subjects-and-learnings',
          ['kb', 'topic', id, 'learnings'],
          `kb.topic.${id}: both subjects and learnings are set. A topic reads either a folder (subjects = "<folder>") or a learnings store (learnings = "<file>.json"); remove one of them.`,
        ),
      );
    }
    for (const field of ['learned', 'disabled'] as const) {
      topic[field]?.forEach((pattern, index) => {
        const compiled = compilePattern(pattern);
        if (!compiled.ok) {
          diagnostics.push(
            configError(source, 'invalid-pattern', ['kb', 'topic', id, field, index], `kb.topic.${id}.${field}[${index}]: ${compiled.message} Fix or remove the pattern.`),
          );
        }
      });
    }
  }
  for (const [name, profile] of Object.entries(file.profile ?? {})) {
    profile.knowledge?.forEach((value, index) => {
      const compiled = compilePattern(splitKnowledgeFlag(value).pattern);
      if (!compiled.ok) {
        diagnostics.push(
          configError(source, 'invalid-pattern', ['profile', name, 'knowledge', index], `profile.${name}.knowledge[${index}]: ${compiled.message} Fix or remove the pattern.`),
        );
      }
    });
  }
  return { file: diagnostics.some((d) => d.kind === 'config-error') ? undefined : file, diagnostics };
}

/** Turns a schema issue into configuration errors with a fix (one per unknown key). */
function describeIssue(source: ConfigSource, issue: z.core.$ZodIssue): Diagnostic[] {
  const base = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys') {
    const keys = knownKeysAt(base) ?? [];
    return issue.keys.map((key) => {
      const at = [...base, key];
      const suggestion = suggestName(key, keys);
      const hint = suggestion ? `Did you mean "${suggestion}"?` : `Remove it; valid keys here: ${keys.join(', ')}.`;
      return configError(source, 'unknown-key', at, `${dottedPath(at)}: unknown key. ${hint}`);
    });
  }
  const input = (issue as { input?: unknown }).input;
  return [
    configError(source, 'wrong-type', base, `${dottedPath(base)}: expected ${describeExpected(issue)}, got ${describeValue(input)}. Change the value.`),
  ];
}

/** Topic ids must be valid and not reserved. */
function checkTopicId(source: ConfigSource, id: string): Diagnostic[] {
  const at = ['kb', 'topic', id];
  if ((RESERVED_TOPIC_IDS as readonly string[]).includes(id)) {
    return [
      configError(
        source,
        'reserved-topic-id',
        at,
        `kb.topic.${id}: the topic id "${id}" is reserved for the site's own routes (${RESERVED_TOPIC_IDS.join(', ')}). Rename the table, e.g. [kb.topic.${id}-notes].`,
      ),
    ];
  }
  if (TOPIC_ID.test(id)) return [];
  let fixed = id.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z]+/, '');
  if (fixed === '') fixed = 'topic';
  return [
    configError(
      source,
      'bad-topic-id',
      at,
      `kb.topic.${JSON.stringify(id)}: invalid topic id ${JSON.stringify(id)}. Topic ids start with a letter and contain only letters, digits, "-" and "_"; rename the table, e.g. [kb.topic.${fixed}].`,
    ),
  ];
}

/**
 * Parses, validates and merges config files in order (SPEC 1): scalars of a later file replace,
 * `learned`, `disabled` and profile `knowledge` lists are appended, topics and profiles merge by
 * id, and topics keep the order in which they first appear.
 */
export function loadConfig(sources: readonly ConfigSource[]): ConfigResult {
  const diagnostics: Diagnostic[] = [];
  const files: { source: ConfigSource; file: ConfigFile }[] = [];
  for (const source of sources) {
    const validated = validateFile(source);
    diagnostics.push(...validated.diagnostics);
    if (validated.file) files.push({ source, file: validated.file });
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
          `profile.${name}.knowledge[${index}]: ${JSON.stringify(value)} names no topic ${JSON.stringify(topicId)}. Use "<topic>/<pattern>" with a topic of [kb.topic.*].`,
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
      files: sources.map((s) => s.file),
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

/** Splits a `-k` value on its first `/`: `topic` alone and `topic/` mean `topic/**`. */
export function splitKnowledgeFlag(value: string): { topic: string; pattern: string } {
  const slash = value.indexOf('/');
  if (slash === -1) return { topic: value, pattern: '**' };
  const pattern = value.slice(slash + 1);
  return { topic: value.slice(0, slash), pattern: pattern === '' ? '**' : pattern };
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

