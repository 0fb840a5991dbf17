/** Browser-test tools: a static server for a built site, a headless Chromium, and an axe check. */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Result as AxeResult } from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';

/** Content types by file extension; anything else is served as application/octet-stream. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pf_meta': 'application/octet-stream',
  '.pf_index': 'application/octet-stream',
  '.pf_fragment': 'application/octet-stream',
  '.pf_filter': 'application/octet-stream',
};

/** A running static server. */
export interface StaticServer {
  /** Its origin, without a trailing slash: `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `dir` on 127.0.0.1 at a free port, as a static host would: `/x/` is `/x/index.html`,
 * a folder without its slash redirects to it, a missing file is the root's `404.html` (status 404),
 * and a path outside `dir` is refused (403).
 */
export async function serveDirectory(dir: string): Promise<StaticServer> {
  const root = path.resolve(dir);
  const server = http.createServer((request, response) => {
    respond(root, request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve, reject) => {
        // The browser keeps connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function respond(root: string, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const send = (status: number, headers: http.OutgoingHttpHeaders, body?: Buffer | string) => {
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
  };
  if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { allow: 'GET, HEAD' });

  const url = new URL(request.url ?? '/', 'http://localhost');
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return send(400, { 'content-type': 'text/plain; charset=utf-8' }, 'Bad request: malformed percent-encoding\n');
  }
  const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
  if (pathname.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) {
    return send(403, { 'content-type': 'text/plain; charset=utf-8' }, 'Forbidden\n');
  }

  const stat = await fs.stat(file).catch(() => undefined);
  if (stat?.isDirectory()) return send(301, { location: `${url.pathname}/${url.search}` });
  if (stat?.isFile()) return send(200, { 'content-type': contentType(file) }, await fs.readFile(file));

  const notFound = await fs.readFile(path.join(root, '404.html')).catch(() => undefined);
  if (notFound) return send(404, { 'content-type': CONTENT_TYPES['.html'] }, notFound);
  send(404, { 'content-type': 'text/plain; charset=utf-8' }, 'Not found\n');
}

function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The flags every test browser gets (STACK.md "Browser tests"). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Chromium, the one test/global-setup.ts provides. Playwright gives each launch
 * a fresh temporary profile (user-data dir) and deletes it on `browser.close()`.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = inject('chromium');
  if (!executablePath) throw new Error('No Chromium was provided: run the tests through vitest.config.ts, whose globalSetup provides it.');
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}

/** One accessibility problem axe found, with the elements it concerns. */
export type AxeViolation = AxeResult;

let axeSource: string | undefined;

/** Runs axe-core on the page as it is now and returns its serious and critical violations. */
export async function checkAccessibility(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
