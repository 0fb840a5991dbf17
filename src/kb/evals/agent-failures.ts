/**
 * Why a call of the agent evaluation failed, and how a message says so (content/reference/evaluations-agent.md,
 * "When a call fails"): what happened, then how to fix it. A failed call fails its question; a
 * failure that every other call would meet too (no such endpoint or model, a refused key) ends
 * the run.
 */

/** Why a call gave no answer to read. The host makes the first five; the answer's reading the last two. */
export type AgentCallFailure =
  | { reason: 'http'; status: number }
  | { reason: 'timeout' }
  /** The endpoint cannot be reached at all (connection refused, unknown host): `detail` says which. */
  | { reason: 'unreachable'; detail: string }
  /** Another failure of the connection (reset, TLS): `detail` says which. */
  | { reason: 'network'; detail: string }
  /** The answer is larger than the host reads. */
  | { reason: 'too-large'; maxBytes: number }
  /** The body is not JSON; `start` is its first characters. */
  | { reason: 'not-json'; start: string }
  /** JSON without `choices[0].message`. */
  | { reason: 'no-message' };

/**
 * Whether a failure means every other call of the run would fail the same way, so that no more
 * questions start: the endpoint cannot be reached, or refuses the key (401, 403), or has no such
 * URL or model (404).
 */
export function endsAgentRun(failure: AgentCallFailure): boolean {
  return failure.reason === 'unreachable' || (failure.reason === 'http' && [401, 403, 404].includes(failure.status));
}

/** What a failure message names besides the failure. */
export interface AgentFailureContext {
  endpoint: string;
  /** The model of the failed call (`model`, or `judge_model` for a judge's call). */
  model: string;
  /** `eval.agent.api_key_env`. */
  apiKeyEnv: string;
  /** Whether that variable held a key (an `Authorization` header was sent). */
  keySent: boolean;
  timeoutSeconds: number;
}

/** One sentence of what happened, then one of how to fix it. */
export function describeAgentFailure(failure: AgentCallFailure, context: AgentFailureContext): string {
  const { endpoint, model } = context;
  const format = 'Check eval.agent.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions) of a server that supports tools.';
  switch (failure.reason) {
    case 'http':
      if (failure.status === 401 || failure.status === 403) {
        return context.keySent
          ? `HTTP ${failure.status} from ${endpoint}: the key was refused. Check the key in ${context.apiKeyEnv} (the variable eval.agent.api_key_env names).`
          : `HTTP ${failure.status} from ${endpoint}: no key was sent, ${context.apiKeyEnv} is not set. Set ${context.apiKeyEnv} to the endpoint's API key (eval.agent.api_key_env names the variable).`;
      }
      if (failure.status === 404) return `HTTP 404 from ${endpoint}: no such URL, or no model "${model}" there. ${format} Check eval.agent.model (and judge_model) too.`;
      if (failure.status === 429) return `HTTP 429 from ${endpoint} (too many requests). Lower eval.agent.concurrency, or run again later.`;
      if (failure.status >= 400 && failure.status < 500) {
        return `HTTP ${failure.status} from ${endpoint}: the request was refused. Check that the model "${model}" supports tool calls, and eval.agent.model.`;
      }
      return `HTTP ${failure.status} from ${endpoint}. Run again later.`;
    case 'timeout':
      return `no answer from ${endpoint} within ${context.timeoutSeconds} s. Raise eval.agent.timeout_seconds, or lower eval.agent.concurrency.`;
    case 'unreachable':
      return `cannot reach ${endpoint} (${failure.detail}). Check eval.agent.endpoint and that the server is running.`;
    case 'network':
      return `the call to ${endpoint} failed (${failure.detail}). Run again.`;
    case 'too-large':
      return `the answer of ${endpoint} is larger than ${failure.maxBytes} bytes. ${format}`;
    case 'not-json':
      return `the answer of ${endpoint} is not JSON (it starts ${JSON.stringify(failure.start)}). ${format}`;
    case 'no-message':
      return `the answer of ${endpoint} has no choices[0].message. ${format}`;
  }
}
