/**
 * The configuration schema (content/reference/configuration.md): the single source of config
 * truth. Each key is written once, as `field(type, meaning, default)`: its description for
 * editors is the meaning followed by the default, and the JSON Schema of `kb.toml` published for
 * editors is generated from it (`renderConfigSchema`). The merged config's types are inferred
 * from it, with the defaults of config/defaults.ts applied.
 *
 * The schema describes one config file, without defaults: a later file replaces only what it
 * sets, so defaults are applied when files are merged (config/merge.ts).
 */
import * as z from 'zod/mini';
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
  TOPIC_DEFAULTS,
} from './defaults.ts';
import { baseProblem, branchProblem, endpointProblem, envNameProblem, lineProblem, pathProblem, patternProblem, repositoryProblem, siteUrlProblem, textProblem } from './values.ts';
import type { DiagnosticCode } from '../diagnostics/diagnostics.ts';
import { warningCodes } from '../diagnostics/codes.ts';

/** Topic ids that name the site's own routes. */
export const RESERVED_TOPIC_IDS = ['kb', 'pagefind', 'search', 'changes', 'raw', 'assets', '_astro'] as const;

/** Topic ids: a letter, then letters, digits, `-` and `_`. */
export const TOPIC_ID = /^[A-Za-z][A-Za-z0-9_-]*$/;

/**
 * An optional key. `meaning` is its description; a `fallback` (its entry in config/defaults.ts)
 * ends the description (`Default: "Knowledge".`, or `Default: <shown>.` for a value too long to
 * show) and is the JSON Schema's `default`.
 */
function field<T extends z.core.SomeType>(type: T, meaning: string, fallback: Readonly<z.output<T>> | undefined, shown?: string) {
  const optional = z.optional(type);
  if (fallback === undefined) return optional.check(z.describe(meaning));
  return optional.check(z.meta({ description: `${meaning} Default: ${shown ?? JSON.stringify(fallback)}.`, default: fallback }));
}
/**
 * A string that `problem` (config/values.ts) accepts. A value it refuses is the configuration
 * error `code`, its message `<dotted path>: <problem>` (see describeIssue in config/validate.ts).
 */
function ruled(code: DiagnosticCode, problem: (value: string) => string | undefined) {
  return z.string().check(z.refine((value) => problem(value) === undefined, { error: (issue) => problem(issue.input as string), params: { code } }));
}
/** One line of text. */
const line = ruled('bad-text', lineProblem);
/** Text of one or more lines. */
const text = ruled('bad-text', textProblem);
const bool = z.boolean();
const positiveInt = z.int().check(z.positive());
const positiveNumber = z.number().check(z.positive());
/** A share from 0 to 1, such as a threshold of hit@3. */
const share = z.number().check(
  z.refine((value) => value >= 0 && value <= 1, {
    error: (issue) => `expected a number from 0 to 1, like 0.8, got the number ${String(issue.input as number)}. Change the value.`,
    params: { code: 'wrong-type' },
  }),
  // For editors: the refinement above does not show in the JSON Schema.
  z.meta({ minimum: 0, maximum: 1 }),
);
/** Slugs or globs (content/reference/patterns.md). */
const patterns = z.array(ruled('invalid-pattern', patternProblem));
/** A table's title and description in the JSON Schema. */
const table = (title: string, description: string) => z.meta({ title, description });

const site = SITE_DEFAULTS;
/** `[site]`: how the human site is titled, addressed and linked. */
export const SiteSchema = z
  .strictObject({
    title: field(line, 'Site title: the header, the home page and the llms.txt heading.', site.title),
    description: field(text, 'Site description, shown on the home page and as the llms.txt summary.', site.description),
    url: field(
      ruled('bad-url', siteUrlProblem),
      'Public URL of the site, e.g. "https://kb.example.com": http(s), without user name, password, query or fragment. Without it links stay relative and no sitemap is written.',
      site.url,
    ),
    base: field(
      ruled('bad-base', baseProblem),
      'Sub-path when the site is hosted below the domain root, e.g. "/docs/": letters, digits, "-", "_", "." and "~" between single slashes, no "." or ".." segment.',
      site.base,
    ),
    repository: field(
      ruled('bad-url', repositoryProblem),
      'Repository URL for edit links, <repository>/edit/<branch>/<path>: http(s), without user name, password, query or fragment. Without it pages have no edit link.',
      site.repository,
    ),
    branch: field(ruled('bad-name', branchProblem), 'Branch used in edit links; no white space.', site.branch),
    allow_html: field(bool, 'Keep raw HTML in markdown as written, and publish SVG files, instead of sanitising it.', site.allow_html),
    logo: field(
      ruled('bad-path', (value) => pathProblem(value, 'logo')),
      'Image shown in the header before the site title, e.g. "assets/logo.png": a file relative to the folder of the config file that sets it, and inside that folder; PNG, JPEG, GIF, WebP or AVIF (SVG only with allow_html = true). Without it the header shows the title alone.',
      site.logo,
    ),
    favicon: field(
      ruled('bad-path', (value) => pathProblem(value, 'favicon')),
      'Icon of the site in browser tabs, e.g. "assets/favicon.png": a file relative to the folder of the config file that sets it, and inside that folder; PNG, ICO, GIF, WebP or AVIF (SVG only with allow_html = true). Without it the site uses the built-in icon.',
      site.favicon,
    ),
  })
  .check(table('[site]', 'How the human site is titled, addressed and linked.'));

const summaries = SUMMARIES_DEFAULTS;
/** `[kb.summaries]`: optional LLM summaries. Absent = extractive summaries only. */
export const SummariesSchema = z
  .strictObject({
    endpoint: field(
      ruled('bad-summaries-endpoint', endpointProblem),
      'OpenAI-compatible chat completions URL, e.g. "https://api.openai.com/v1/chat/completions": http(s), without user name or password. Required in this table.',
      summaries.endpoint,
    ),
    model: field(line, 'Model name sent to the endpoint. Required in this table.', summaries.model),
    api_key_env: field(
      ruled('bad-name', envNameProblem),
      'Name of the environment variable holding the API key (letters, digits and "_", not starting with a digit); the key itself never goes in the file.',
      summaries.api_key_env,
    ),
    prompt: field(text, 'The system message of every call.', summaries.prompt, 'the built-in prompt'),
    concurrency: field(positiveInt, 'Calls in flight at once.', summaries.concurrency),
    timeout_seconds: field(positiveNumber, 'Per-call timeout in seconds.', summaries.timeout_seconds),
  })
  .check(table('[kb.summaries]', 'Summaries written by an LLM through an OpenAI-compatible chat completions endpoint. Without this table, summaries are extractive.'));

const sources = SOURCES_DEFAULTS;
/** `[kb.sources]`: fetching of URL sources listed in `links.txt`. */
export const SourcesSchema = z
  .strictObject({
    timeout_seconds: field(positiveNumber, 'Timeout of the whole fetch of one URL, redirects and body included, in seconds.', sources.timeout_seconds),
    max_bytes: field(positiveInt, 'Largest body accepted, in bytes, counted after decompression.', sources.max_bytes),
    concurrency: field(positiveInt, 'Fetches in flight at once.', sources.concurrency),
    allow_private: field(bool, 'Allow fetching addresses that are not public: loopback, private, link-local and the like.', sources.allow_private),
  })
  .check(table('[kb.sources]', 'How syllabus build fetches the web pages that a links.txt lists.'));

const prompt = PROMPT_DEFAULTS;
/** `[kb.prompt]`: what the <knowledge> section holds beyond the spec's topics and pre-loaded subjects. */
export const PromptSchema = z
  .strictObject({
    index: field(
      bool,
      'true: the <knowledge> section also lists subjects an agent can learn, as topic/slug and a one-line summary, most useful first, within index_budget_tokens (content/agents/knowledge-section.md).',
      prompt.index,
    ),
    index_budget_tokens: field(
      positiveInt,
      'The most o200k_base tokens the index of subjects may take; the subjects left out are counted in its last line.',
      prompt.index_budget_tokens,
    ),
  })
  .check(table('[kb.prompt]', 'What the <knowledge> section holds besides topics and pre-loaded subjects: an optional compact index of subjects.'));

const topic = TOPIC_DEFAULTS;
/** `[kb.topic.<id>]`: one topic. */
export const TopicSchema = z
  .strictObject({
    enable: field(bool, 'false: the topic does not exist in any output.', topic.enable),
    title: field(line, 'Display name, shown instead of the id (one line).', topic.title),
    introduction: field(line, 'One line after the topic in the <knowledge> list.', topic.introduction),
    description: field(text, "Longer markdown: top of the learn listing and the topic page, and above the topic's pre-loaded subjects in the prompt.", topic.description),
    subjects: field(
      ruled('bad-path', (value) => pathProblem(value, 'subjects')),
      'The topic\'s folder, relative to the folder of this config file, with "/" between folders. Required, unless learnings is set.',
      topic.subjects,
    ),
    learnings: field(
      ruled('bad-path', (value) => pathProblem(value, 'learnings')),
      'Instead of subjects: a learnings store, a JSON file relative to the folder of this config file, e.g. "learnings/knowledge.json". Each learning becomes the subject <category>/<id>.',
      topic.learnings,
    ),
    learned: field(patterns, 'Slugs or globs of subjects pre-loaded into the <knowledge> section, e.g. ["maintainers/*"].', topic.learned),
    disabled: field(patterns, 'Slugs or globs of subjects excluded from everything, e.g. ["drafts/**"]. Beats learned.', topic.disabled),
  })
  .check(table('[kb.topic.<id>]', 'One topic: its subjects, and how agents see it.'));

const kb = KB_DEFAULTS;
/** `[kb]`: limits of the knowledge base, and its topics. */
export const KbSchema = z
  .strictObject({
    max_subject_bytes: field(positiveInt, 'Larger files are skipped, with a message instead of their content.', kb.max_subject_bytes),
    warn_subject_tokens: field(positiveInt, 'check warns about subjects with more tokens.', kb.warn_subject_tokens),
    knowledge_budget_tokens: field(positiveInt, 'check warns when the <knowledge> section has more tokens.', kb.knowledge_budget_tokens),
    summaries: z.optional(SummariesSchema),
    sources: z.optional(SourcesSchema),
    prompt: z.optional(PromptSchema),
    topic: z
      .optional(
        z.record(
          // For editors only: ids are checked with their own messages (config/validate.ts).
          z.string().check(z.meta({ pattern: TOPIC_ID.source, not: { enum: [...RESERVED_TOPIC_IDS] } })),
          TopicSchema,
        ),
      )
      .check(z.describe('Topics by id: a letter, then letters, digits, "-" and "_". Topics keep the order of their tables.')),
  })
  .check(table('[kb]', 'Limits that apply to every topic, and the topics.'));

/** What `[check]` may make of a warning: an error, a warning, or nothing (content/reference/diagnostics.md). */
export const SEVERITIES = ['error', 'warning', 'off'] as const;
/** A severity `[check]` sets. */
export type Severity = (typeof SEVERITIES)[number];

/**
 * `[check.severity]`, and the `severity` of an override: a severity per warning code. Error codes
 * are not keys: configuration and content errors stay errors (config/validate.ts says so).
 */
export const SeveritySchema = z
  .strictObject(
    Object.fromEntries(warningCodes().map((code) => [code, z.optional(z.enum(SEVERITIES)).check(z.describe(`The severity of ${code} warnings: "error", "warning" or "off".`))])),
  )
  // One definition in the published JSON Schema, which both tables refer to.
  .check(
    z.meta({
      id: 'severities',
      title: '[check.severity]',
      description: 'Severities by diagnostic code, e.g. near-duplicate = "off". Only warnings can be changed; see reference/diagnostics for the codes.',
    }),
  );

/** `[[check.override]]`: severities for the files some globs match. */
export const OverrideSchema = z
  .strictObject({
    files: z
      .array(ruled('invalid-pattern', patternProblem))
      .check(z.minLength(1), z.describe('Globs of the files the override applies to, relative to the folder of this config file, e.g. ["**/LICENSE*", "vendor/**"]. Required.')),
    severity: z.optional(SeveritySchema),
  })
  .check(table('[[check.override]]', 'Severities for the diagnostics of some files; later overrides win over earlier ones and over [check.severity].'));

const check = CHECK_DEFAULTS;
/** `[check]`: what `check`, the build and the dev server report, and how seriously. */
export const CheckSchema = z
  .strictObject({
    near_duplicate_code: field(bool, 'Also look for near-duplicates among code and config files (fenced subjects); by default only prose is compared.', check.near_duplicate_code),
    severity: z.optional(SeveritySchema),
    override: z.optional(z.array(OverrideSchema)).check(z.describe('Severities per file glob, in order: later overrides win.')),
  })
  .check(table('[check]', 'What check, the build and the dev server report, and how seriously: the severity of each warning code, for every file or for some.'));

const agent = EVAL_AGENT_DEFAULTS;
/** `[eval.agent]`: the agent evaluation, a model answering the question set through `learn` and `find`. */
export const EvalAgentSchema = z
  .strictObject({
    endpoint: field(
      ruled('bad-url', endpointProblem),
      'OpenAI-compatible chat completions URL, e.g. "https://api.openai.com/v1/chat/completions": http(s), without user name or password. Required in this table.',
      agent.endpoint,
    ),
    model: field(line, 'Model that answers the questions, as the endpoint names it. Required in this table.', agent.model),
    api_key_env: field(
      ruled('bad-name', envNameProblem),
      'Name of the environment variable holding the API key (letters, digits and "_", not starting with a digit); the key itself never goes in the file. Unset or empty: no key is sent, as local servers expect.',
      agent.api_key_env,
    ),
    judge_model: field(line, "Model that judges answers against a question's rubric, on the same endpoint. Default: model.", agent.judge_model),
    concurrency: field(positiveInt, 'Questions evaluated at once.', agent.concurrency),
    timeout_seconds: field(positiveNumber, 'Per-call timeout in seconds; a call that takes longer fails its question.', agent.timeout_seconds),
    max_turns: field(positiveInt, 'Calls of the model per question before it counts as unanswered.', agent.max_turns),
    min_score: field(share, 'syllabus eval --agent exits 1 when the mean score is under it, from 0 to 1. Default: no threshold.', agent.min_score),
  })
  .check(
    table('[eval.agent]', 'The agent evaluation: a model answers each question of the question set with the learn and find tools, and is scored (reference/evaluations-agent).'),
  );

const evals = EVAL_DEFAULTS;
/** `[eval]`: the question set of `syllabus eval` and its thresholds (content/reference/evaluations.md). */
export const EvalSchema = z
  .strictObject({
    questions: field(
      ruled('bad-path', (value) => pathProblem(value, 'questions')),
      'The question set, a TOML file relative to the folder of the config file that sets it, e.g. "evals.toml" (content/reference/evaluations.md). Required by syllabus eval; check validates it.',
      evals.questions,
    ),
    min_hit_at_3: field(
      share,
      'syllabus eval exits 1 when the share of questions whose expected subjects find ranks in its top 3 is under this, from 0 to 1, e.g. 0.8.',
      evals.min_hit_at_3,
    ),
    min_mrr: field(share, 'syllabus eval exits 1 when the mean reciprocal rank of the expected subjects in find is under this, from 0 to 1, e.g. 0.5.', evals.min_mrr),
    agent: z.optional(EvalAgentSchema),
  })
  .check(table('[eval]', 'The questions an agent should be able to answer from the knowledge base, and the figures syllabus eval must reach (content/reference/evaluations.md).'));

/** `[profile.<name>]`: a named variant of the prompt artifact. */
export const ProfileSchema = z
  .strictObject({
    knowledge: field(patterns, 'Values like -k: "topic/glob", or "topic" alone for all its subjects. Appended to the topics\' learned.', PROFILE_DEFAULTS.knowledge),
  })
  .check(table('[profile.<name>]', 'Extra pre-loaded subjects, selected with syllabus prompt --profile <name>.'));

/** One config file. Other top-level tables (a JP config's `assistant`, …) are ignored. */
export const ConfigFileSchema = z
  .object({
    site: z.optional(SiteSchema),
    kb: z.optional(KbSchema),
    check: z.optional(CheckSchema),
    eval: z.optional(EvalSchema),
    profile: z.optional(z.record(z.string(), ProfileSchema)).check(z.describe('Profiles by name.')),
  })
  .check(
    table(
      'kb.toml',
      'The configuration of a Syllabus knowledge base. Other top-level tables are ignored. Every key, its default and an example: npx syllabus learn reference configuration --config node_modules/syllabus-kb/content/kb.toml',
    ),
  );

/** One config file, as validated. */
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
/** One topic table, as validated. */
export type TopicTable = z.infer<typeof TopicSchema>;

/** `[eval.agent]` with defaults applied; `endpoint` and `model` are required when the table is present. */
export type EvalAgentConfig = Merged<z.output<typeof EvalAgentSchema>, DefaultedKeys<typeof EVAL_AGENT_DEFAULTS> | 'endpoint' | 'model'>;

/** The keys of a table of config/defaults.ts that have a default. */
export type DefaultedKeys<Defaults> = { [K in keyof Defaults]: Defaults[K] extends undefined ? never : K }[keyof Defaults];

/**
 * A table as merging leaves it: every key present, and those in `Set` (the keys with a default,
 * and required ones) never undefined.
 */
export type Merged<Table, Set extends PropertyKey> = { [K in keyof Table]-?: K extends Set ? Exclude<Table[K], undefined> : Table[K] | undefined };

/** `[site]` with defaults applied. */
export type SiteConfig = Merged<z.output<typeof SiteSchema>, DefaultedKeys<typeof SITE_DEFAULTS>>;
/** `[kb.summaries]` with defaults applied; `endpoint` and `model` are required when the table is present. */
export type SummariesConfig = Merged<z.output<typeof SummariesSchema>, DefaultedKeys<typeof SUMMARIES_DEFAULTS> | 'endpoint' | 'model'>;
/** `[kb.prompt]` with defaults applied. */
export type PromptConfig = Merged<z.output<typeof PromptSchema>, DefaultedKeys<typeof PROMPT_DEFAULTS>>;
/** `[kb.sources]` with defaults applied. */
export type SourcesConfig = Merged<z.output<typeof SourcesSchema>, DefaultedKeys<typeof SOURCES_DEFAULTS>>;
/** `[kb]` with defaults applied: its limits, `[kb.summaries]` when a file has it, and `[kb.sources]`. Topics are merged apart. */
export type KbConfig = Merged<Omit<z.output<typeof KbSchema>, 'summaries' | 'sources' | 'prompt' | 'topic'>, DefaultedKeys<typeof KB_DEFAULTS>> & {
  summaries: SummariesConfig | undefined;
  sources: SourcesConfig;
  prompt: PromptConfig;
};

/** A severity table as merging leaves it: the severity of each warning code it names. */
export type SeverityTable = Partial<Record<DiagnosticCode, Severity>>;
/** One `[[check.override]]` as merging leaves it, with the folder its globs are relative to. */
export interface CheckOverride {
  /** The folder of the config file that wrote it (absolute). */
  root: string;
  files: string[];
  severity: SeverityTable;
}
/** `[check]` with defaults applied: `severity` merged code by code, the overrides of every file in order. */
export interface CheckConfig {
  near_duplicate_code: boolean;
  severity: SeverityTable;
  override: CheckOverride[];
}

/** `[eval]` with defaults applied; `questions` is an absolute path (resolved from the folder of the config file that set it). */
export type EvalConfig = Merged<Omit<z.output<typeof EvalSchema>, 'agent'>, DefaultedKeys<typeof EVAL_DEFAULTS>> & {
  /** `[eval.agent]` when a file has it. */
  agent: EvalAgentConfig | undefined;
};

/** The top-level tables Syllabus reads. */
export const KNOWN_TABLES = ['site', 'kb', 'check', 'eval', 'profile'] as const;

/** The keys allowed in each table, by the shape of its dotted path (`*` for an id). */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  site: Object.keys(SiteSchema.shape),
  kb: Object.keys(KbSchema.shape),
  'kb.summaries': Object.keys(SummariesSchema.shape),
  'kb.sources': Object.keys(SourcesSchema.shape),
  'kb.prompt': Object.keys(PromptSchema.shape),
  'kb.topic.*': Object.keys(TopicSchema.shape),
  check: Object.keys(CheckSchema.shape),
  'check.override.*': Object.keys(OverrideSchema.shape),
  eval: Object.keys(EvalSchema.shape),
  'eval.agent': Object.keys(EvalAgentSchema.shape),
  'profile.*': Object.keys(ProfileSchema.shape),
};

/**
 * The JSON Schema of one `kb.toml`, for editors: every table and key with its description and
 * default. Draft-07, the newest draft that Taplo (Even Better TOML) validates with; the input
 * side of the schema, so that keys stay optional and other top-level tables allowed. Published
 * in the package and on the site (config/published-schema.ts).
 */
export function renderConfigSchema(): Record<string, unknown> {
  return z.toJSONSchema(ConfigFileSchema, { target: 'draft-07', io: 'input' });
}
