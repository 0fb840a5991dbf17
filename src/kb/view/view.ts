/**
 * The knowledge view: what an agent gets of a knowledge base — the `<knowledge>` section, the
 * `learn` tool and its answers, `find`, the catalog, and more subjects pre-loaded with `-k` and
 * profiles (content/agents/overview.md) — wherever the knowledge base lives. {@link KnowledgeView}
 * is the port every host answers through (the CLI, the agent server); {@link createKnowledgeView}
 * applies the rules of content/agents/ once, over a {@link KnowledgeReader}: the part that differs
 * between local files (local-view.ts) and a published site (src/remote/remote-view.ts).
 */
import { countTokensHere } from '../catalog/tokens.ts';
import type { SiteIndex } from '../publish/endpoint-schemas.ts';
import { resolvePatterns, type ResolvableSubject } from '../subjects/resolve.ts';
import {
  checkKnowledgeRequest,
  extendLearned,
  patternsByTopic,
  type ExtraKnowledge,
  type KnowledgeExtension,
  type KnowledgeOffer,
  type KnowledgeRequest,
} from '../knowledge/extension.ts';
import type { FindEntry, FindResult } from './find.ts';
import {
  type LearnArguments,
  type LearnToolDefinition,
  type Outcome,
  type TopicIdentity,
  listTopic,
  noMatchMessage,
  parseLearnArguments,
  renderListing,
  renderLoaded,
  resolveTopicId,
} from '../knowledge/learn.ts';
import { orderIndexSubjects, renderPromptIndex, type IndexTopic } from '../knowledge/prompt-index.ts';
import { type KnowledgeTopic, type PreloadedSubject, describeKnowledgeTopic, isListable, learnDefinitionOf, renderKnowledgeSection } from '../knowledge/section.ts';

/** What `find` answers: the subjects found, best first (none when nothing matched), or a message. */
export type Found = { ok: true; results: FindResult[] } | { ok: false; message: string };

/**
 * A knowledge base as agents see it. Every method may be called many times. Wrong arguments and
 * failed calls are outcomes; what cannot be answered at all (a site that cannot be read, for
 * `prompt`, `tool`, `tokens`, `index` and `extend`) rejects.
 */
export interface KnowledgeView {
  /** The `<knowledge>` section (content/agents/knowledge-section.md), or null when there is none. */
  prompt(): Promise<string | null>;
  /** The `learn` tool definition (content/agents/learn-tool.md), or null when no topic is listable. */
  tool(): Promise<LearnToolDefinition | null>;
  /** The section's o200k_base tokens (0 when there is none). */
  tokens(): Promise<number>;
  /**
   * Runs `learn` on raw tool arguments: they are checked with `parseLearnArguments`, so a wrong
   * type is an error outcome, never an exception.
   */
  learn(args: unknown): Promise<Outcome>;
  /** The listing of a topic, given by id or title: what `learn` answers with the topic alone. */
  listing(topic: string): Promise<Outcome>;
  /** Runs `find` (content/agents/overview.md) on raw tool arguments, checked with `parseFindArguments`. */
  find(args: unknown): Promise<Found>;
  /** The catalog, as `/kb/index.json` holds it. */
  index(): Promise<SiteIndex>;
  /**
   * This view with more subjects pre-loaded (content/agents/preloading.md): a profile's, then
   * `-k` values', appended after each topic's learned ones. The section, the tool and `learn`'s
   * "already learned" all follow. An unknown profile or a value naming an unknown or disabled
   * topic is a message; an empty request is this view.
   */
  extend(request: KnowledgeRequest): Promise<{ ok: true; view: KnowledgeView } | { ok: false; message: string }>;
}

/**
 * The answers of a knowledge view, without extension: what a host that keeps a view up to date
 * offers (the agent server over local files, whose `-k` and profile are fixed when it starts).
 */
export type KnowledgeAnswers = Omit<KnowledgeView, 'extend'>;

/** The section, the tool and the tokens as a knowledge base published them. */
export interface PublishedKnowledge {
  prompt: string | null;
  tool: LearnToolDefinition | null;
  tokens: number;
}

/** The subjects patterns may select in a topic, sorted by slug, and how to load them. */
export interface TopicSubjects {
  subjects: readonly ResolvableSubject[];
  bySlug: ReadonlyMap<string, ResolvableSubject>;
  /** Loads subjects of `subjects` by slug, with their content as `learn` returns it, in the order given. */
  load(slugs: readonly string[]): Promise<PreloadedSubject[]>;
}

/** One enabled topic as a {@link KnowledgeReader} reads it. Readers keep what is costly to read. */
export interface ReaderTopic extends TopicIdentity {
  introduction: string | undefined;
  description: string | undefined;
  /** Its visible (enabled, not hidden) subjects' slugs, in slug order. */
  visible(): Promise<readonly string[]>;
  /** The slugs it pre-loads before any `-k` value: all that `learn`'s listing and globs need. */
  learnedSet(): Promise<ReadonlySet<string>>;
  /** The same slugs in resolution order, which `-k` values extend. */
  learned(): Promise<readonly string[]>;
  /** The same subjects with their content, in resolution order. */
  preloaded(): Promise<PreloadedSubject[]>;
  /**
   * The subjects `patterns` may select: every visible one, and the hidden ones a pattern names
   * exactly (content/reference/patterns.md).
   */
  subjects(patterns: readonly string[]): Promise<TopicSubjects>;
  /**
   * The subject one pattern names exactly, loaded, when the reader finds it without reading the
   * whole topic (local files); undefined when there is none, and resolution goes on from
   * `subjects`. A reader without such a shortcut leaves it out.
   */
  exact?(pattern: string): Promise<PreloadedSubject | undefined>;
  /**
   * Its listed subjects' summaries by slug, for the section's index of subjects
   * (content/agents/knowledge-section.md); a reader without them leaves it out, and the index
   * lists slugs alone.
   */
  summaries?(): Promise<ReadonlyMap<string, string>>;
}

/**
 * How a knowledge view reads a knowledge base: what differs between local files and a published
 * site. Methods may reject; {@link failureOf} says which rejections are failed calls.
 */
export interface KnowledgeReader {
  /**
   * The enabled topics, in config order. The same array while the knowledge base stays as it is:
   * the view keeps what it computes from one array (the section, extended learned subjects).
   */
  topics(): Promise<readonly ReaderTopic[]>;
  /** The topics and profiles a request to pre-load more is checked against. */
  offer(): Promise<KnowledgeOffer>;
  /**
   * The section, tool and tokens as published (a site's knowledge file), used while no pattern
   * is added; undefined when the view computes them.
   */
  published(): Promise<PublishedKnowledge | undefined>;
  /**
   * The token budget of the section's index of subjects (`[kb.prompt] index_budget_tokens`), or
   * null when the section has no index (`[kb.prompt] index = false`, the default). A reader
   * without it has none.
   */
  promptIndex?(): Promise<number | null>;
  /** What `find` ranks: the listed subjects' entries in catalog order, and the topics for its `topic`. */
  findData(): Promise<{ entries: readonly FindEntry[]; topics: readonly TopicIdentity[] }>;
  /** The catalog, as `/kb/index.json` holds it. */
  index(): Promise<SiteIndex>;
  /**
   * This reader after a checked request: with `extension.profile` applied when it holds the
   * profile itself (undefined keeps the one applied before), and knowing every pattern added so
   * far, for what it computes itself (a local catalog's learned flags).
   */
  extended(extension: KnowledgeExtension): KnowledgeReader;
  /**
   * The message of a rejection that `learn`, `listing` and `find` answer as a failed call (a site
   * that cannot be read); undefined for any other, which they pass on.
   */
  failureOf?(error: unknown): string | undefined;
}

/** A topic's learned subjects with the added patterns' ones after them. */
interface ExtendedLearned {
  slugs: readonly string[];
  /** The slugs the added patterns brought, and where they load from. */
  added: readonly string[];
  subjects: TopicSubjects;
}

/** What the view computed from one state of the knowledge base (one topics array). */
interface Computed {
  extended: Map<string, Promise<ExtendedLearned>>;
  described?: Promise<KnowledgeTopic[]>;
  listable?: Promise<Pick<KnowledgeTopic, 'id' | 'title' | 'listable'>[]>;
}

/**
 * The knowledge view of `reader`, with `extra` patterns appended after each topic's learned ones
 * (as {@link KnowledgeView.extend} leaves them).
 */
export function createKnowledgeView(reader: KnowledgeReader, extra: readonly ExtraKnowledge[] = []): KnowledgeView {
  const added = patternsByTopic(extra);
  const computed = new WeakMap<readonly ReaderTopic[], Computed>();
  const computedFor = (topics: readonly ReaderTopic[]): Computed => {
    let entry = computed.get(topics);
    if (!entry) computed.set(topics, (entry = { extended: new Map() }));
    return entry;
  };
  /** `promise`, with `forget` called when it fails: a failure is not kept, the next call tries again. */
  const keep = <T>(promise: Promise<T>, forget: () => void): Promise<T> => {
    promise.catch(forget);
    return promise;
  };

  const extendedOf = (topics: readonly ReaderTopic[], topic: ReaderTopic, patterns: readonly string[]): Promise<ExtendedLearned> => {
    const cache = computedFor(topics).extended;
    let entry = cache.get(topic.id);
    if (!entry) {
      entry = keep(
        (async () => {
          const [learned, subjects] = await Promise.all([topic.learned(), topic.subjects(patterns)]);
          const extended = extendLearned(learned, subjects.subjects, subjects.bySlug, patterns);
          // extend() compiled every pattern, and resolution fails only on one that does not compile.
          if (!extended.ok) throw new Error(extended.message);
          return { slugs: extended.slugs, added: extended.added, subjects };
        })(),
        () => cache.delete(topic.id),
      );
      cache.set(topic.id, entry);
    }
    return entry;
  };

  const learnedSetOf = async (topics: readonly ReaderTopic[], topic: ReaderTopic): Promise<ReadonlySet<string>> => {
    const patterns = added.get(topic.id);
    return patterns ? new Set((await extendedOf(topics, topic, patterns)).slugs) : topic.learnedSet();
  };

  const preloadedOf = async (topics: readonly ReaderTopic[], topic: ReaderTopic): Promise<PreloadedSubject[]> => {
    const patterns = added.get(topic.id);
    const own = await topic.preloaded();
    if (!patterns) return own;
    const extended = await extendedOf(topics, topic, patterns);
    return [...own, ...(await extended.subjects.load(extended.added))];
  };

  /** What the section shows of every topic, in config order; a topic after another, as the files are read. */
  const described = async (): Promise<KnowledgeTopic[]> => {
    const topics = await reader.topics();
    const entry = computedFor(topics);
    entry.described ??= keep(
      (async () => {
        const out: KnowledgeTopic[] = [];
        for (const topic of topics) out.push(describeKnowledgeTopic(topic, await topic.visible(), await preloadedOf(topics, topic)));
        return out;
      })(),
      () => delete entry.described,
    );
    return entry.described;
  };

  /** Which topics are listable, without reading the pre-loaded subjects' content. */
  const listable = async (): Promise<Pick<KnowledgeTopic, 'id' | 'title' | 'listable'>[]> => {
    const topics = await reader.topics();
    const entry = computedFor(topics);
    entry.listable ??= keep(
      (async () => {
        const out: Pick<KnowledgeTopic, 'id' | 'title' | 'listable'>[] = [];
        for (const topic of topics) out.push({ id: topic.id, title: topic.title, listable: isListable(await topic.visible(), await learnedSetOf(topics, topic)) });
        return out;
      })(),
      () => delete entry.listable,
    );
    return entry.listable;
  };

  /** The section as published, when nothing was added to it. */
  const published = (): Promise<PublishedKnowledge | undefined> => (extra.length === 0 ? reader.published() : Promise.resolve(undefined));

  /** The section's index of subjects (prompt-index.ts), `''` when it has none: the subjects of listable topics that are not pre-loaded. */
  const indexText = async (): Promise<string> => {
    const budget = (await reader.promptIndex?.()) ?? null;
    if (budget === null) return '';
    const topics = await reader.topics();
    const indexTopics: IndexTopic[] = [];
    for (const topic of topics) {
      const learned = await learnedSetOf(topics, topic);
      const available = (await topic.visible()).filter((slug) => !learned.has(slug));
      if (available.length === 0) continue;
      const summaries = (await topic.summaries?.()) ?? new Map<string, string>();
      indexTopics.push({ id: topic.id, subjects: available.map((slug) => ({ slug, summary: summaries.get(slug) ?? '' })) });
    }
    return renderPromptIndex(orderIndexSubjects(indexTopics), budget, countTokensHere);
  };

  const prompt = async (): Promise<string | null> => {
    const known = await published();
    if (known) return known.prompt === '' ? null : known.prompt;
    const section = renderKnowledgeSection(await described(), await indexText());
    return section === '' ? null : section;
  };

  /** `work`'s outcome; a rejection the reader calls a failed call becomes one. */
  const answer = async <T>(work: () => Promise<T>): Promise<T | { ok: false; message: string }> => {
    try {
      return await work();
    } catch (error) {
      const message = reader.failureOf?.(error);
      if (message === undefined) throw error;
      return { ok: false, message };
    }
  };

  const runLearn = async (args: LearnArguments): Promise<Outcome> => {
    const topics = await reader.topics();
    const resolved = resolveTopicId(topics, args.topic);
    if (!resolved.ok) return resolved;
    const topic = topics.find((t) => t.id === resolved.id)!;
    if (args.patterns.length === 0) return { ok: true, text: renderListing(listTopic(topic, await topic.visible(), await learnedSetOf(topics, topic))) };
    if (args.patterns.length === 1 && topic.exact) {
      // One pattern naming a subject exactly needs no reading of the whole topic.
      const exact = await topic.exact(args.patterns[0]!);
      if (exact) return { ok: true, text: exact.content };
    }
    const subjects = await topic.subjects(args.patterns);
    const resolution = resolvePatterns(subjects.subjects, subjects.bySlug, args.patterns, { skipInGlobs: await learnedSetOf(topics, topic) });
    if (!resolution.ok) return { ok: false, message: resolution.message };
    if (resolution.slugs.length === 0) return { ok: false, message: noMatchMessage(topic.id, args.patterns) };
    const bare = args.patterns.length === 1 && resolution.matches[0]!.exact;
    return { ok: true, text: renderLoaded(await subjects.load(resolution.slugs), bare) };
  };

  const view: KnowledgeView = {
    prompt,
    async tool() {
      const known = await published();
      return known ? known.tool : learnDefinitionOf(await listable());
    },
    async tokens() {
      const known = await published();
      if (known) return known.tokens;
      const section = (await prompt()) ?? '';
      return countTokensHere(section);
    },
    async learn(args) {
      const parsed = parseLearnArguments(args);
      if (!parsed.ok) return parsed;
      return answer(() => runLearn(parsed.value));
    },
    listing(topic) {
      return answer(() => runLearn({ topic, patterns: [] }));
    },
    async find(args) {
      // Loaded on first use: the commands that never find start without it.
      const { parseFindArguments, runFind } = await import('./find.ts');
      const parsed = parseFindArguments(args);
      if (!parsed.ok) return parsed;
      return answer(async () => {
        const { entries, topics } = await reader.findData();
        return runFind(entries, topics, parsed.value);
      });
    },
    index: () => reader.index(),
    async extend(request) {
      // Nothing asked, nothing read: a site's catalog is not fetched for an empty request.
      if (request.profile === undefined && (request.knowledge ?? []).length === 0) return { ok: true, view };
      const checked = checkKnowledgeRequest(request, await reader.offer());
      if (!checked.ok) return checked;
      const { profile, extra: more } = checked.value;
      if (profile === undefined && more.length === 0) return { ok: true, view };
      const all = [...extra, ...more];
      return { ok: true, view: createKnowledgeView(reader.extended({ profile, extra: all }), all) };
    },
  };
  return view;
}
