/**
 * Fetching one URL source (SPEC 8) under `[kb.sources]`'s rules: only `http(s)`, a deadline, a
 * size bound, redirects followed by hand (a bounded number, never to another scheme), and never
 * to an address that is not public unless `allow_private` — judged on the address each request
 * actually connects to, on every hop.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { privateAddressKind } from './private-address.ts';

/** Redirects followed before a fetch gives up. */
export const MAX_REDIRECTS = 5;

/** How to fetch. */
export interface FetchOptions {
  /** The whole fetch, redirects and body included, in milliseconds. */
  timeoutMs: number;
  /** Bytes of body (after decompression) accepted. */
  maxBytes: number;
  /** Whether loopback, private, link-local and other non-public addresses may be fetched. */
  allowPrivate: boolean;
  userAgent: string;
  /** Validators of a cached copy: sent as If-None-Match / If-Modified-Since. */
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** Why a fetch failed: what happened, and how to fix it. */
export interface FetchProblem {
  problem: string;
  fix: string;
}

/** The outcome of a fetch. */
export type FetchOutcome =
  | { kind: 'fetched'; url: string; contentType: string | undefined; body: Buffer; etag: string | undefined; lastModified: string | undefined }
  | { kind: 'not-modified'; url: string }
  | ({ kind: 'failed' } & FetchProblem);

/** A failure raised inside a request, carried to the outcome as it is. */
class FetchFailure extends Error {
  readonly detail: FetchProblem;
  constructor(detail: FetchProblem) {
    super(detail.problem);
    this.detail = detail;
  }
}

/**
 * Fetches `url`. Never throws: every failure (timeout, HTTP error, too large, refused address,
 * redirect to another scheme, network error) is a `failed` outcome saying what happened and how
 * to fix it. A 304 answer to the validators given is `not-modified`.
 */
export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchOutcome> {
  const controller = new AbortController();
  const seconds = formatSeconds(options.timeoutMs);
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    let current = new URL(url);
    for (let redirects = 0; ; redirects++) {
      const answer = await request(current, options, controller.signal);
      if (answer.kind !== 'redirect') return answer;
      if (redirects === MAX_REDIRECTS) {
        return { kind: 'failed', problem: `it redirected more than ${MAX_REDIRECTS} times (last to ${answer.location})`, fix: 'List the address the page finally lives at.' };
      }
      if (!URL.canParse(answer.location, current)) {
        return { kind: 'failed', problem: `it redirects to ${JSON.stringify(answer.location)}, which is not a URL`, fix: 'List the address the page finally lives at.' };
      }
      const next = new URL(answer.location, current);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        return {
          kind: 'failed',
          problem: `it redirects to a ${next.protocol} URL (${next.href}), and only redirects to http:// and https:// are followed`,
          fix: 'List a page that is served over http(s).',
        };
      }
      current = next;
    }
  } catch (error) {
    if (controller.signal.aborted) {
      return { kind: 'failed', problem: `it took longer than ${seconds} (kb.sources.timeout_seconds)`, fix: 'Check that the site is up, or raise timeout_seconds in [kb.sources].' };
    }
    if (error instanceof FetchFailure) return { kind: 'failed', ...error.detail };
    return { kind: 'failed', ...networkProblem(error as NodeJS.ErrnoException) };
  } finally {
    clearTimeout(timer);
  }
}

type Answer = Exclude<FetchOutcome, { kind: 'failed' }> | { kind: 'redirect'; location: string };

function request(url: URL, options: FetchOptions, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    // At the deadline the request is destroyed; whatever stage it was in, the fetch settles.
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    // An address written in the URL is never looked up: check it here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) !== 0 && !options.allowPrivate) {
      const kind = privateAddressKind(literal);
      if (kind) return reject(refused(url.hostname, literal, kind));
    }
    const headers: Record<string, string> = {
      'user-agent': options.userAgent,
      accept: 'text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, */*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
    };
    if (options.etag) headers['if-none-match'] = options.etag;
    if (options.lastModified) headers['if-modified-since'] = options.lastModified;
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers, signal, lookup: checkedLookup(url.hostname, options.allowPrivate), agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
        res.resume();
        return resolve({ kind: 'redirect', location });
      }
      if (status === 304 && (options.etag || options.lastModified)) {
        res.resume();
        return resolve({ kind: 'not-modified', url: url.href });
      }
      if (status < 200 || status >= 300 || status === 204 || status === 205 || status === 206) {
        res.resume();
        return reject(new FetchFailure({ problem: `the server answered HTTP ${status}${res.statusMessage ? ` ${res.statusMessage}` : ''}`, fix: httpFix(status) }));
      }
      const tooLarge = new FetchFailure({
        problem: `the page is larger than ${options.maxBytes} bytes (kb.sources.max_bytes)`,
        fix: 'List a smaller page, or raise max_bytes in [kb.sources].',
      });
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
        return reject(new FetchFailure({ problem: `the server sent the page in an encoding Syllabus cannot read (${encoding})`, fix: 'List a page the server sends plainly or gzipped.' }));
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
      body.on('error', (error: Error) => reject(error instanceof FetchFailure ? error : new FetchFailure({ problem: `the page could not be read (${error.message})`, fix: 'Try again later, or check the URL in a browser.' })));
      res.on('error', reject);
      body.on('end', () => {
        if (size > options.maxBytes) return;
        resolve({
          kind: 'fetched',
          url: url.href,
          contentType: res.headers['content-type'],
          body: Buffer.concat(chunks),
          etag: res.headers.etag,
          lastModified: res.headers['last-modified'],
        });
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
          const kind = privateAddressKind(address);
          if (kind) return callback(refused(hostname, address, kind), '', 0);
        }
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function refused(hostname: string, address: string, kind: string): FetchFailure {
  const where = hostname.replace(/^\[|\]$/g, '') === address ? `its address ${address}` : `its host ${hostname} resolves to ${address}`;
  return new FetchFailure({
    problem: `${where}, ${kind} address, and kb.sources.allow_private is false`,
    fix: 'Syllabus fetches only public addresses, because a PR preview fetches whatever its links.txt names. For a source you trust on your own network, set allow_private = true in [kb.sources].',
  });
}

function httpFix(status: number): string {
  if (status === 404 || status === 410) return 'Check the URL in a browser; fix the line, or remove it if the page is gone.';
  if (status === 401 || status === 403) return 'The page needs a login or refuses robots: list a public page instead.';
  if (status === 429 || status >= 500) return 'The site is failing or busy: try again later.';
  return 'Check the URL in a browser.';
}

function networkProblem(error: NodeJS.ErrnoException): FetchProblem {
  switch (error.code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { problem: `its host could not be resolved (${error.code})`, fix: 'Check the host name, and that this machine can reach the network.' };
    case 'ECONNREFUSED':
      return { problem: 'the connection was refused (ECONNREFUSED)', fix: 'Check that the site is up and the port is right.' };
    case 'ECONNRESET':
      return { problem: 'the server closed the connection (ECONNRESET)', fix: 'Try again later.' };
    default:
      return { problem: `the request failed (${error.code ?? error.message})`, fix: 'Check the URL in a browser, and that this machine can reach the network.' };
  }
}

function formatSeconds(ms: number): string {
  const value = ms / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}
