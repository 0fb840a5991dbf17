/**
 * The published JSON endpoints (content/agents/endpoints.md), as Zod schemas: the build writes
 * values of these types, the remote client validates what it fetches against them, and
 * `/kb/schema/*.json` are generated from them. Change a shape here and every side follows.
 */
import { z } from 'zod';

/** The format version of every endpoint; a reader refuses any other. */
export const FORMAT_VERSION = 1;

const version = z.literal(FORMAT_VERSION).describe('The format version of the endpoints (content/agents/endpoints.md). A reader refuses versions it does not know.');
const sitePath = (what: string) => z.string().regex(/^\//).describe(`${what}, a path from the domain root (it includes [site] base).`);
const nullableText = (what: string) => z.string().nullable().describe(`${what}; null when not set.`);

/** What every listing says of a subject. */
export const SubjectEntrySchema = z
  .object({
    slug: z.string().describe('The subject slug (content/guide/concepts/slugs.md): pass it to the learn tool.'),
    title: z.string().describe('Front matter title, else the first "# " heading, else the last slug segment.'),
    summary: z.string().describe('One paragraph: front matter description, else the first paragraph of text; "" when there is none.'),
    format: z.enum(['markdown', 'text', 'code']).describe('markdown and text are passed through; code is shown as a fenced block.'),
    language: z.string().nullable().describe('The fence language of a code subject; null otherwise.'),
    skipped: z.enum(['binary', 'too-large', 'unreadable']).nullable().describe('Why the content is a one-line message instead of the file; null when it is not.'),
    path: z.string().describe('The file path relative to the topic folder, as stored; for a URL source (links.txt), its URL.'),
    bytes: z.number().int().nonnegative().describe('Size of the file as stored.'),
    tokens: z.number().int().nonnegative().describe('o200k_base tokens of the content.'),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('sha256 (hex) of the content as UTF-8: the content of the subject JSON and the markdown twin.'),
    learned: z.boolean().describe('Whether the subject is pre-loaded into the <knowledge> section.'),
    url: sitePath('The HTML page'),
    markdown: sitePath('The markdown twin (the content as text/markdown)'),
    json: sitePath('The subject JSON (metadata and content)'),
  })
  .describe('A listed subject: visible and enabled.');

/** A topic in the index, with its listed subjects. */
export const TopicEntrySchema = z.object({
  id: z.string().describe('The topic id, for the learn tool.'),
  title: nullableText('The title'),
  introduction: nullableText('The one-line introduction of the <knowledge> list'),
  description: nullableText('The description (markdown)'),
  url: sitePath('The topic page'),
  json: sitePath('The topic JSON'),
  tokens: z.number().int().nonnegative().describe('Tokens of the listed subjects.'),
  subjects: z.array(SubjectEntrySchema).describe('Listed subjects in slug order. Hidden subjects are never listed; fetch one by exact slug at its address.'),
});

/** `/kb/index.json`: the catalog. */
export const SiteIndexSchema = z
  .object({
    version,
    site: z.object({
      title: z.string(),
      description: nullableText('The site description'),
      url: nullableText('The absolute URL the site is published at ([site] url)'),
      base: z.string().describe('[site] base: every path of the site starts with it.'),
    }),
    knowledge: z.object({
      json: sitePath('The <knowledge> section and the learn tool'),
      tokens: z.number().int().nonnegative().describe('Tokens of the <knowledge> section.'),
      profiles: z.record(z.string(), sitePath('The knowledge JSON of a profile')).describe('Each [profile.<name>] and its knowledge JSON.'),
    }),
    addresses: z
      .object({
        page: z.string(),
        markdown: z.string(),
        subject: z.string(),
        topic: z.string(),
        encoding: z.string(),
      })
      .describe('Address templates: replace {topic} and {address}. A hidden subject is reached by exact slug at these addresses.'),
    endpoints: z.object({
      indexText: sitePath('The plain-text index'),
      llms: sitePath('llms.txt'),
      llmsFull: sitePath('llms-full.txt'),
      keywords: sitePath('The keywords of every listed subject, for ranking a query on the client (absent from sites built before it existed)').optional(),
      schemas: sitePath('The folder of these JSON Schemas'),
    }),
    topics: z.array(TopicEntrySchema).describe('Enabled topics in config order.'),
  })
  .describe('The catalog of a Syllabus site: every listed subject and every address an agent needs.');

/** The learn tool definition (content/agents/learn-tool.md), served verbatim. */
export const LearnToolSchema = z.object({
  name: z.literal('learn'),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('The parameters schema of content/agents/learn-tool.md, exactly.'),
});

/** `/kb/knowledge.json` and `/kb/knowledge/<profile>.json`. */
export const KnowledgeFileSchema = z
  .object({
    version,
    profile: z.string().nullable().describe('The profile this section is for; null for the default.'),
    prompt: z.string().nullable().describe('The <knowledge> section (content/agents/knowledge-section.md), or null when there is none.'),
    tool: LearnToolSchema.nullable().describe('The learn tool definition, or null when no topic is listable.'),
    tokens: z.number().int().nonnegative().describe('Tokens of the prompt.'),
    topics: z
      .array(
        z.object({
          id: z.string(),
          preloaded: z.array(z.object({ slug: z.string(), content: z.string() })).describe('The subjects pre-loaded into the prompt, in order.'),
        }),
      )
      .describe('Per enabled topic, what the prompt pre-loads: lets a client add subjects (-k) and render the same section.'),
    index: z
      .object({ budget_tokens: z.number().int().positive().describe('[kb.prompt] index_budget_tokens.') })
      .nullable()
      .optional()
      .describe(
        'The index of subjects the prompt holds ([kb.prompt] index = true), or null when it has none (absent from sites built before it existed): lets a client that adds subjects render the same index, from the summaries of /kb/index.json.',
      ),
  })
  .describe('The <knowledge> system-prompt section and the learn tool of a Syllabus site.');

/** `/kb/topics/<topic>.json`. */
export const TopicFileSchema = TopicEntrySchema.extend({
  version,
  listing: z.string().describe('What the learn tool answers for the topic alone (content/agents/learn-tool.md).'),
}).describe('One topic of a Syllabus site.');

/** `/kb/subjects/<topic>/<address>.json`. */
export const SubjectFileSchema = SubjectEntrySchema.extend({
  version,
  topic: z.string(),
  address: z.string().describe('The slug encoded for URLs and file names (content/reference/site-addresses.md).'),
  hidden: z.boolean().describe('Hidden subjects are listed nowhere but load by exact slug.'),
  content: z.string().describe('The content as the learn tool gives it (content/agents/learn-tool.md).'),
}).describe('One subject of a Syllabus site: its metadata and content.');

/** `/kb/keywords.json`. */
export const KeywordsFileSchema = z
  .object({
    version,
    topics: z
      .array(
        z.object({
          id: z.string(),
          subjects: z
            .array(
              z.object({
                slug: z.string(),
                keywords: z
                  .array(z.string())
                  .max(20)
                  .describe('The first 20 words of the title, summary and headings: lower-cased, punctuation and English stop words removed, longer than 2 characters, each once.'),
                confidence: z.number().min(0).max(1).describe('How much the subject is trusted, 0 to 1: 1 for a plain subject, the stored value for a learning.'),
                lengths: z
                  .array(z.int().min(0))
                  .length(5)
                  .describe('The number of terms in each field, in the order title, name (the slug), summary, headings, body; the body counted before its terms were cut to 64.'),
                terms: z
                  .array(z.string().regex(/^(?:[\p{L}\p{N}]+(?::[1-9][0-9]*)? ?)*$/u))
                  .length(5)
                  .describe(
                    'The stemmed terms of each field, in the order of lengths: separated by spaces, in code-unit order, each followed by ":<count>" when it occurs more than once. The body keeps its 64 most frequent terms. syllabus find ranks with them (BM25F).',
                  ),
              }),
            )
            .describe('Listed subjects in slug order, as in /kb/index.json. Hidden subjects are never in it.'),
        }),
      )
      .describe("Enabled topics in config order, as in /kb/index.json (whose entries hold each subject's title and summary)."),
  })
  .describe(
    'The keywords and search terms of every listed subject of a Syllabus site, for ranking a query (syllabus find) on the client as the site itself ranks it: BM25F over the terms of each field (content/reference/cli/find.md).',
  );

/** `/kb/nav/<topic>.json`: a topic's tree for the sidebar of its pages. */
export const TopicNavSchema = z
  .object({
    version,
    topic: z.string().describe('The topic id.'),
    title: z.string().describe('The topic title, else its id.'),
    url: sitePath('The topic page'),
    entries: z
      .array(
        z.union([
          z
            .strictObject({
              folder: z.string().describe('The folder name (one slug segment).'),
              depth: z.number().int().nonnegative().describe('How many folders hold it (0 at the top of the topic).'),
              count: z.number().int().positive().describe('Listed subjects in the folder and below.'),
            })
            .describe('A folder: the entries after it with a greater depth are inside it.'),
          z
            .strictObject({
              title: z.string().describe('The subject title.'),
              address: z.string().describe('The subject address: its page is <topic url><address>/.'),
              depth: z.number().int().nonnegative().describe('How many folders hold it (0 at the top of the topic).'),
            })
            .describe('A listed subject.'),
        ]),
      )
      .describe('The tree in reading order: each folder comes before what it holds; subjects in slug order. Hidden subjects are never in it.'),
  })
  .describe('The tree of one topic of a Syllabus site, for the sidebar of its pages.');

export type SubjectEntry = z.infer<typeof SubjectEntrySchema>;
export type TopicEntry = z.infer<typeof TopicEntrySchema>;
export type SiteIndex = z.infer<typeof SiteIndexSchema>;
export type KnowledgeFile = z.infer<typeof KnowledgeFileSchema>;
export type TopicFile = z.infer<typeof TopicFileSchema>;
export type SubjectFile = z.infer<typeof SubjectFileSchema>;
export type KeywordsFile = z.infer<typeof KeywordsFileSchema>;
export type TopicNavFile = z.infer<typeof TopicNavSchema>;
export type TopicNavEntry = TopicNavFile['entries'][number];

/** Each endpoint's schema by the name of its file below `/kb/schema/`. */
export const ENDPOINT_SCHEMAS = {
  'index.json': SiteIndexSchema,
  'knowledge.json': KnowledgeFileSchema,
  'topic.json': TopicFileSchema,
  'subject.json': SubjectFileSchema,
  'keywords.json': KeywordsFileSchema,
  'nav.json': TopicNavSchema,
} as const;

/** The JSON Schemas of the endpoints, by file name below `/kb/schema/`. */
export function renderEndpointSchemas(): Record<keyof typeof ENDPOINT_SCHEMAS, Record<string, unknown>> {
  const out = {} as Record<keyof typeof ENDPOINT_SCHEMAS, Record<string, unknown>>;
  for (const [name, schema] of Object.entries(ENDPOINT_SCHEMAS) as [keyof typeof ENDPOINT_SCHEMAS, z.ZodType][]) {
    out[name] = z.toJSONSchema(schema, { target: 'draft-2020-12' });
  }
  return out;
}
