/**
 * The remote adapter of the knowledge view (src/kb/view/view.ts): a published site, read
 * through its endpoints (content/agents/endpoints.md). The catalog gives the topics, their listed
 * subjects and which are learned; a knowledge file (the site's, or a profile's) the section as
 * published and the pre-loaded subjects in order; subjects are fetched when loaded, hidden ones
 * found at their addresses. `syllabus mcp --remote` and every command's `--remote` answer from here.
 */
import { createKnowledgeView, type KnowledgeReader, type KnowledgeView, type ReaderTopic } from '../kb/view/view.ts';
import type { FindEntry } from '../kb/view/find.ts';
import type { LearnToolDefinition, TopicIdentity } from '../kb/knowledge/learn.ts';
import type { KeywordsFile, SiteIndex, TopicEntry } from '../kb/publish/endpoint-schemas.ts';
import { RemoteError, timeoutFromEnv } from './fetch-json.ts';
import { joinFindData } from './remote-find.ts';
import { remoteSubjects } from './remote-patterns.ts';
import { openRemoteSite, siteRoot, type RemoteSite } from './remote-site.ts';

/** Options of {@link openRemoteView}. */
export interface RemoteViewOptions {
  /** The time limit of one request in milliseconds; default `SYLLABUS_REMOTE_TIMEOUT_MS` of `env`, else 10 s. */
  timeoutMs?: number | undefined;
  /** How long the catalog and the knowledge file are reused, in milliseconds (default 30 s). */
  cacheMs?: number | undefined;
  /** Where `SYLLABUS_REMOTE_TIMEOUT_MS` is read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The knowledge view of the site at `url` (its root; a trailing `/` is added). Throws a
 * RemoteError at once when `url` is not an http(s) URL or the timeout variable is malformed.
 * The catalog and the knowledge file are fetched at most once per `cacheMs`, so that an agent
 * server does not fetch the catalog at every call.
 */
export function openRemoteView(url: string, options: RemoteViewOptions = {}): KnowledgeView {
  const root = siteRoot(url);
  if (!root.ok) throw new RemoteError(root.message);
  let timeoutMs = options.timeoutMs;
  if (timeoutMs === undefined) {
    const fromEnv = timeoutFromEnv(options.env ?? process.env);
    if (!fromEnv.ok) throw new RemoteError(fromEnv.message);
    timeoutMs = fromEnv.value;
  }
  return createRemoteView(openRemoteSite(root.root, { timeoutMs, cacheMs: options.cacheMs }));
}

/**
 * The knowledge view of a published site. `learn`, `listing` and `find` answer a site that cannot
 * be read with an error outcome (the message says what happened and how to fix it); the other
 * methods reject with a RemoteError.
 */
export function createRemoteView(site: RemoteSite): KnowledgeView {
  return createKnowledgeView(remoteReader(site, undefined, new WeakMap()));
}

/** The entries of find, joined once per fetched catalog and keywords file (the site caches both). */
type JoinedFindData = WeakMap<SiteIndex, WeakMap<KeywordsFile, { entries: FindEntry[]; topics: TopicIdentity[] }>>;

function remoteReader(site: RemoteSite, profile: string | undefined, joined: JoinedFindData): KnowledgeReader {
  // The topics of each fetched catalog (the site keeps one for cacheMs): the view keeps what it computes from them.
  const topicsByIndex = new WeakMap<SiteIndex, ReaderTopic[]>();
  const knowledgeFile = () => site.knowledge(profile);

  const remoteTopic = (entry: TopicEntry): ReaderTopic => {
    const visible = entry.subjects.map((s) => s.slug);
    const preloaded = async () => (await knowledgeFile()).topics.find((t) => t.id === entry.id)?.preloaded ?? [];
    return {
      id: entry.id,
      title: entry.title ?? undefined,
      introduction: entry.introduction ?? undefined,
      description: entry.description ?? undefined,
      visible: async () => visible,
      // The catalog flags what the site's own config pre-loads; a profile's are in its knowledge file.
      learnedSet: async () => (profile === undefined ? new Set(entry.subjects.filter((s) => s.learned).map((s) => s.slug)) : new Set((await preloaded()).map((s) => s.slug))),
      learned: async () => (await preloaded()).map((s) => s.slug),
      preloaded: async () => (await preloaded()).map((s) => ({ slug: s.slug, content: s.content })),
      subjects: (patterns) => remoteSubjects(site, entry, patterns),
      summaries: async () => new Map(entry.subjects.map((s) => [s.slug, s.summary])),
    };
  };

  return {
    async topics() {
      const index = await site.index();
      let topics = topicsByIndex.get(index);
      if (!topics) topicsByIndex.set(index, (topics = index.topics.map(remoteTopic)));
      return topics;
    },
    async offer() {
      const index = await site.index();
      return {
        topics: index.topics.map((t) => ({ id: t.id, enable: true })),
        // A site publishes each profile's pre-loaded subjects, not its patterns.
        profiles: new Map(Object.keys(index.knowledge.profiles).map((name) => [name, null])),
        noProfiles: 'The site has no profiles.',
      };
    },
    promptIndex: async () => (await knowledgeFile()).index?.budget_tokens ?? null,
    async published() {
      const file = await knowledgeFile();
      // The file's tool is the definition the site's build rendered, the fixed parameters included.
      return { prompt: file.prompt, tool: file.tool as LearnToolDefinition | null, tokens: file.tokens };
    },
    async findData() {
      const [index, keywords] = await Promise.all([site.index(), site.keywords()]);
      let byKeywords = joined.get(index);
      if (!byKeywords) joined.set(index, (byKeywords = new WeakMap()));
      let data = byKeywords.get(keywords);
      if (!data) byKeywords.set(keywords, (data = joinFindData(site, index, keywords)));
      return data;
    },
    index: () => site.index(),
    // The published catalog stays as built: only a profile the site holds changes what is read.
    extended: (extension) => remoteReader(site, extension.profile ?? profile, joined),
    failureOf: (error) => (error instanceof RemoteError ? error.message : undefined),
  };
}
