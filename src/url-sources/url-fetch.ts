/**
 * Fetching one URL source under `[kb.sources]`'s rules (content/reference/configuration.md), with
 * src/net/checked-get.ts: only `http(s)`, a deadline, a size bound, redirects followed by hand (a
 * bounded number, never to another scheme), and never to an address that is not public unless
 * `allow_private`, judged on the address each request actually connects to, on every hop. This
 * module says what each outcome means for a URL source, and how to fix it.
 */
import { checkedGet } from '../net/checked-get.ts';

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

/**
 * Fetches `url`. Never throws: every failure (timeout, HTTP error, too large, refused address,
 * redirect to another scheme, network error) is a `failed` outcome saying what happened and how
 * to fix it. A 304 answer to the validators given is `not-modified`.
 */
export async function fetchUrl(url: string, options: FetchOptions): Promise<FetchOutcome> {
  const headers: Record<string, string> = {
    'user-agent': options.userAgent,
    accept: 'text/html, application/xhtml+xml, text/markdown, text/plain;q=0.9, */*;q=0.1',
  };
  if (options.etag) headers['if-none-match'] = options.etag;
  if (options.lastModified) headers['if-modified-since'] = options.lastModified;
  const got = await checkedGet(url, { timeoutMs: options.timeoutMs, maxBytes: options.maxBytes, maxRedirects: MAX_REDIRECTS, allowPrivate: options.allowPrivate, headers });
  const failed = (problem: string, fix: string): FetchOutcome => ({ kind: 'failed', problem, fix });
  switch (got.kind) {
    case 'response': {
      if (got.status === 304 && (options.etag || options.lastModified)) return { kind: 'not-modified', url: got.url };
      if (got.body === undefined) return failed(`the server answered HTTP ${got.status}${got.statusMessage ? ` ${got.statusMessage}` : ''}`, httpFix(got.status));
      return { kind: 'fetched', url: got.url, contentType: got.headers['content-type'], body: got.body, etag: got.headers.etag, lastModified: got.headers['last-modified'] };
    }
    case 'too-many-redirects':
      return failed(`it redirected more than ${MAX_REDIRECTS} times (last to ${got.location})`, 'List the address the page finally lives at.');
    case 'redirect-not-a-url':
      return failed(`it redirects to ${JSON.stringify(got.location)}, which is not a URL`, 'List the address the page finally lives at.');
    case 'redirect-to-other-scheme':
      return failed(
        `it redirects to a ${got.url.protocol} URL (${got.url.href}), and only redirects to http:// and https:// are followed`,
        'List a page that is served over http(s).',
      );
    case 'refused': {
      const where = got.hostname.replace(/^\[|\]$/g, '') === got.address ? `its address ${got.address}` : `its host ${got.hostname} resolves to ${got.address}`;
      return failed(
        `${where}, ${got.addressKind} address, and kb.sources.allow_private is false`,
        'Syllabus fetches only public addresses, because a PR preview fetches whatever its links.txt names. For a source you trust on your own network, set allow_private = true in [kb.sources].',
      );
    }
    case 'too-large':
      return failed(`the page is larger than ${options.maxBytes} bytes (kb.sources.max_bytes)`, 'List a smaller page, or raise max_bytes in [kb.sources].');
    case 'unknown-encoding':
      return failed(`the server sent the page in an encoding Syllabus cannot read (${got.encoding})`, 'List a page the server sends plainly or gzipped.');
    case 'unreadable':
      return failed(`the page could not be read (${got.message})`, 'Try again later, or check the URL in a browser.');
    case 'timeout':
      return failed(`it took longer than ${formatSeconds(options.timeoutMs)} (kb.sources.timeout_seconds)`, 'Check that the site is up, or raise timeout_seconds in [kb.sources].');
    case 'network':
      return { kind: 'failed', ...networkProblem(got.error) };
  }
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
