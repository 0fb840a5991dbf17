/**
 * Fetching one JSON endpoint of a published site: a timeout on every request, a size limit on
 * every body (counted after decompression; both src/net/fetch-bounded.ts), one retry when the
 * network or the server failed, and errors that say what happened and how to fix it, naming the
 * URL. Nothing here hangs, holds more than the limit, or throws anything but a
 * {@link RemoteError} for a bad answer.
 */
import type { z } from 'zod';
import { FORMAT_VERSION } from '../kb/publish/endpoint-schemas.ts';
import { fetchBounded, fetchErrorCode } from '../net/fetch-bounded.ts';

/** How long one request may take (headers and body), unless `SYLLABUS_REMOTE_TIMEOUT_MS` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** The environment variable that overrides {@link DEFAULT_TIMEOUT_MS}, in milliseconds. */
export const TIMEOUT_VARIABLE = 'SYLLABUS_REMOTE_TIMEOUT_MS';

/** The pause before the one retry. */
const RETRY_DELAY_MS = 250;

/** A published site could not be read. The message says what happened and how to fix it. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
}

/**
 * The largest body read of each kind of file, in bytes after decompression
 * (content/reference/cli/learn.md). The tldr pages' 7,424 subjects publish a 4.9 MB catalog and
 * 2.7 MB of keywords; a subject is at most `kb.max_subject_bytes` (1 MiB by default), and a
 * knowledge file holds one `<knowledge>` section. The margins are wide; a body past its limit is
 * cancelled at once, so that no answer, however compressed, costs more memory than this.
 */
export const MAX_BYTES = {
  catalog: 64 * 1024 * 1024,
  'keywords file': 64 * 1024 * 1024,
  'knowledge file': 16 * 1024 * 1024,
  'subject file': 16 * 1024 * 1024,
} as const;

/** The kinds of file a site publishes, as messages name them. */
export type FileKind = keyof typeof MAX_BYTES;

/** How to fetch. */
export interface FetchOptions {
  /** The time limit of one request, headers and body, in milliseconds. */
  timeoutMs: number;
  /** The largest body read, in bytes after decompression; default the kind's {@link MAX_BYTES}. */
  maxBytes?: number | undefined;
}

/** What an address held: a checked value, or nothing (HTTP 404). */
export type Fetched<T> = { found: true; value: T } | { found: false };

/** The per-request timeout of an environment: {@link TIMEOUT_VARIABLE}, else the default. */
export function timeoutFromEnv(env: Readonly<Record<string, string | undefined>>): { ok: true; value: number } | { ok: false; message: string } {
  const raw = env[TIMEOUT_VARIABLE];
  if (raw === undefined || raw === '') return { ok: true, value: DEFAULT_TIMEOUT_MS };
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    return { ok: false, message: `${TIMEOUT_VARIABLE}=${JSON.stringify(raw)} is not a number of milliseconds. Set it to a positive integer, such as 10000, or unset it.` };
  }
  return { ok: true, value };
}

/**
 * Fetches `url` and checks it as JSON of `schema` (a Syllabus endpoint: its `version` must be
 * {@link FORMAT_VERSION}). A network failure or a 5xx answer is tried once more; a timeout or a
 * body over the limit is not (a site that gave no answer in time rarely gives one at once). `what`
 * names the endpoint in messages and chooses its size limit ({@link MAX_BYTES}).
 */
export async function fetchJson<T>(url: string, schema: z.ZodType<T>, what: FileKind, options: FetchOptions): Promise<Fetched<T>> {
  const maxBytes = options.maxBytes ?? MAX_BYTES[what];
  const attempt = () => fetchBounded(url, { headers: { accept: 'application/json' } }, { timeoutMs: options.timeoutMs, maxBytes });
  let result = await attempt();
  if (result.kind === 'network' || (result.kind === 'response' && result.status >= 500)) {
    await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    result = await attempt();
  }
  if (result.kind === 'too-large') {
    throw new RemoteError(
      `${url} is larger than ${maxBytes} bytes, the most syllabus reads of a ${what}. Check the --remote URL: it must be the root address of a site built by syllabus. Files this large are not read from a site: read the knowledge base from its source files (--config) instead.`,
    );
  }
  if (result.kind === 'timeout') {
    throw new RemoteError(
      `No answer from ${url} within ${options.timeoutMs} ms. Check the --remote URL and that the site is up; on a slow connection, allow more time with ${TIMEOUT_VARIABLE} (milliseconds).`,
    );
  }
  if (result.kind === 'network') throw new RemoteError(`Cannot reach ${url}: ${networkReason(result.error)}. Check the --remote URL and that the site is up.`);
  if (result.status === 404) return { found: false };
  const status = `HTTP ${result.status}${result.statusText === '' ? '' : ` ${result.statusText}`}`;
  if (result.status < 200 || result.status > 299) {
    const fix =
      result.status >= 500 ? 'The server failed, twice; try again later, or tell whoever hosts the site.' : 'Check the --remote URL, and that the site is published there.';
    throw new RemoteError(`${url} answered ${status}. ${fix}`);
  }
  if (/^\s*text\/html\b/i.test(result.contentType) || /^\uFEFF?\s*</.test(result.body)) {
    throw new RemoteError(`${url} is an HTML page, not JSON. Check the --remote URL: it must be the root address of a site built by syllabus.`);
  }
  return { found: true, value: parseEndpointJson(url, result.body, schema, what) };
}

/**
 * Checks the text of an endpoint file read from `url` as JSON of `schema` (its `version` must be
 * {@link FORMAT_VERSION}); what is wrong is a {@link RemoteError} naming `url` and the fix.
 */
export function parseEndpointJson<T>(url: string, text: string, schema: z.ZodType<T>, what: FileKind): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RemoteError(`${url} is not valid JSON (${(error as Error).message}). The file is cut off or damaged; try again, or rebuild and republish the site.`);
  }
  if (parsed !== null && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'number' && parsed.version !== FORMAT_VERSION) {
    throw new RemoteError(
      `${url} is in format version ${parsed.version}; this syllabus reads version ${FORMAT_VERSION}. Use a syllabus that reads version ${parsed.version}, or rebuild the site with this one.`,
    );
  }
  const checked = schema.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const where = issue.path.length === 0 ? 'the top level' : jsonPath(issue.path);
    throw new RemoteError(
      `${url} is not a Syllabus ${what}: at ${where}, ${issue.message.replace(/\s+/g, ' ')}. The site was built by an incompatible syllabus, or its files were changed; rebuild it with this one.`,
    );
  }
  return checked.data;
}

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
};

/** A short reason for a failed fetch, from the error's cause (`connection refused (ECONNREFUSED)`). */
function networkReason(error: unknown): string {
  const code = fetchErrorCode(error);
  if (code !== undefined) return `${REASONS[code] ?? 'network error'} (${code})`;
  const cause = (error as { cause?: unknown }).cause;
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ');
}

/** A JSON path as JavaScript writes it: `topics[0].subjects[1].sha256`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}
