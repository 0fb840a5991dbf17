/**
 * Requests a static server must survive without leaving its folder or the site: over-long names,
 * `..` in every encoding, doubled slashes and backslashes that browsers read as another host,
 * broken percent-encoding, NUL and CRLF, absolute request targets, other methods, huge headers.
 * They expect a served folder holding `kb/` and `evil.com/` (folders with an `index.html`), with
 * `secret.txt` and `site-beside/secret.txt` beside it.
 */
import { requestHead } from './raw-http.ts';

/** One request: what it is, its bytes, and whether it is a HEAD request (whose answer has no body). */
export interface HostileRequest {
  label: string;
  bytes: Buffer;
  head: boolean;
}

const DOTS = [
  '..',
  '.%2e',
  '%2e.',
  '%2e%2e',
  '%2E%2E',
  '%252e%252e',
  '%c0%ae%c0%ae',
  '%e0%80%ae%e0%80%ae',
  '%c0%2e%c0%2e',
  '%uff0e%uff0e',
  '%ef%bc%8e%ef%bc%8e',
  '．．',
  '...',
  '..%00',
  '..%2500',
];
const SEPARATORS = ['/', '\\', '%2f', '%2F', '%5c', '%5C', '%252f', '%255c', '%c0%af', '%c1%9c', '%e0%80%af', '//', '/./', '\\\\'];

const ESCAPES = [
  '//evil.com',
  '//evil.com/',
  '///evil.com',
  '/.//evil.com',
  '/./evil.com',
  '//./evil.com',
  '/%2e//evil.com',
  '/\\evil.com',
  '/\\\\evil.com',
  '/\\/evil.com',
  '/%5c%5cevil.com',
  '/%5C/evil.com',
  '/%2f%2fevil.com',
  '/%2F/evil.com',
  '/%2f/evil.com',
  '/kb/..//evil.com',
  '/kb/%2e%2e//evil.com',
  '/evil.com%2f',
  '/https://evil.com',
  '/https:/evil.com',
  '/http:%2f%2fevil.com',
  '/javascript:alert(1)',
  '//kb',
  '///kb',
  '/.//kb',
  '/./kb',
  '/kb/.',
  '/kb/./',
  '/kb//',
  '/\\kb',
  '/%5ckb',
  '/%2fkb',
  '/%2f%2fkb',
  '/kb?//evil.com',
  '/kb?\\evil.com',
  '/kb?%0d%0aLocation:%20//evil.com',
  '/kb#//evil.com',
  '/kb%0d%0aLocation:%20//evil.com',
  '/kb%0aSet-Cookie:%20a=b',
  '/kb%09',
  '/kb%20',
  '/leak.txt',
  '/leakdir/secret.txt',
  '/leakdir',
  '/leakdir/',
  '/kb/inner/secret.txt',
  '/kb/inner',
  '/loop',
  '/loop/x',
];

const BROKEN = ['/%', '/%%', '/%zz', '/%e0%a4', '/%ff', '/%00', '/kb/%00', '/kb%00/', '/%c0%80', '/%ed%a0%80', '/a%', '/kb%2', '/%u002e%u002e/secret.txt'];
const UNICODE = ['/ü', '/日本/', '/\u202e', '/😀', '/kb/é/', '/%F0%9F%98%80', '/%C3%BC', '/\u0000'];
const ABSOLUTE = [
  'http://evil.com/kb',
  'http://evil.com//kb',
  'http://evil.com',
  'https://127.0.0.1/../secret.txt',
  'http://x/%2e%2e/secret.txt',
  'HTTP://EVIL.COM/kb',
  '*',
  'evil.com:443',
  'kb',
  '../secret.txt',
  'javascript:alert(1)',
  '\\evil.com',
];
const METHODS = ['POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH', 'PROPFIND', 'CONNECT', 'BREW'];

/** Every hostile request, generated; a few hundred. */
export function hostileRequests(): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const get = (target: string, headers: readonly string[] = [], method = 'GET') =>
    requests.push({
      label: `${method} ${JSON.stringify(target)}${headers.length > 0 ? ` with ${headers[0]!.slice(0, 40)}` : ''}`,
      bytes: requestHead(method, target, headers),
      head: method === 'HEAD',
    });
  for (const length of [255, 256, 300, 5000]) {
    get(`/${'a'.repeat(length)}`);
    get(`/${'a'.repeat(length)}/`);
    get(`/kb/${'b'.repeat(length)}`);
    get(`/kb/${'c'.repeat(length)}/index.html`);
    get(`/${'%41'.repeat(length)}`);
    get(`/${'kb/'.repeat(length)}`);
    get(`/${'../'.repeat(length)}secret.txt`);
    get(`/kb${'/'.repeat(length)}`);
  }
  for (const dots of DOTS) {
    for (const separator of SEPARATORS) {
      get(`/${dots}${separator}secret.txt`);
      get(`/kb/${dots}${separator}${dots}${separator}site-beside${separator}secret.txt`);
    }
  }
  for (const target of [...ESCAPES, ...BROKEN, ...UNICODE, ...ABSOLUTE]) {
    get(target);
    get(target, [], 'HEAD');
  }
  for (const method of METHODS) for (const target of ['/', '/kb', '/kb/', '/../secret.txt', 'evil.com:443']) get(target, [], method);
  get('/kb', ['Host: evil.com']);
  get('/kb', ['X-Forwarded-Host: evil.com', 'X-Forwarded-Proto: https']);
  get('/', [`X-Huge: ${'x'.repeat(100_000)}`]);
  get(
    '/',
    Array.from({ length: 3000 }, (_, i) => `X-Many-${i}: y`),
  );
  for (const range of ['bytes=5-2', 'bytes=abc', 'bytes=-5', 'bytes=0-0,5-6', 'bytes=99999999-', 'bytes=--', 'bytes=0-99999999999999999999', 'lines=1-2'])
    get('/index.html', [`Range: ${range}`]);
  get('/kb/', ['Connection: Upgrade', 'Upgrade: websocket']);
  get('/kb/', ['If-None-Match: *', 'If-Modified-Since: not a date']);
  get('/kb/', ['Transfer-Encoding: chunked', 'Content-Length: 5']);
  get('/kb/', ['Expect: 100-continue']);
  for (const raw of [
    'GET /kb\r\nLocation: //evil.com HTTP/1.1',
    'GET /kb HTTP/1.1\nLocation: //evil.com',
    'GET  HTTP/1.1',
    'GET /kb HTTP/9.9',
    'GET /kb',
    '\u0000\u0000\u0000',
    'GET /kb\u0000 HTTP/1.1',
  ]) {
    requests.push({ label: `raw ${JSON.stringify(raw)}`, bytes: Buffer.from(`${raw}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, 'utf8'), head: false });
  }
  return requests;
}

/** Whether a Location header stays on the site: a path from its root, never `//host`, `/\host` or a scheme. */
export function staysOnSite(location: string, origin: string): boolean {
  return /^\/(?![/\\])/.test(location) && !/[\\\s]/.test(location) && new URL(location, `${origin}/`).origin === origin;
}
