/**
 * The catalog: one model of the knowledge base that every surface reads (site pages, endpoints,
 * CLI, agent server). Built once per build by reading every subject.
 */
import { addressOf } from './address.ts';
import type { Diagnostic } from './diagnostics.ts';
import { languageOf, type SkipReason, type SubjectFormat } from './format.ts';
import type { KnowledgeBase, Topic } from './knowledge-base.ts';
import { describeKnowledgeTopic, renderKnowledgeSection } from './knowledge-section.ts';
import { buildLearnDefinition, listTopic, renderListing, type LearnToolDefinition } from './learn-tool.ts';
import { loadFrontMatterParser, readFrontMatter, titleOf } from './title.ts';
import { countTokens, loadTokenizer } from './tokens.ts';

/** One subject as every surface sees it. */
export interface CatalogSubject {
  topic: string;
  slug: string;
  /** The slug encoded for URLs and file names (SPEC 6). */
  address: string;
  /** Path relative to the topic folder, as on disk. */
  path: string;
  /** Absolute path of the file (never published). */
  file: string;
  hidden: boolean;
  learned: boolean;
  format: SubjectFormat;
  /** Fence language of a `code` subject, else null. */
  language: string | null;
  skipped: SkipReason | null;
  title: string;
  /** Front matter of a markdown subject (empty otherwise). */
  frontMatter: Record<string, unknown>;
  /** Size of the file as stored. */
  bytes: number;
  /** sha256 (hex) of the section-4 content, as UTF-8. */
  sha256: string;
  /** o200k_base tokens of the section-4 content. */
  tokens: number;
  /** The section-4 content. */
  content: string;
}

/** One enabled topic in the catalog. */
export interface CatalogTopic {
  id: string;
  title: string | undefined;
  introduction: string | undefined;
  description: string | undefined;
  /** Absolute folder of the topic's subjects (never published). */
  dir: string;
  /** Every enabled subject, hidden ones included (flagged), in slug order. */
  subjects: CatalogSubject[];
  /** Tokens of the listed (visible) subjects. */
  tokens: number;
  /** The `learn` listing of the topic. */
  listing: string;
}

/** The whole catalog. */
export interface Catalog {
  topics: CatalogTopic[];
  knowledge: { prompt: string | null; tool: LearnToolDefinition | null; tokens: number };
}

/** Builds the catalog of a knowledge base, reading every subject; reports what reading found. */
export async function buildCatalog(kb: KnowledgeBase): Promise<{ catalog: Catalog; diagnostics: Diagnostic[] }> {
  const [{ createHash }] = await Promise.all([import('node:crypto'), loadTokenizer(), loadFrontMatterParser()]);
  const diagnostics: Diagnostic[] = [];
  const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
  const topics = kb.topics().map((topic) => catalogTopic(kb, topic, sha256, diagnostics));
  // The prompt's pre-loaded subjects come from the catalog: every file is read once.
  const prompt = renderKnowledgeSection(
    kb.topics().map((topic, index) => {
      const bySlug = new Map(topics[index]!.subjects.map((s) => [s.slug, s.content]));
      return describeKnowledgeTopic(kb, topic, (slug) => bySlug.get(slug)!);
    }),
  );
  const knowledgeTokens = countTokens(prompt);
  const budget = kb.config.kb.knowledge_budget_tokens;
  if (knowledgeTokens > budget) {
    diagnostics.push({
      kind: 'warning',
      code: 'knowledge-tokens',
      message: `The <knowledge> section has ${knowledgeTokens} tokens, over the budget of ${budget} (kb.knowledge_budget_tokens). Pre-load fewer subjects (learned), or raise the budget.`,
      file: kb.config.files[0]!,
    });
  }
  return {
    catalog: {
      topics,
      knowledge: { prompt: prompt === '' ? null : prompt, tool: buildLearnDefinition(kb), tokens: knowledgeTokens },
    },
    diagnostics,
  };
}

function catalogTopic(kb: KnowledgeBase, topic: Topic, sha256: (text: string) => string, diagnostics: Diagnostic[]): CatalogTopic {
  const warnTokens = kb.config.kb.warn_subject_tokens;
  // Resolving learned patterns reports the ones that match nothing, even in a topic with no subjects.
  void topic.learned;
  const subjects = topic.subjects.map((subject): CatalogSubject => {
    const read = kb.read(subject);
    const warn = (code: Diagnostic['code'], message: string, line?: number): void => {
      diagnostics.push({ kind: 'warning', code, message, file: subject.file, ...(line ? { line } : {}) });
    };
    if (read.skipped === 'binary') warn('binary', `Binary file: its content is skipped (subject "${subject.slug}" shows a message). Remove it, or keep it only as a download.`);
    if (read.skipped === 'too-large') warn('oversized', `${read.bytes} bytes, over kb.max_subject_bytes (${kb.config.kb.max_subject_bytes}): its content is skipped. Split the file or raise the limit.`);
    if (read.skipped === 'unreadable') warn('unreadable', 'Cannot read the file: its content is skipped. Fix its permissions.');
    if (read.invalidUtf8) warn('non-utf8', 'Not valid UTF-8: invalid bytes are shown as U+FFFD. Re-save the file as UTF-8.');
    const markdown = subject.format === 'markdown' && read.skipped === null;
    const frontMatter = markdown ? readFrontMatter(read.text) : { data: {}, lines: 0, error: undefined };
    if (frontMatter.error) warn('front-matter', `Front matter is not valid YAML (${frontMatter.error.message}); it is ignored. Fix the YAML between the --- lines.`, frontMatter.error.line);
    const tokens = countTokens(read.content);
    if (tokens > warnTokens) warn('subject-tokens', `${tokens} tokens, over kb.warn_subject_tokens (${warnTokens}). Split the subject so agents can load what they need.`);
    return {
      topic: topic.id,
      slug: subject.slug,
      address: addressOf(subject.slug),
      path: subject.path,
      file: subject.file,
      hidden: subject.hidden,
      learned: topic.learnedSet.has(subject.slug),
      format: subject.format,
      language: languageOf(subject.extension),
      skipped: read.skipped,
      title: titleOf(subject.slug, markdown, read.text, frontMatter),
      frontMatter: frontMatter.data,
      bytes: read.bytes,
      sha256: sha256(read.content),
      tokens,
      content: read.content,
    };
  });
  return {
    id: topic.id,
    title: topic.title,
    introduction: topic.introduction,
    description: topic.description,
    dir: topic.config.dir,
    subjects,
    tokens: subjects.filter((s) => !s.hidden).reduce((sum, s) => sum + s.tokens, 0),
    listing: renderListing(listTopic(topic)),
  };
}
