/**
 * The agent evaluation's cache on disk (content/reference/evaluations-agent.md, "The cache"): each
 * question's result by its key (src/kb/evals/agent-cache-key.ts), with the digest of every tool
 * answer the model read. A result is reused when its key is the same and every tool call, made
 * again on the knowledge base as it is now, answers the same: that covers the subjects the model
 * loaded that no listing shows (hidden ones, named by exact slug). No key or header is kept.
 */
import { AGENT_CACHE_VERSION } from '../kb/evals/agent-cache-key.ts';
import type { AgentQuestionResult } from '../kb/evals/agent-results.ts';
import { readCacheEntries, writeCacheEntries } from '../kb/files/cache-file.ts';

/** A question's result as kept: without its id and `cached`, which belong to the run that reads it. */
export type StoredResult = Omit<AgentQuestionResult, 'id' | 'cached'>;

/** One cached result, and the digest of each tool call's answer, in the order of `result.toolCalls`. */
export interface AgentCacheEntry {
  result: StoredResult;
  answers: string[];
}

/** The cached results of the file `file` by key; an absent, damaged or other-version file gives none. */
export function loadAgentCache(file: string): Map<string, AgentCacheEntry> {
  return readCacheEntries(file, AGENT_CACHE_VERSION, isEntry);
}

/** Writes `entries` as the cache of `file`, replacing it in one rename. */
export function saveAgentCache(file: string, entries: ReadonlyMap<string, AgentCacheEntry>): void {
  writeCacheEntries(file, AGENT_CACHE_VERSION, entries);
}

function isEntry(value: unknown): value is AgentCacheEntry {
  const entry = value as Partial<AgentCacheEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.result === 'object' &&
    entry.result !== null &&
    Array.isArray(entry.result.toolCalls) &&
    Array.isArray(entry.answers) &&
    entry.answers.length === entry.result.toolCalls.length
  );
}
