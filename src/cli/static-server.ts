/** A static file server for a built site, as a static host serves it (used by `syllabus preview`). */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { contentTypeOf } from '../build/static-file.ts';

/** A running server. */
export interface RunningServer {
  /** Its origin, without a trailing slash: `http://127.0.0.1:PORT`. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `dir` on `host:port` (port 0: any free port): `/x/` is `/x/index.html`, a folder without
 * its slash redirects to it, a missing file is the root's `404.html` with status 404, and paths
 * that leave `dir` are refused.
 */
export async function serveStatic(dir: string, host = '127.0.0.1', port = 0): Promise<RunningServer> {
  const root = path.resolve(dir);
  const server = http.createServer((request, response) => {
    const send = (status: number, headers: http.OutgoingHttpHeaders, body?: Buffer): void => {
      response.writeHead(status, headers);
      response.end(request.method === 'HEAD' ? undefined : body);
    };
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(405, { allow: 'GET, HEAD' });
    const url = new URL(request.url ?? '/', 'http://localhost');
    let wanted: string;
    try {
      wanted = decodeURIComponent(url.pathname);
    } catch {
      return send(400, { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from('Bad request\n'));
    }
    const file = path.join(root, wanted);
    if (wanted.includes('\0') || (file !== root && !file.startsWith(root + path.sep))) {
      return send(403, { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from('Forbidden\n'));
    }
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat?.isDirectory() && !wanted.endsWith('/')) return send(301, { location: `${url.pathname}/${url.search}` });
    const target = stat?.isDirectory() ? path.join(file, 'index.html') : file;
    if (fs.statSync(target, { throwIfNoEntry: false })?.isFile()) {
      return send(200, { 'content-type': contentTypeOf(target) }, fs.readFileSync(target));
    }
    const notFound = path.join(root, '404.html');
    send(404, { 'content-type': 'text/html; charset=utf-8' }, fs.existsSync(notFound) ? fs.readFileSync(notFound) : Buffer.from('Not found\n'));
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
