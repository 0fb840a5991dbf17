/**
 * A published site as a {@link KnowledgeSource}: what `syllabus mcp --remote URL` serves. The
 * catalog and the knowledge file are fetched at most once per `cacheMs` (30 s by default), so
 * that an agent server does not fetch the catalog on every call.
 */
import type { KnowledgeSource } from '../agent/knowledge-source.ts';
import { parseLearnArguments, type LearnToolDefinition } from '../kb/index.ts';
import { RemoteError, timeoutFromEnv } from './fetch-json.ts';
import { learnedInIndex, runRemoteLearn } from './remote-learn.ts';
import { openRemoteSite, siteRoot } from './remote-site.ts';

/** Options of {@link createRemoteSource}. */
export interface RemoteSourceOptions {
  /** The time limit of one request in milliseconds; default `SYLLABUS_REMOTE_TIMEOUT_MS` of `env`, else 10 s. */
  timeoutMs?: number | undefined;
  /** How long the catalog and the knowledge file are reused, in milliseconds (default 30 s). */
  cacheMs?: number | undefined;
  /** Where `SYLLABUS_REMOTE_TIMEOUT_MS` is read; default `process.env`. */
  env?: Readonly<Record<string, string | undefined>> | undefined;
}

/**
 * The knowledge source of the site at `url` (its root; a trailing `/` is added). Throws a
 * RemoteError at once when `url` is not an http(s) URL or the timeout variable is malformed.
 *
 * `learn` answers a site that cannot be read with an error outcome (the message says what
 * happened and how to fix it); `tool`, `prompt` and `index` reject with a RemoteError.
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
  return {
    tool: async () => (await site.knowledge()).tool as LearnToolDefinition | null,
    learn: async (args) => {
      const parsed = parseLearnArguments(args);
      if (!parsed.ok) return parsed;
      try {
        const index = await site.index();
        return await runRemoteLearn(site, index, learnedInIndex(index), parsed.value);
      } catch (error) {
        if (error instanceof RemoteError) return { ok: false, message: error.message };
        throw error;
      }
    },
    prompt: async () => (await site.knowledge()).prompt,
    index: () => site.index(),
    close: () => site.clear(),
  };
}
