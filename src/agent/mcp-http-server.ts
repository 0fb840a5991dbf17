/**
 * `syllabus mcp --http`: a Node HTTP server that hands each request to `/mcp` to an MCP fetch
 * handler (mcp-fetch-handler.ts), converting Node's request and response to the Web's and back.
 * Anything else is answered here: 404 for another path, 403 for a browser page of another site
 * (DNS rebinding) while it listens on a loopback address.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_MCP_BODY_BYTES, type McpFetchHandler } from './mcp-fetch-handler.ts';

/** The path the server answers MCP on. */
export const MCP_PATH = '/mcp';

/** A running MCP HTTP server. */
export interface RunningMcpServer {
  /** The MCP endpoint, `http://HOST:PORT/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** Why the server could not start: what happened and how to fix it. */
export class ListenError extends Error {}

/**
 * Serves `handler` at `/mcp` on `host:port` (port 0: any free port). Rejects with a
 * {@link ListenError} when the address cannot be used (unknown host, port taken or not allowed).
 */
export async function serveMcpHttp(handler: McpFetchHandler, host: string, port: number, log?: (line: string) => void): Promise<RunningMcpServer> {
  const loopback = isLoopback(host);
  const server = http.createServer((request, response) => {
    void answer(handler, request, response, loopback).catch((error: unknown) => {
      log?.(`error: ${request.method ?? ''} ${request.url ?? ''} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!response.headersSent) response.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end();
    });
  });
  // Longer than the idle time of clients and load balancers (60 s is common), so that the server
  // is never the one to close a kept-alive connection just as a client sends on it.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(new ListenError(listenMessage(error, host, port))));
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(handler: McpFetchHandler, request: http.IncomingMessage, response: http.ServerResponse, loopback: boolean): Promise<void> {
  const target = new URL(request.url ?? '/', 'http://localhost');
  if (target.pathname !== MCP_PATH) {
    request.resume();
    response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: the MCP endpoint is ${MCP_PATH}.\n`);
    return;
  }
  // A page of another site may reach a loopback server through a name that resolves to it; only
  // loopback names and origins may talk to one.
  if (loopback && (!isLoopbackAuthority(request.headers.host) || (request.headers.origin !== undefined && !isLoopbackOrigin(request.headers.origin)))) {
    request.resume();
    response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Forbidden: this server listens on a loopback address and answers only local clients.\n');
    return;
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let body: Buffer | undefined;
  if (hasBody) {
    body = await readBounded(request, MAX_MCP_BODY_BYTES);
    if (body === undefined) {
      const error = { jsonrpc: '2.0', error: { code: -32000, message: `Payload too large: a request body may hold at most ${MAX_MCP_BODY_BYTES} bytes.` }, id: null };
      response.writeHead(413, { 'Content-Type': 'application/json', Connection: 'close' }).end(JSON.stringify(error));
      return;
    }
  }
  const webRequest = new Request(new URL(request.url ?? '/', 'http://localhost'), { method: request.method ?? 'GET', headers, ...(body ? { body: new Uint8Array(body) } : {}) });
  const webResponse = await handler(webRequest);
  response.writeHead(webResponse.status, Object.fromEntries(webResponse.headers));
  if (webResponse.body) {
    for await (const chunk of webResponse.body as unknown as AsyncIterable<Uint8Array>) response.write(chunk);
  }
  response.end();
}

/**
 * The whole body of `request`, or undefined as soon as it holds more than `limit` bytes. The rest
 * of a body over the limit is read and dropped, so that the client hears the answer, not a reset.
 */
function readBounded(request: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    });
    request.on('end', () => resolve(size > limit ? undefined : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** Whether `host` is a loopback address or name. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether a Host header names a loopback address (with or without a port). */
function isLoopbackAuthority(authority: string | undefined): boolean {
  if (authority === undefined) return false;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(authority);
  return match !== null && isLoopback(match[1]!.replace(/^\[|\]$/g, '').toLowerCase());
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return isLoopback(url.hostname.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
}

/** The message of a failed `listen`, with how to fix it. */
function listenMessage(error: NodeJS.ErrnoException, host: string, port: number): string {
  switch (error.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use. Stop what uses it, or give another --port (0 picks a free one).`;
    case 'EACCES':
      return `Port ${port} on ${host} is not allowed for this user. Give a --port above 1023.`;
    case 'EADDRNOTAVAIL':
      return `${JSON.stringify(host)} is not an address of this machine. Give --host 127.0.0.1 (this machine only) or an address of one of its interfaces (0.0.0.0 for all).`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `The host name ${JSON.stringify(host)} could not be resolved. Give an IP address, such as --host 127.0.0.1.`;
    default:
      return `Cannot listen on ${host}:${port}: ${error.message}`;
  }
}
