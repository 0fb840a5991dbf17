/**
 * The configuration schema (SPEC 1): the single source of config truth. Types are inferred from
 * it, and the JSON Schema published for editors is generated from it.
 *
 * The schema describes one config file. Defaults are applied when files are merged
 * (see `config/load.ts`), because a later file only replaces what it sets.
 */
import * as z from 'zod/mini';
import {
  baseProblem,
  branchProblem,
  endpointProblem,
  envNameProblem,
  lineProblem,
  pathProblem,
  patternProblem,
  repositoryProblem,
  siteUrlProblem,
  textProblem,
} from './values.ts';
import type { DiagnosticCode } from '../diagnostics/diagnostics.ts';

/** An optional field with a description (for the generated JSON Schema). */
function field<T extends z.core.SomeType>(schema: T, description: string) {
  return z.optional(schema).check(z.describe(description));
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
/** Slugs or globs (content/reference/patterns.md). */
const patterns = z.array(ruled('invalid-pattern', patternProblem));

/** `[site]`: how the human site is titled, addressed and linked. */
export const SiteSchema = z.strictObject({
  /** Site title. Default `"Knowledge"`. */
  title: field(line, 'Site title. Default "Knowledge".'),
  /** Site description, shown on the home page and in llms.txt. Default none. */
  description: field(text, 'Site description, shown on the home page and in llms.txt. Default none.'),
  /**
   * Public URL of the site, e.g. `"https://kb.example.com"`: `http(s)`, without user name,
   * password, query or fragment. Default none: links stay relative, no sitemap.
   */
  url: field(
    ruled('bad-url', siteUrlProblem),
    'Public URL of the site, http(s), without user name, password, query or fragment. Default none: links stay relative and no sitemap is written.',
  ),
  /**
   * Sub-path when hosted below the domain root, e.g. `"/docs/"`: letters, digits, `-`, `_`, `.`
   * and `~` between single slashes, no `.` or `..` segment. Default `"/"`.
   */
  base: field(
    ruled('bad-base', baseProblem),
    'Sub-path when the site is hosted below the domain root: letters, digits, "-", "_", "." and "~" between single slashes, e.g. "/docs/". Default "/".',
  ),
  /** Repository URL for edit links, `<repository>/edit/<branch>/<path>`: as `url`, `http(s)` without credentials, query or fragment. Default none. */
  repository: field(ruled('bad-url', repositoryProblem), 'Repository URL for edit links (<repository>/edit/<branch>/<path>), http(s). Default none.'),
  /** Branch used in edit links. Default `"main"`. */
  branch: field(ruled('bad-name', branchProblem), 'Branch used in edit links. Default "main".'),
  /** Keep raw HTML in markdown instead of sanitising it. Default `false`. */
  allow_html: field(bool, 'Keep raw HTML in markdown instead of sanitising it. Default false.'),
});

/** `[kb.summaries]`: optional LLM summaries (SPEC 8). Absent = extractive summaries only. */
export const SummariesSchema = z.strictObject({
  /** OpenAI-compatible chat completions endpoint: an `http(s)` URL without user name or password. */
  endpoint: field(ruled('bad-summaries-endpoint', endpointProblem), 'OpenAI-compatible chat completions endpoint.'),
  /** Model name sent to the endpoint. */
  model: field(line, 'Model name sent to the endpoint.'),
  /** Name of the environment variable holding the API key (letters, digits, `_`). Default `"SYLLABUS_LLM_KEY"`. */
  api_key_env: field(ruled('bad-name', envNameProblem), 'Name of the environment variable holding the API key. Default "SYLLABUS_LLM_KEY".'),
  /** The summarisation prompt. Default: a built-in prompt. */
  prompt: field(text, 'The summarisation prompt. Default: a built-in prompt.'),
  /** Calls in flight at once. Default 4. */
  concurrency: field(positiveInt, 'Calls in flight at once. Default 4.'),
  /** Per-call timeout in seconds. Default 30. */
  timeout_seconds: field(positiveNumber, 'Per-call timeout in seconds. Default 30.'),
});

/** `[kb.sources]`: fetching of URL sources listed in `links.txt` (SPEC 8). */
export const SourcesSchema = z.strictObject({
  /** Per-fetch timeout in seconds. Default 10. */
  timeout_seconds: field(positiveNumber, 'Per-fetch timeout in seconds. Default 10.'),
  /** Largest response accepted, in bytes. Default 2097152. */
  max_bytes: field(positiveInt, 'Largest response accepted, in bytes. Default 2097152.'),
  /** Fetches in flight at once. Default 4. */
  concurrency: field(positiveInt, 'Fetches in flight at once. Default 4.'),
  /** Allow fetching loopback and private addresses. Default `false`. */
  allow_private: field(bool, 'Allow fetching loopback and private addresses. Default false.'),
});

/** `[kb.topic.<id>]`: one topic, JP's topic schema. */
export const TopicSchema = z.strictObject({
  /** `false` makes the topic not exist anywhere. Default `true`. */
  enable: field(bool, 'false makes the topic not exist anywhere. Default true.'),
  /** Human-readable title, shown instead of the id. Default none. */
  title: field(line, 'Human-readable title, shown instead of the id. Default none.'),
  /** One line for the `<knowledge>` list. Default none. */
  introduction: field(line, 'One line for the <knowledge> list. Default none.'),
  /** Longer markdown text, shown in listings and above pre-loaded subjects. Default none. */
  description: field(text, 'Longer markdown text, shown in listings and above pre-loaded subjects. Default none.'),
  /**
   * Folder of the topic's subjects, relative to the folder of this config file, with `/` between
   * folders. Required, unless `learnings` is set.
   */
  subjects: field(
    ruled('bad-path', (value) => pathProblem(value, 'subjects')),
    'Folder of the topic\'s subjects, relative to the folder of this config file. Required, unless learnings is set.',
  ),
  /**
   * A learnings store instead of a folder (SPEC 8): a JSON file in seed 004's format, relative to
   * the folder of this config file, e.g. `"learnings/knowledge.json"`. Each learning becomes the
   * subject `<category>/<id>`. Never together with `subjects`. Default none.
   */
  learnings: field(
    ruled('bad-path', (value) => pathProblem(value, 'learnings')),
    'A learnings store instead of a folder: a JSON file in seed 004\'s format, relative to the folder of this config file, e.g. "learnings/knowledge.json". Each learning becomes the subject <category>/<id>. Never together with subjects. Default none.',
  ),
  /** Patterns of subjects pre-loaded into the `<knowledge>` section, e.g. `["maintainers/*"]`. Default `[]`. */
  learned: field(patterns, 'Patterns of subjects pre-loaded into the <knowledge> section. Default [].'),
  /** Slugs or globs of subjects excluded from everything, e.g. `["drafts/**"]`. Default `[]`. */
  disabled: field(patterns, 'Slugs or globs of subjects excluded from everything. Default [].'),
});

/** `[kb]`: limits of the knowledge base, and its topics. */
export const KbSchema = z.strictObject({
  /** Larger files are skipped with a message. Default 1048576. */
  max_subject_bytes: field(positiveInt, 'Larger files are skipped with a message. Default 1048576.'),
  /** `check` warns about subjects with more tokens. Default 20000. */
  warn_subject_tokens: field(positiveInt, 'check warns about subjects with more tokens. Default 20000.'),
  /** `check` warns when a `<knowledge>` section has more tokens. Default 8000. */
  knowledge_budget_tokens: field(positiveInt, 'check warns when a <knowledge> section has more tokens. Default 8000.'),
  summaries: z.optional(SummariesSchema),
  sources: z.optional(SourcesSchema),
  /** Topics by id. */
  topic: z.optional(z.record(z.string(), TopicSchema)),
});

/** `[profile.<name>]`: a named variant of the prompt artifact. */
export const ProfileSchema = z.strictObject({
  /** Patterns like `-k` values: `topic/glob`, or `topic` alone for everything. Default `[]`. */
  knowledge: field(patterns, 'Patterns like -k values: topic/glob, or topic alone for everything. Default [].'),
});

/** One config file. Other top-level tables (a JP config's `assistant`, …) are ignored. */
export const ConfigFileSchema = z.object({
  site: z.optional(SiteSchema),
  kb: z.optional(KbSchema),
  profile: z.optional(z.record(z.string(), ProfileSchema)),
});

/** One config file, as validated. */
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
/** One topic table, as validated. */
export type TopicTable = z.infer<typeof TopicSchema>;

/** The top-level tables Syllabus reads. */
export const KNOWN_TABLES = ['site', 'kb', 'profile'] as const;

/** The keys allowed in each table, by the shape of its dotted path (`*` for an id). */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  site: Object.keys(SiteSchema.shape),
  kb: Object.keys(KbSchema.shape),
  'kb.summaries': Object.keys(SummariesSchema.shape),
  'kb.sources': Object.keys(SourcesSchema.shape),
  'kb.topic.*': Object.keys(TopicSchema.shape),
  'profile.*': Object.keys(ProfileSchema.shape),
};

/** Topic ids that name the site's own routes. */
export const RESERVED_TOPIC_IDS = ['kb', 'pagefind', 'search', 'changes', 'raw', 'assets', '_astro'] as const;

/** Topic ids: a letter, then letters, digits, `-` and `_`. */
export const TOPIC_ID = /^[A-Za-z][A-Za-z0-9_-]*$/;
