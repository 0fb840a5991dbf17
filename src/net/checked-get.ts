/**
 * One GET over http(s) that keeps to the bounds it is given: a deadline on the whole exchange,
 * redirects and body included; a size bound on the body, counted after decompression; redirects
 * followed by hand (a bounded number, never to another scheme); and unless allowed, never a
 * connection to an address that is not public (private-address.ts), judged on the address each
 * request actually connects to, on every hop. What an outcome means, and how it is told, is the
 * caller's.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { privateAddressKind } from './private-address.ts';

/** How to fetch. */
export interface CheckedGetOptions {
  /** The whole fetch, redirects and body included, in milliseconds. */
  timeoutMs: number;
  /** Bytes of body (after decompression) accepted. */
  maxBytes: number;
  /** Redirects followed before giving up. */
  maxRedirects: number;
  /** Whether loopback, private, link-local and other non-public addresses may be fetched. */
  allowPrivate: boolean;
  /** The request's headers (`accept-encoding` is set here, to what can be decompressed). */
  headers: Readonly<Record<string, string>>;
}

/**
 * The outcome of a GET. `response` is the last answer that was not a redirect: its body is read
 * (whole, decompressed) only for a complete successful answer (2xx but 204, 205 and 206); the
 * others are failures before or instead of an answer.
 */
export type CheckedGetOutcome =
  | { kind: 'response'; url: string; status: number; statusMessage: string; headers: http.IncomingHttpHeaders; body: Buffer | undefined }
  | { kind: 'too-many-redirects'; location: string }
  | { kind: 'redirect-not-a-url'; location: string }
  | { kind: 'redirect-to-other-scheme'; url: URL }
  | { kind: 'refused'; hostname: string; address: string; addressKind: string }
  | { kind: 'too-large' }
  | { kind: 'unknown-encoding'; encoding: string }
  | { kind: 'unreadable'; message: string }
  | { kind: 'timeout' }
  | { kind: 'network'; error: NodeJS.ErrnoException };

type Failure = Exclude<CheckedGetOutcome, { kind: 'response' | 'timeout' | 'network' | 'too-many-redirects' | 'redirect-not-a-url' | 'redirect-to-other-scheme' }>;

/** A failure raised inside a request, carried to the outcome as it is. */
class CheckedGetFailure extends Error {
  readonly outcome: Failure;
  constructor(outcome: Failure) {
    super(outcome.kind);
    this.outcome = outcome;
  }
}

/** Fetches `url`. Never throws: every failure is an outcome. */
export async function checkedGet(url: string, options: CheckedGetOptions): Promise<CheckedGetOutcome> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let current = new URL(url);
    for (let redirects = 0; ; redirects++) {
      const answer = await request(current, options, controller.signal);
      if (answer.kind !== 'redirect') return answer;
      if (redirects === options.maxRedirects) return { kind: 'too-many-redirects', location: answer.location };
      if (!URL.canParse(answer.location, current)) return { kind: 'redirect-not-a-url', location: answer.location };
      const next = new URL(answer.location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') return { kind: 'redirect-to-other-scheme', url: next };
      current = next;
    }
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'timeout' };
    if (error instanceof CheckedGetFailure) return error.outcome;
    return { kind: 'network', error: error as NodeJS.ErrnoException };
  } finally {
    clearTimeout(timer);
  }
}

type Answer = Extract<CheckedGetOutcome, { kind: 'response' }> | { kind: 'redirect'; location: string };

function request(url: URL, options: CheckedGetOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    // At the deadline the request is destroyed; whatever stage it was in, the fetch settles.
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    // An address written in the URL is never looked up: check it here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !options.allowPrivate) {
      const addressKind = privateAddressKind(literal);
      if (addressKind) return reject(new CheckedGetFailure({ kind: 'refused', hostname: url.hostname, address: literal, addressKind }));
    }
    const headers = { ...options.headers, 'accept-encoding': 'gzip, deflate, br' };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers, signal, lookup: checkedLookup(url.hostname, options.allowPrivate), agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
        res.resume();
        return resolve({ kind: 'redirect', location });
      }
      const answer = { kind: 'response', url: url.href, status, statusMessage: res.statusMessage ?? '', headers: res.headers } as const;
      if (status < 200 || status >= 300 || status === 204 || status === 205 || status === 206) {
        res.resume();
        return resolve({ ...answer, body: undefined });
      }
      const tooLarge = new CheckedGetFailure({ kind: 'too-large' });
      const length = Number(res.headers['content-length']);
      const encoding = String(res.headers['content-encoding'] ?? 'identity').toLowerCase();
      if (encoding === 'identity' && Number.isFinite(length) && length > options.maxBytes) {
        res.destroy();
        return reject(tooLarge);
      }
      let body: NodeJS.ReadableStream = res;
      if (encoding === 'gzip' || encoding === 'x-gzip') body = res.pipe(zlib.createGunzip());
      else if (encoding === 'deflate') body = res.pipe(zlib.createInflate());
      else if (encoding === 'br') body = res.pipe(zlib.createBrotliDecompress());
      else if (encoding !== 'identity') {
        res.destroy();
        return reject(new CheckedGetFailure({ kind: 'unknown-encoding', encoding }));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      body.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // Stop reading past the bound: the rest is never downloaded.
        if (size > options.maxBytes) {
          res.destroy();
          reject(tooLarge);
          return;
        }
        chunks.push(chunk);
      });
      body.on('error', (error: Error) => reject(error instanceof CheckedGetFailure ? error : new CheckedGetFailure({ kind: 'unreadable', message: error.message })));
      res.on('error', reject);
      body.on('end', () => {
        if (size > options.maxBytes) return;
        resolve({ ...answer, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A `lookup` for the request that resolves the host as usual, then refuses every answer whose
 * addresses include one that is not public: the socket connects only to addresses checked here.
 */
function checkedLookup(hostname: string, allowPrivate: boolean): LookupFunction {
  return (host, options, callback) => {
    dns.lookup(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (!allowPrivate) {
        for (const { address } of addresses) {
          const addressKind = privateAddressKind(address);
          if (addressKind) return callback(new CheckedGetFailure({ kind: 'refused', hostname, address, addressKind }), '', 0);
        }
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}
