/**
 * The cache key of a question's result in the agent evaluation (content/reference/evaluations-agent.md,
 * "The cache"): a result is reused only while the question, the endpoint, the models, the turn
 * limit, the system message, the tools and every listed subject are as they were. Pure.
 */
import { createHash } from 'node:crypto';
import type { EvalQuestion } from './questions.ts';
import type { ChatTool } from './agent-chat.ts';
import type { SiteIndex } from '../publish/endpoint-schemas.ts';

/** The version of the key and of the cached results: a new one makes every result stale. */
export const AGENT_CACHE_VERSION = 1;

/** What a result depends on besides the question and the knowledge. */
export interface AgentCacheSettings {
  endpoint: string;
  model: string;
  judgeModel: string;
  maxTurns: number;
  system: string;
  tools: readonly ChatTool[];
}

/**
 * A digest of the listed subjects of a knowledge base: the sha256 (hex) of every topic id, slug
 * and content sha256 the catalog keeps (`/kb/index.json`), in catalog order.
 */
export function knowledgeDigest(index: SiteIndex): string {
  const hash = createHash('sha256');
  for (const topic of index.topics) for (const subject of topic.subjects) hash.update(`${JSON.stringify([topic.id, subject.slug, subject.sha256])}\n`);
  return hash.digest('hex');
}

/**
 * The key of a question's result: the sha256 (hex) of the question (its id and line left out:
 * renaming or moving a question keeps its result), the settings, and the knowledge digest, as
 * one JSON array. The judge's model counts only for a question with a rubric.
 */
export function agentCacheKey(question: EvalQuestion, settings: AgentCacheSettings, digest: string): string {
  const { ask, expect, answerIncludes, rubric } = question;
  const judge = rubric === undefined ? null : settings.judgeModel;
  const parts = [
    AGENT_CACHE_VERSION,
    ask,
    expect,
    answerIncludes,
    rubric ?? null,
    settings.endpoint,
    settings.model,
    judge,
    settings.maxTurns,
    settings.system,
    settings.tools,
    digest,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
