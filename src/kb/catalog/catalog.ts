/**
 * The catalog: one model of the knowledge base that every surface reads (site pages, endpoints,
 * CLI, agent server). Built once per build by reading every subject.
 */
import { addressOf } from '../subjects/address.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { IMAGE_EXTENSIONS, isMdxPath, languageOf, type SkipReason, type SubjectFormat } from '../subjects/format.ts';
import type { KnowledgeBase, Topic } from '../subjects/knowledge-base.ts';
import { extendLearned, patternsByTopic, splitKnowledgeFlag, type ExtraKnowledge } from '../knowledge/extension.ts';
import { describeKnowledgeTopic, renderKnowledge } from '../knowledge/section.ts';
import { orderIndexSubjects, renderPromptIndex, type IndexTopic } from '../knowledge/prompt-index.ts';
import type { PromptConfig } from '../config/schema.ts';
import { listTopic, renderListing, type LearnToolDefinition } from '../knowledge/learn.ts';
import { learningSummaryText } from '../learnings/subjects.ts';
import { markdownHeadings } from '../markdown/headings.ts';
import { subjectKeywords } from '../summaries/keywords.ts';
import { loadMarkdownParser } from '../markdown/parser.ts';
import { summarize } from '../summaries/extractive.ts';
import { loadFrontMatterParser, readFrontMatter, titleOf } from './title.ts';
import { countTokensHere, type TokenCounter } from './tokens.ts';

/** One subject as every surface sees it. */
export interface CatalogSubject {
  topic: string;
  slug: string;
  /** The slug encoded for URLs and file names (content/reference/site-addresses.md). */
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
  /** One paragraph for listings (content/agents/endpoints.md, "Summaries"); `''` when the subject has no text to summarise. */
  summary: string;
  /** Up to 20 words of the title, summary and headings that `find` ranks by (content/reference/cli/find.md). */
  keywords: string[];
  /**
   * The texts of a markdown subject's headings, in order (none for other formats); for a learning,
   * its title then its stored keywords. Keywords are made again from them when the summary changes.
   */
  headings: string[];
  /** How much `find` trusts the subject, 0 to 1 (content/reference/cli/find.md): 1 for a plain subject. */
  confidence: number;
  /** For a learning (content/reference/cli/learnings.md): its id and the line of its entry in the store `file`; null for a file. */
  learning: { id: string; line: number } | null;
  /**
   * For a URL source (content/reference/subject-formats.md): its URL, the line of `links.txt`
   * (the `file`) that lists it, and when its content was fetched (ISO 8601); null for a file or a
   * learning.
   */
  source: { url: string; line: number; fetchedAt: string } | null;
  /** Front matter of a markdown subject (empty otherwise). */
  frontMatter: Record<string, unknown>;
  /** Size of the file as stored. */
  bytes: number;
  /** sha256 (hex) of `content`, as UTF-8. */
  sha256: string;
  /** o200k_base tokens of `content`. */
  tokens: number;
  /** The content as `learn` returns it (content/reference/subject-formats.md). */
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

/** A `<knowledge>` section with the `learn` tool that agrees with it. */
export interface CatalogKnowledge {
  /** The section (content/agents/knowledge-section.md), or null when there is none. */
  prompt: string | null;
  tool: LearnToolDefinition | null;
  /** Tokens of the section. */
  tokens: number;
  /** Per enabled topic, in config order, the subjects the section pre-loads, in order. */
  topics: { id: string; preloaded: { slug: string; content: string }[] }[];
  /** The token budget of the section's index of subjects (`[kb.prompt]`), or null when it has none. */
  indexBudget: number | null;
}

/** The whole catalog. */
export interface Catalog {
  topics: CatalogTopic[];
  /** The section of the config as written. */
  knowledge: CatalogKnowledge;
  /** The section of each `[profile.<name>]`, in config order. */
  profiles: Map<string, CatalogKnowledge>;
}

/**
 * What the catalog computed for a content before, kept by a host between runs (the build's cache):
 * a subject whose content did not change is not tokenized or summarised again, nor a `<knowledge>`
 * section that did not change counted again. Keys are {@link memoKey}s and {@link sectionMemoKey}s;
 * the host drops the whole memo when {@link CATALOG_MEMO_VERSION} changes.
 */
export interface CatalogMemo {
  get(key: string): CatalogMemoEntry | undefined;
  set(key: string, value: CatalogMemoEntry): void;
}

/** What a {@link CatalogMemo} keeps of one content (a section's text: its tokens only, see {@link sectionMemoKey}). */
export interface CatalogMemoEntry {
  tokens: number;
  /** The extractive summary. */
  summary: string;
  /** The texts of the headings of a markdown content (none for other formats). */
  headings: string[];
}

/** The version of what a memo holds: the tokenizer, the summary and the heading rules. Change it with any. */
export const CATALOG_MEMO_VERSION = 'o200k_base:gpt-tokenizer-4.0.0;summary:3;headings:1';

/**
 * The memo key of a subject: its format (`mdx` for an MDX subject, whose summary reads it as MDX)
 * and the sha256 of its content, and for a file whose name its summary depends on
 * (`package.json`), that name.
 */
export function memoKey(format: SubjectFormat | 'mdx', sha256: string, fileName?: string): string {
  return fileName === 'package.json' ? `${format}:${fileName}:${sha256}` : `${format}:${sha256}`;
}

/**
 * The memo key of a `<knowledge>` section's text, by its sha256: its entry keeps the tokens only
 * (an empty summary, no headings), so that a build whose section did not change counts nothing.
 */
export function sectionMemoKey(sha256: string): string {
  return `section:${sha256}`;
}

/** Options of {@link buildCatalog}. */
export interface CatalogOptions {
  /** Earlier results by content; see {@link CatalogMemo}. */
  memo?: CatalogMemo | undefined;
  /**
   * Learned patterns a profile or `-k` values add (content/agents/preloading.md): the section, the
   * learned flags and the listings show what they pre-load. Default: none.
   */
  extra?: readonly ExtraKnowledge[] | undefined;
  /**
   * Counts tokens: a host may count them in another thread while this one reads and summarises
   * (the build does). Default: {@link countTokensHere}.
   */
  countTokens?: TokenCounter | undefined;
}

/** Builds the catalog of a knowledge base, reading every subject; reports what reading found. */
export async function buildCatalog(kb: KnowledgeBase, options: CatalogOptions = {}): Promise<{ catalog: Catalog; diagnostics: Diagnostic[] }> {
  const [{ hash }] = await Promise.all([import('node:crypto'), loadFrontMatterParser(), loadMarkdownParser()]);
  const diagnostics: Diagnostic[] = [];
  const counting: Counting = { count: options.countTokens ?? countTokensHere, memo: options.memo, computing: new Map(), counted: [] };
  const sha256 = (text: string): string => hash('sha256', text);
  const kbTopics = kb.topics();
  const extra = options.extra ?? [];
  const added = patternsByTopic(extra);
  // Every subject is read before any token count is awaited, so that a counter in another thread counts while this one reads.
  const drafts = kbTopics.map((topic) => draftCatalogTopic(kb, topic, added.get(topic.id), sha256, counting));
  await Promise.all(counting.counted);
  const topics = drafts.map((finish) => finish(diagnostics));
  const countSection = async (text: string): Promise<number> => {
    if (text === '') return 0;
    const key = sectionMemoKey(sha256(text));
    const known = options.memo?.get(key);
    if (known) return known.tokens;
    const tokens = await counting.count(text);
    options.memo?.set(key, { tokens, summary: '', headings: [] });
    return tokens;
  };
  const knowledgeOf = async (more: ReadonlyMap<string, readonly string[]>, profile: string | undefined): Promise<CatalogKnowledge> => {
    const knowledge = await buildCatalogKnowledge(kbTopics, topics, more, kb.config.kb.prompt, counting.count, countSection);
    const budget = kb.config.kb.knowledge_budget_tokens;
    if (knowledge.tokens > budget) {
      const which = profile === undefined ? 'The <knowledge> section' : `The <knowledge> section of profile.${profile}`;
      diagnostics.push({
        kind: 'warning',
        code: 'knowledge-tokens',
        message: `${which} has ${knowledge.tokens} tokens, over the budget of ${budget} (kb.knowledge_budget_tokens). Pre-load fewer subjects (learned), or raise the budget.`,
        file: kb.config.files[0]!,
      });
    }
    return knowledge;
  };
  const profiles = new Map<string, CatalogKnowledge>();
  for (const [name, entries] of kb.config.profiles) {
    profiles.set(name, await knowledgeOf(patternsByTopic([...extra, ...profilePatterns(kb, name, entries, diagnostics)]), name));
  }
  return { catalog: { topics, knowledge: await knowledgeOf(added, undefined), profiles }, diagnostics };
}

/** How a catalog being built counts tokens: contents not in the memo are counted once each, while the subjects are read. */
interface Counting {
  count: TokenCounter;
  memo: CatalogMemo | undefined;
  /** The entries being computed, by memo key: a content met twice is counted once. */
  computing: Map<string, CatalogMemoEntry>;
  /** Each count asked for; its entry is complete, and in the memo, when it settles. */
  counted: Promise<void>[];
}

/**
 * The learned patterns a profile adds, in order. Entries for a disabled topic are left out with a
 * warning: the topic does not exist for any output.
 */
function profilePatterns(kb: KnowledgeBase, name: string, entries: readonly string[], diagnostics: Diagnostic[]): ExtraKnowledge[] {
  const extra: ExtraKnowledge[] = [];
  entries.forEach((entry, index) => {
    const { topic, pattern } = splitKnowledgeFlag(entry);
    if (!kb.topic(topic)) {
      diagnostics.push({
        kind: 'warning',
        code: 'profile-topic-disabled',
        message: `profile.${name}.knowledge[${index}]: ${JSON.stringify(entry)} names the disabled topic ${JSON.stringify(topic)}; the profile leaves it out. Remove the entry, or enable the topic.`,
        file: kb.config.files[0]!,
      });
      return;
    }
    extra.push({ topic, pattern });
  });
  return extra;
}

/**
 * A topic's learned subjects with `more` patterns appended after its own. Profile and `-k` patterns
 * are compiled when the config loads or the request is checked; an invalid one leaves the topic as
 * written.
 */
function learnedWith(topic: Topic, more: readonly string[] | undefined): readonly string[] {
  if (!more || more.length === 0) return topic.learned;
  const extended = extendLearned(topic.learned, topic.subjects, topic.bySlug, more);
  return extended.ok ? extended.slugs : topic.learned;
}

/**
 * The `<knowledge>` section with `more` learned patterns appended to each topic's own (a
 * profile's, or none), from subjects already read: no file is read again. `countSection` counts
 * the section's text (through the memo), `count` the lines of its index.
 */
async function buildCatalogKnowledge(
  kbTopics: readonly Topic[],
  topics: readonly CatalogTopic[],
  more: ReadonlyMap<string, readonly string[]>,
  settings: PromptConfig,
  count: TokenCounter,
  countSection: TokenCounter,
): Promise<CatalogKnowledge> {
  const indexTopics: IndexTopic[] = [];
  const described = kbTopics.map((topic, index) => {
    const subjects = topics[index]!.subjects;
    const content = new Map(subjects.map((s) => [s.slug, s.content]));
    const preloaded = learnedWith(topic, more.get(topic.id)).map((slug) => ({ slug, content: content.get(slug)! }));
    const learned = new Set(preloaded.map((s) => s.slug));
    indexTopics.push({ id: topic.id, subjects: subjects.filter((s) => !s.hidden && !learned.has(s.slug)).map((s) => ({ slug: s.slug, summary: s.summary })) });
    return describeKnowledgeTopic(topic, visibleSlugs(subjects), preloaded);
  });
  const index = settings.index ? await renderPromptIndex(orderIndexSubjects(indexTopics), settings.index_budget_tokens, count) : '';
  const { prompt, tool } = renderKnowledge(described, index);
  return {
    prompt: prompt === '' ? null : prompt,
    tool,
    tokens: await countSection(prompt),
    topics: described.map((t) => ({ id: t.id, preloaded: t.preloaded })),
    indexBudget: settings.index ? settings.index_budget_tokens : null,
  };
}

/** The slugs of the visible subjects, in slug order. */
function visibleSlugs(subjects: readonly CatalogSubject[]): string[] {
  return subjects.filter((s) => !s.hidden).map((s) => s.slug);
}

/**
 * A topic's subjects read, summarised and their token counts asked for; the function returned
 * makes the topic once the counts are in, and reports what reading found, in subject order.
 */
function draftCatalogTopic(
  kb: KnowledgeBase,
  topic: Topic,
  more: readonly string[] | undefined,
  sha256: (text: string) => string,
  counting: Counting,
): (diagnostics: Diagnostic[]) => CatalogTopic {
  const warnTokens = kb.config.kb.warn_subject_tokens;
  // Resolving learned patterns reports the ones that match nothing, even in a topic with no subjects.
  const learned = new Set(learnedWith(topic, more));
  const drafts = topic.subjects.map((subject): ((diagnostics: Diagnostic[]) => CatalogSubject) => {
    const read = kb.read(subject);
    const warnings: Diagnostic[] = [];
    const warn = (code: Diagnostic['code'], message: string, line?: number): void => {
      warnings.push({ kind: 'warning', code, message, file: subject.file, ...(line ? { line } : {}) });
    };
    if (read.skipped === 'binary') {
      warn(
        'binary',
        IMAGE_EXTENSIONS.has(subject.extension)
          ? `Image: the site shows it on its page; agents get a one-line message instead (subject "${subject.slug}"). Describe what matters in a text subject too.`
          : `Binary file: agents get a one-line message instead of its content (subject "${subject.slug}"), and the site offers it as a download. Replace it with text if agents need what it says.`,
      );
    }
    if (read.skipped === 'too-large')
      warn('oversized', `${read.bytes} bytes, over kb.max_subject_bytes (${kb.config.kb.max_subject_bytes}): its content is skipped. Split the file or raise the limit.`);
    if (read.skipped === 'unreadable') warn('unreadable', 'Cannot read the file: its content is skipped. Fix its permissions.');
    if (read.invalidUtf8) warn('non-utf8', 'Not valid UTF-8: invalid bytes are shown as U+FFFD. Re-save the file as UTF-8.');
    const markdown = subject.format === 'markdown' && read.skipped === null;
    const frontMatter = markdown ? readFrontMatter(read.text) : { data: {}, lines: 0, error: undefined };
    if (frontMatter.error)
      warn('front-matter', `Front matter is not valid YAML (${frontMatter.error.message}); it is ignored. Fix the YAML between the --- lines.`, frontMatter.error.line);
    const contentSha = sha256(read.content);
    const fileName = subject.path.slice(subject.path.lastIndexOf('/') + 1);
    const mdx = markdown && isMdxPath(subject.path);
    const key = memoKey(mdx ? 'mdx' : subject.format, contentSha, fileName);
    let entry = counting.memo?.get(key) ?? counting.computing.get(key);
    if (!entry) {
      const computed: CatalogMemoEntry = {
        tokens: 0,
        summary:
          read.skipped === null
            ? summarize({
                format: subject.format,
                text: subject.learning ? learningSummaryText(subject.learning.entry) : read.text,
                frontMatterLines: frontMatter.lines,
                description: frontMatter.data['description'],
                fileName,
                mdx,
              })
            : '',
        headings: markdown ? markdownHeadings(read.text, frontMatter.lines) : [],
      };
      counting.computing.set(key, computed);
      const counted = counting.count(read.content).then((tokens) => {
        computed.tokens = tokens;
        counting.memo?.set(key, computed);
      });
      // Awaited together once every subject is read; if reading fails first, a refused count is not a second failure.
      counted.catch(() => {});
      counting.counted.push(counted);
      entry = computed;
    }
    // A learning's stored keywords count where headings do (content/reference/cli/find.md).
    const headings = subject.learning ? [...entry.headings, ...subject.learning.entry.keywords] : entry.headings;
    const title = titleOf(subject.slug, markdown, read.text, frontMatter);
    const { summary } = entry;
    const made: CatalogSubject = {
      topic: topic.id,
      slug: subject.slug,
      address: addressOf(subject.slug),
      path: subject.path,
      file: subject.file,
      hidden: subject.hidden,
      learned: learned.has(subject.slug),
      format: subject.format,
      language: languageOf(subject.extension),
      skipped: read.skipped,
      title,
      summary,
      keywords: subjectKeywords({ title, summary, headings }),
      headings,
      confidence: subject.learning ? subject.learning.entry.confidence : 1,
      learning: subject.learning ? { id: subject.learning.entry.id, line: subject.learning.line } : null,
      source: subject.source ? { url: subject.source.url, line: subject.source.line, fetchedAt: subject.source.document.fetchedAt } : null,
      frontMatter: frontMatter.data,
      bytes: read.bytes,
      sha256: contentSha,
      tokens: 0,
      content: read.content,
    };
    const settled = entry;
    return (diagnostics) => {
      const { tokens } = settled;
      if (tokens > warnTokens) warn('subject-tokens', `${tokens} tokens, over kb.warn_subject_tokens (${warnTokens}). Split the subject so agents can load what they need.`);
      diagnostics.push(...warnings);
      made.tokens = tokens;
      return made;
    };
  });
  return (diagnostics) => {
    const subjects = drafts.map((finish) => finish(diagnostics));
    return {
      id: topic.id,
      title: topic.title,
      introduction: topic.introduction,
      description: topic.description,
      dir: topic.config.dir,
      subjects,
      tokens: subjects.filter((s) => !s.hidden).reduce((sum, s) => sum + s.tokens, 0),
      listing: renderListing(listTopic(topic, visibleSlugs(subjects), learned)),
    };
  };
}
