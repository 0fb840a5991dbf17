/**
 * A static file server for a built site, as a static host serves it (used by `syllabus preview`).
 * sirv sends the files (ETag, byte ranges, streaming); this module decides which file a request
 * names, and answers everything else: redirects, the 404 page, refusals, errors. See
 * content/reference/cli/dev-and-preview.md.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import sirv, { type RequestHandler } from 'sirv';
import { contentTypeOf } from '../build/static-file.ts';

/** A running server. */
export interface RunningServer {
  /** Its origin, without a trailing slash: `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

/** Options of {@link serveStatic}. */
export interface ServeStaticOptions {
  /** Told of each request that failed unexpectedly (answered 500), with its method and target; by default nobody is. */
  onError?: ((error: unknown, request: { method: string; url: string }) => void) | undefined;
}

/** A request's path as the site sees it. */
interface SitePath {
  /** The decoded segments, without empty and `.` segments. */
  segments: string[];
  /** Whether the path ends in `/` (the root does). */
  slash: boolean;
  /** The query, `?…`, kept only when it holds nothing but URL query characters; else empty. */
  search: string;
}

const BAD_REQUEST = 'Bad request: the path is malformed or climbs out of the site.\n';
const NOT_ALLOWED = 'Method not allowed: this server only reads.\n';
const INTERNAL_ERROR = 'Internal error: the terminal running the server says what failed.\n';
/** The errors a file-system lookup of a request's path may meet, all meaning "nothing there". */
const NOTHING_THERE = new Set(['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP', 'EACCES', 'EPERM', 'EINVAL']);

/**
 * Serves `dir` on `host:port` (port 0: any free port): `/x/` is `/x/index.html`, a folder without
 * its slash redirects to it (the Location is always a path of this site), a missing file is the
 * root's `404.html` with status 404. Only GET and HEAD are answered (405 otherwise); a path that
 * is malformed or climbs out of `dir` gets 400, a symlink leading out of `dir` is not found, and
 * a request that fails unexpectedly gets 500 while the server goes on serving.
 */
export async function serveStatic(dir: string, host = '127.0.0.1', port = 0, options: ServeStaticOptions = {}): Promise<RunningServer> {
  const root = path.resolve(dir);
  const files = sirv(root, {
    dev: true,
    etag: true,
    extensions: [],
    // One table of content types for every server of the site: the build's.
    setHeaders: (response, pathname) => response.setHeader('Content-Type', contentTypeOf(pathname)),
  });
  const server = http.createServer((request, response) => {
    const asked = { method: request.method ?? '', url: request.url ?? '' };
    try {
      answer(root, files, request, response);
    } catch (error) {
      options.onError?.(error, asked);
      if (response.headersSent) response.destroy();
      else sendText(response, 500, INTERNAL_ERROR);
    }
  });
  // Without a listener, Node drops a CONNECT request's connection without an answer.
  server.on('connect', (_request: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    const head = [
      'HTTP/1.1 405 Method Not Allowed',
      'Allow: GET, HEAD',
      'Content-Type: text/plain; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(NOT_ALLOWED)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${NOT_ALLOWED}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Answers one request; throws only on an unexpected failure. */
function answer(root: string, files: RequestHandler, request: http.IncomingMessage, response: http.ServerResponse): void {
  if (request.method !== 'GET' && request.method !== 'HEAD') return sendText(response, 405, NOT_ALLOWED, { allow: 'GET, HEAD' });
  const wanted = sitePathOf(request.url ?? '');
  if (!wanted) return sendText(response, 400, BAD_REQUEST);
  const found = findInside(root, wanted.segments);
  if (found?.folder && !wanted.slash) return redirect(response, `${urlPathOf(wanted.segments)}/${wanted.search}`);
  const file = found?.folder ? findInside(root, [...wanted.segments, 'index.html']) : found;
  if (!file || file.folder) return sendNotFound(root, response);
  // sirv finds the file again from the URL: give it the canonical one, as it decodes it (decodeURI,
  // which leaves `%3F` and `%23` alone: a file named with `?` or `#` is not found).
  request.url = `/${file.relative
    .split(path.sep)
    .map((segment) => encodeURI(segment).replace(/[?#]/g, encodeURIComponent))
    .join('/')}`;
  keepRangeServable(request, file.size);
  // sirv pipes a read stream into the response without listening for its errors: a file removed
  // meanwhile must end this answer, not the process.
  response.on('pipe', (source) => source.on('error', () => response.destroy()));
  response.on('error', () => response.destroy());
  files(request, response, () => sendNotFound(root, response));
}

/**
 * The site path of a request target: its path's segments decoded, or undefined when the target
 * is not a path (`*`, `host:port`), its percent-encoding is broken, or a segment is `..` or holds
 * a `/`, a backslash or NUL once decoded. An absolute target (`http://host/path`) counts by its
 * path alone.
 */
function sitePathOf(target: string): SitePath | undefined {
  const origin = /^https?:\/\/[^/?#]*/i.exec(target);
  let rest = origin ? target.slice(origin[0].length) : target;
  if (origin && !rest.startsWith('/')) rest = `/${rest}`;
  if (!rest.startsWith('/')) return undefined;
  const end = rest.search(/[?#]/);
  const pathname = end === -1 ? rest : rest.slice(0, end);
  const query = end === -1 ? '' : rest.slice(end).replace(/#.*/s, '');
  const segments: string[] = [];
  let slash = true;
  for (const raw of pathname.split('/').slice(1)) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (segment === '..' || /[/\\\0]/.test(segment)) return undefined;
    slash = segment === '' || segment === '.';
    if (!slash) segments.push(segment);
  }
  return { segments, slash, search: /^\?[\w\-.~!$&'()*+,;=:@/?%]*$/.test(query) ? query : '' };
}

/** What a site path names inside the served folder. */
interface Found {
  /** Its path relative to the served folder's real path. */
  relative: string;
  folder: boolean;
  size: number;
}

/**
 * The file or folder at `segments` below `root`, symlinks resolved; undefined when there is
 * nothing there, or when it lies outside `root` (a built site holds no link out of itself, and
 * none is followed).
 */
function findInside(root: string, segments: readonly string[]): Found | undefined {
  try {
    const realRoot = fs.realpathSync(root);
    const real = fs.realpathSync(path.join(root, ...segments));
    const relative = path.relative(realRoot, real);
    if (relative.startsWith(`..${path.sep}`) || relative === '..' || path.isAbsolute(relative)) return undefined;
    const stats = fs.statSync(real);
    if (!stats.isFile() && !stats.isDirectory()) return undefined;
    return { relative, folder: stats.isDirectory(), size: stats.size };
  } catch (error) {
    if (NOTHING_THERE.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

/** The URL path of `segments`, each percent-encoded: it cannot start with `//` or hold a backslash. */
function urlPathOf(segments: readonly string[]): string {
  return segments.map((segment) => `/${encodeURIComponent(segment)}`).join('');
}

/**
 * Keeps a request's Range header only when it is one range sirv serves right (`bytes=A-B`,
 * `bytes=A-`, `bytes=-N`, with A ≤ B); any other Range is dropped, and the whole file is sent, as
 * HTTP lets a server do.
 */
function keepRangeServable(request: http.IncomingMessage, size: number): void {
  const range = request.headers.range;
  if (range === undefined) return;
  const [, start = '', end = ''] = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(range) ?? [];
  // sirv reads `bytes=-N` (the last N bytes) as the first N + 1: say which bytes those are.
  if (start === '' && Number(end) > 0 && size > 0) request.headers.range = `bytes=${Math.max(0, size - Number(end))}-${size - 1}`;
  else if (start === '' || (end !== '' && Number(end) < Number(start))) delete request.headers.range;
}

/** Answers with the root's `404.html` (or a line of text when there is none) and status 404. */
function sendNotFound(root: string, response: http.ServerResponse): void {
  const page = findInside(root, ['404.html']);
  if (!page || page.folder) return sendText(response, 404, 'Not found.\n');
  const body = fs.readFileSync(path.join(fs.realpathSync(root), page.relative));
  response.writeHead(404, { 'content-type': contentTypeOf('404.html'), 'content-length': body.length });
  response.end(body);
}

/** Answers a permanent redirect to `location`, a path of this site. */
function redirect(response: http.ServerResponse, location: string): void {
  response.writeHead(301, { location, 'content-length': 0 });
  response.end();
}

/** Answers `status` with a line of plain text. */
function sendText(response: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}): void {
  const body = Buffer.from(text, 'utf8');
  response.writeHead(status, { ...headers, 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length });
  response.end(body);
}
