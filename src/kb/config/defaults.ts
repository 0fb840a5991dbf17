/**
 * The default of every config key (content/reference/configuration.md), table by table, each key
 * in the schema's order; `undefined` where a key has none. This is where each default is written:
 * the schema (config/schema.ts) shows it in the key's description and in the published JSON
 * Schema, and merging (config/merge.ts) applies it to what the files leave unset.
 *
 * Plain values without Zod, so that a command whose config files were validated by an earlier
 * run (src/build/config-memo.ts) merges them without loading the schema library.
 */

/** The prompt used when `[kb.summaries]` sets none. */
export const DEFAULT_SUMMARY_PROMPT =
  'You write the index of a knowledge base. Summarise the document the user sends in one paragraph ' +
  'of plain text, under 300 characters: what it covers and when a reader or an AI agent should open ' +
  'it. No markdown, no heading, no list, and no opening such as "This document".';

/** `[site]`. */
export const SITE_DEFAULTS = {
  title: 'Knowledge',
  description: undefined,
  url: undefined,
  base: '/',
  repository: undefined,
  branch: 'main',
  allow_html: false,
  logo: undefined,
  favicon: undefined,
} as const;

/** `[kb]`: its own keys (its tables have their own defaults). */
export const KB_DEFAULTS = {
  max_subject_bytes: 1048576,
  warn_subject_tokens: 20000,
  knowledge_budget_tokens: 8000,
} as const;

/** `[kb.summaries]`: `endpoint` and `model` have none, as the table needs both. */
export const SUMMARIES_DEFAULTS = {
  endpoint: undefined,
  model: undefined,
  api_key_env: 'SYLLABUS_LLM_KEY',
  prompt: DEFAULT_SUMMARY_PROMPT,
  concurrency: 4,
  timeout_seconds: 30,
} as const;

/** `[kb.prompt]`. */
export const PROMPT_DEFAULTS = {
  index: false,
  index_budget_tokens: 2000,
} as const;

/** `[kb.sources]`. */
export const SOURCES_DEFAULTS = {
  timeout_seconds: 10,
  max_bytes: 2097152,
  concurrency: 4,
  allow_private: false,
} as const;

/** `[kb.topic.<id>]`: `subjects` (or `learnings`) has none, as every topic needs one. */
export const TOPIC_DEFAULTS = {
  enable: true,
  title: undefined,
  introduction: undefined,
  description: undefined,
  subjects: undefined,
  learnings: undefined,
  learned: [],
  disabled: [],
} as const;

/** `[check]`: its own keys (`[check.severity]` and `[[check.override]]` have no defaults). */
export const CHECK_DEFAULTS = {
  near_duplicate_code: false,
} as const;

/** `[[check.override]]`: `files` has none, as every override needs it. */
export const OVERRIDE_DEFAULTS = {
  files: undefined,
  severity: undefined,
} as const;

/** `[eval]`: no question set and no threshold unless a file sets them. */
export const EVAL_DEFAULTS = {
  questions: undefined,
  min_hit_at_3: undefined,
  min_mrr: undefined,
} as const;

/** `[eval.agent]`: `endpoint` and `model` have none, as the table needs both. */
export const EVAL_AGENT_DEFAULTS = {
  endpoint: undefined,
  model: undefined,
  api_key_env: 'SYLLABUS_LLM_KEY',
  judge_model: undefined,
  concurrency: 4,
  timeout_seconds: 60,
  max_turns: 8,
  min_score: undefined,
} as const;

/** `[profile.<name>]`. */
export const PROFILE_DEFAULTS = {
  knowledge: [],
} as const;
