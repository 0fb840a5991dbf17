/**
 * One request through `fetch` with a time limit on the whole exchange, headers and body, and a
 * size limit on the body, counted after decompression: nothing here hangs or holds more than the
 * limit. What an outcome means, and how it is told, is the caller's.
 */

/** The limits of a request. */
export interface FetchLimits {
  /** The time limit of the request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** The largest body read, in bytes after decompression (default: no limit). */
  maxBytes?: number | undefined;
}

/**
 * The outcome of a request: an answer, with its body as text for a successful (2xx) one only (the
 * others are not downloaded); or why there is none. `network` carries fetch's own error.
 */
export type BoundedFetchOutcome =
  { kind: 'response'; status: number; statusText: string; contentType: string; body: string } | { kind: 'too-large' } | { kind: 'timeout' } | { kind: 'network'; error: unknown };

/** Makes the request `init` to `url` within `limits`. Never throws. */
export async function fetchBounded(url: string, init: RequestInit, limits: FetchLimits): Promise<BoundedFetchOutcome> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal });
    let body = '';
    if (response.ok) {
      const read = await readBoundedText(response, limits.maxBytes ?? Number.POSITIVE_INFINITY);
      if (!read.ok) return { kind: 'too-large' };
      body = read.text;
    } else {
      await response.body?.cancel();
    }
    return { kind: 'response', status: response.status, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '', body };
  } catch (error) {
    if (signal.aborted) return { kind: 'timeout' };
    return { kind: 'network', error };
  }
}

/**
 * Reads a response's body as UTF-8 text, decompressed as fetch decompresses it (gzip, deflate,
 * br), counting bytes as they arrive: past `maxBytes` the body is cancelled at once, so that a
 * compressed bomb or an endless stream costs at most `maxBytes` and one chunk. A body whose
 * declared length (uncompressed) is over the limit is refused before any of it is read. A refusal
 * says how many bytes were read.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false; bytes: number }> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoded = (response.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  if (!encoded && declared > maxBytes) {
    await response.body?.cancel();
    return { ok: false, bytes: 0 };
  }
  if (response.body === null) return { ok: true, text: '' };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel();
      return { ok: false, bytes };
    }
    chunks.push(value);
  }
  return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) };
}

/**
 * The system's code for why a fetch failed (`ECONNREFUSED`, `UND_ERR_SOCKET`, …): its cause's, or
 * the first of its cause's errors' (a host with several addresses).
 */
export function fetchErrorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: unknown } | null)?.cause;
  return codeOf(cause) ?? codeOf((cause as { errors?: unknown[] } | undefined)?.errors?.[0]);
}

function codeOf(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
