/**
 * The calls of the agent evaluation to its chat-completions endpoint (`[eval.agent]` in
 * content/reference/configuration.md): one POST with a time limit and a size limit, its failure
 * told as the core's {@link AgentCallFailure}. The key goes in the `Authorization` header only.
 */
import type { AgentCallFailure } from '../kb/evals/agent-failures.ts';
import type { SendOutcome } from '../kb/evals/agent-loop.ts';
import { fetchBounded } from '../net/fetch-bounded.ts';
import { fetchFailureOf } from '../net/fetch-failure.ts';

/** The largest answer read, in bytes: far more than any chat answer, far less than memory. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Where and how calls are made. */
export interface AgentEndpoint {
  url: string;
  /** The API key; undefined sends no `Authorization` header, as local servers expect. */
  key: string | undefined;
  timeoutSeconds: number;
}

/**
 * Posts `body` to the endpoint. Never rejects: HTTP errors, timeouts, answers over
 * {@link MAX_ANSWER_BYTES} and network failures are failures with their reason. A connection that
 * drops before any answer (a kept-alive one the server closed) is tried once more.
 */
export async function sendChatRequest(endpoint: AgentEndpoint, body: string): Promise<SendOutcome> {
  const started = performance.now();
  let failure = await postOnce(endpoint, body);
  if (typeof failure !== 'string' && failure.reason === 'network') failure = await postOnce(endpoint, body);
  const ms = performance.now() - started;
  return typeof failure === 'string' ? { ok: true, body: failure, ms } : { ok: false, failure, ms };
}

/** The body of a successful answer, or why there is none. */
async function postOnce(endpoint: AgentEndpoint, body: string): Promise<string | AgentCallFailure> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}) },
    body,
    redirect: 'error',
  };
  const answer = await fetchBounded(endpoint.url, init, { timeoutMs: endpoint.timeoutSeconds * 1000, maxBytes: MAX_ANSWER_BYTES });
  if (answer.kind === 'network') return fetchFailureOf(answer.error);
  if (answer.kind === 'timeout') return { reason: 'timeout' };
  if (answer.kind === 'too-large') return { reason: 'too-large', maxBytes: MAX_ANSWER_BYTES };
  if (answer.status < 200 || answer.status > 299) return { reason: 'http', status: answer.status };
  return answer.body;
}
