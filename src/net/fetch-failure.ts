/** What a failed fetch means to a caller of a model's endpoint: unreachable, timed out, or another network failure, in words. */
import { fetchErrorCode } from './fetch-bounded.ts';

/** Why a fetch failed, with the words a message names it by. */
export type FetchFailure = { reason: 'unreachable'; detail: string } | { reason: 'timeout' } | { reason: 'network'; detail: string };

/** Connection errors that mean the endpoint cannot be reached at all, and how a message names them. */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

/** Other connection errors a message names in words. */
const DROPPED: Record<string, string> = {
  UND_ERR_SOCKET: 'the connection closed before an answer',
  ECONNRESET: 'connection reset',
};

/** A fetch's error as a failure with its reason: the system's code in words, else the cause's message. */
export function fetchFailureOf(error: unknown): FetchFailure {
  const cause = (error as { cause?: unknown } | null)?.cause as { message?: unknown; name?: unknown } | undefined;
  const code = fetchErrorCode(error);
  if (code !== undefined && code in UNREACHABLE) return { reason: 'unreachable', detail: UNREACHABLE[code]! };
  if (cause?.name === 'TimeoutError') return { reason: 'timeout' };
  const detail =
    (code !== undefined ? (DROPPED[code] ?? code) : undefined) ?? (typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error));
  return { reason: 'network', detail };
}
