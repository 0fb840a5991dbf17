/**
 * A published site as a {@link KnowledgeSource}: what `syllabus mcp --remote URL` serves. The
 * catalog and the knowledge file are fetched at most once per `cacheMs` (30 s by default), so
 * that an agent server does not fetch the catalog on every call.
 */
import type { KnowledgeSource } from '../agent/knowledge-source.ts';
import { parseFindArguments, renderFindResults, runFind } from '../kb/knowledge/find.ts';
import { renderKnowledgeSection } from '../kb/knowledge/section.ts';
import { type Outcome, parseLearnArguments, renderLearnDefinition } from '../kb/knowledge/learn.ts';
import type { KeywordsFile, SiteIndex } from '../kb/publish/endpoint-schemas.ts';
import { RemoteError, timeoutFromEnv } from './fetch-json.ts';
import { joinFindData, type RemoteFindData } from './remote-find.ts';
import { extendKnowledge, learnedInKnowledge, remoteKnowledge, type ExtraKnowledge, type RemoteKnowledge } from './remote-knowledge.ts';
import { learnedInIndex, runRemoteLearn, type LearnedSets } from './remote-learn.ts';
import { openRemoteSite, siteRoot } from './remote-site.ts';

/** Options of {@link createRemoteSource}. */
export interface RemoteSourceOptions {
  /** The time limit of one request in milliseconds; default `SYLLABUS_REMOTE_TIMEOUT_MS` of `env`, else 10 s. */
  timeoutMs?: number | undefined;
  /** How long the catalog and the knowledge file are reused, in milliseconds (default 30 s). */
  cacheMs?: number | undefined;
  /** Where `SYLLABUS_REMOTE_TIMEOUT_MS` is read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** The profile whose knowledge file to serve (default: the site's own `/kb/knowledge.json`). */
  profile?: string | undefined;
  /** `-k` values, already checked against the catalog (`remoteKnowledgeFlags`): more pre-loaded subjects. */
  extra?: readonly ExtraKnowledge[] | undefined;
}

/**
 * The knowledge source of the site at `url` (its root; a trailing `/` is added). Throws a
 * RemoteError at once when `url` is not an http(s) URL or the timeout variable is malformed.
 *
 * `learn` and `find` answer a site that cannot be read with an error outcome (the message says
 * what happened and how to fix it); `tool`, `prompt` and `index` reject with a RemoteError.
 */
export function createRemoteSource(url: string, options: RemoteSourceOptions = {}): KnowledgeSource {
  const root = siteRoot(url);
  if (!root.ok) throw new RemoteError(root.message);
  let timeoutMs = options.timeoutMs;
  if (timeoutMs === undefined) {
    const fromEnv = timeoutFromEnv(options.env ?? process.env);
    if (!fromEnv.ok) throw new RemoteError(fromEnv.message);
    timeoutMs = fromEnv.value;
  }
  const site = openRemoteSite(root.root, { timeoutMs, cacheMs: options.cacheMs });
  const { profile, extra = [] } = options;
  const extended = profile !== undefined || extra.length > 0;
  // The section with a profile or -k values, computed once per fetched catalog (the site caches it).
  const computed = new WeakMap<SiteIndex, Promise<{ knowledge: RemoteKnowledge; learned: LearnedSets }>>();
  const knowledgeFor = (index: SiteIndex): Promise<{ knowledge: RemoteKnowledge; learned: LearnedSets }> => {
    let entry = computed.get(index);
    if (!entry) {
      entry = (async () => {
        const file = await site.knowledge(profile);
        const topics = await extendKnowledge(site, index, file, extra);
        const knowledge: RemoteKnowledge =
          extra.length === 0
            ? await remoteKnowledge(site, file)
            : { prompt: renderKnowledgeSection(topics), tool: renderLearnDefinition(topics.filter((t) => t.listable)), tokens: undefined };
        return { knowledge, learned: learnedInKnowledge(topics) };
      })();
      // A failure is not kept: the next call tries again.
      entry.catch(() => computed.delete(index));
      computed.set(index, entry);
    }
    return entry;
  };
  // The entries of find, joined once per fetched catalog and keywords file (the site caches both).
  const joined = new WeakMap<SiteIndex, WeakMap<KeywordsFile, RemoteFindData>>();
  const findData = async (): Promise<RemoteFindData> => {
    const [index, keywords] = await Promise.all([site.index(), site.keywords()]);
    let byKeywords = joined.get(index);
    if (!byKeywords) joined.set(index, (byKeywords = new WeakMap()));
    let data = byKeywords.get(keywords);
    if (!data) byKeywords.set(keywords, (data = joinFindData(site, index, keywords)));
    return data;
  };
  const knowledge = async (): Promise<RemoteKnowledge> => (extended ? (await knowledgeFor(await site.index())).knowledge : remoteKnowledge(site, await site.knowledge()));
  return {
    tool: async () => (await knowledge()).tool,
    learn: async (args): Promise<Outcome> => {
      const parsed = parseLearnArguments(args);
      if (!parsed.ok) return parsed;
      try {
        const index = await site.index();
        const learned = extended ? (await knowledgeFor(index)).learned : learnedInIndex(index);
        return await runRemoteLearn(site, index, learned, parsed.value);
      } catch (error) {
        if (error instanceof RemoteError) return { ok: false, message: error.message };
        throw error;
      }
    },
    find: async (args): Promise<Outcome> => {
      const parsed = parseFindArguments(args);
      if (!parsed.ok) return parsed;
      try {
        const { entries, topics } = await findData();
        const found = runFind(entries, topics, parsed.value);
        return found.ok ? { ok: true, text: renderFindResults(found.results) } : found;
      } catch (error) {
        if (error instanceof RemoteError) return { ok: false, message: error.message };
        throw error;
      }
    },
    prompt: async () => {
      const { prompt } = await knowledge();
      return prompt === '' ? null : prompt;
    },
    index: () => site.index(),
    close: () => site.clear(),
  };
}

