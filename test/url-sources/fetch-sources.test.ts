/**
 * The build's fetching of URL sources (src/url-sources/fetch-sources.ts, url-fetch.ts) against a
 * local HTTP server on 127.0.0.1: conversion, the cache and its revalidation (ETag and
 * Last-Modified), the timeout, the size bound, redirects, HTTP errors, the private-address rule,
 * and a server that is down. Messages asserted whole.
 */
import dns from 'node:dns';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type SyllabusConfig } from '../../src/kb/index.ts';
import { describeFetchedSources, fetchSources } from '../../src/url-sources/fetch-sources.ts';
import { readCachedDocuments } from '../../src/url-sources/local-sources.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const PAGE = `<html><head><title>Guide</title><script>track()</script></head><body>
<nav><a href="/">Home</a></nav><main><h1>The guide</h1><p>How it <a href="/docs/x">works</a>.</p></main><footer>(c)</footer></body></html>`;

/** Requests the server saw: path, and the conditional headers sent. */
const seen: { path: string; ifNoneMatch: string | undefined; ifModifiedSince: string | undefined; userAgent: string | undefined }[] = [];
let server: http.Server;
let base: string;
let pageVersion = 1;

/** The requests seen so far, by path (they arrive in any order). */
function requests(): typeof seen {
  return [...seen].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = req.url ?? '/';
  seen.push({ path: url, ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'], userAgent: req.headers['user-agent'] });
  const send = (status: number, headers: Record<string, string>, body = ''): void => {
    res.writeHead(status, headers);
    res.end(body);
  };
  switch (url) {
    case '/page.html': {
      const etag = `"v${pageVersion}"`;
      if (req.headers['if-none-match'] === etag) return send(304, { etag });
      return send(200, { 'content-type': 'text/html; charset=utf-8', etag }, pageVersion === 1 ? PAGE : PAGE.replace('How it', 'How it now'));
    }
    case '/notes.md': {
      const lastModified = 'Wed, 18 Nov 2026 10:00:00 GMT';
      if (req.headers['if-modified-since'] === lastModified) return send(304, {});
      return send(200, { 'content-type': 'text/markdown', 'last-modified': lastModified }, '# Notes\n\nPlain *markdown*.\n');
    }
    case '/plain':
      return send(200, { 'content-type': 'text/plain' }, 'Just text.\n');
    case '/slow':
      // Never answered: only the timeout can end this request (the server drops it at the end).
      return;
    case '/big':
      // Streamed without a length: the bound is enforced while reading.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('x'.repeat(3000));
      res.end('y'.repeat(3000));
      return;
    case '/big-declared':
      return send(200, { 'content-type': 'text/plain', 'content-length': '5000' }, 'z'.repeat(5000));
    case '/to-file':
      return send(302, { location: 'file:///etc/passwd' });
    case '/to-ftp':
      return send(301, { location: 'ftp://example.com/file.txt' });
    case '/moved':
      return send(301, { location: '/notes.md' });
    case '/loop':
      return send(302, { location: '/loop' });
    case '/missing':
      return send(404, { 'content-type': 'text/plain' }, 'no');
    case '/broken':
      return send(500, { 'content-type': 'text/plain' }, 'oops');
    case '/image':
      return send(200, { 'content-type': 'image/png' }, 'PNG');
    case '/gzip': {
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('Compressed café.\n'));
      return;
    }
    case '/bomb': {
      // 1 MB of zeros in about 1 kB: the bound counts what the body expands to.
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(Buffer.alloc(1024 * 1024)));
      return;
    }
    default:
      return send(404, {});
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function configOf(links: string[], sources = 'allow_private = true\ntimeout_seconds = 5\nmax_bytes = 4096'): { config: SyllabusConfig; cacheDir: string; links: string } {
  const toml = `[kb.sources]\n${sources}\n\n[kb.topic.web]\nsubjects = "web"\n`;
  const root = makeTree({ 'kb.toml': toml, 'web/links.txt': `${links.join('\n')}\n` });
  const { config, diagnostics } = loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]);
  if (!config) throw new Error(JSON.stringify(diagnostics));
  return { config, cacheDir: path.join(root, '.syllabus-cache'), links: path.join(root, 'web', 'links.txt') };
}

const T1 = new Date('2026-11-20T10:00:00.000Z');
const T2 = new Date('2026-11-21T10:00:00.000Z');
const USER_AGENT = 'Syllabus/0.1.0 (+https://kb.example.com)';

describe('fetching URL sources', () => {
  it('fetches, converts and caches, then revalidates with If-None-Match and If-Modified-Since (304: the copy is kept)', async () => {
    const { config, cacheDir } = configOf([`${base}/page.html`, `${base}/notes.md`, `${base}/plain`]);
    seen.length = 0;
    pageVersion = 1;
    const first = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T1 });
    expect(first.diagnostics).toEqual([]);
    expect(describeFetchedSources(first.counts)).toBe('3 URLs: 3 fetched, 0 not modified, 0 failed');
    expect(Object.fromEntries(first.documents)).toEqual({
      [`${base}/page.html`]: { content: `# The guide\n\nHow it [works](${base}/docs/x).`, format: 'markdown', fetchedAt: T1.toISOString() },
      [`${base}/notes.md`]: { content: '# Notes\n\nPlain *markdown*.\n', format: 'markdown', fetchedAt: T1.toISOString() },
      [`${base}/plain`]: { content: 'Just text.\n', format: 'text', fetchedAt: T1.toISOString() },
    });
    expect(requests().map((r) => [r.path, r.ifNoneMatch, r.ifModifiedSince, r.userAgent])).toEqual([
      ['/notes.md', undefined, undefined, USER_AGENT],
      ['/page.html', undefined, undefined, USER_AGENT],
      ['/plain', undefined, undefined, USER_AGENT],
    ]);

    seen.length = 0;
    const second = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T2 });
    expect(describeFetchedSources(second.counts)).toBe('3 URLs: 1 fetched, 2 not modified, 0 failed');
    expect(requests().map((r) => [r.path, r.ifNoneMatch, r.ifModifiedSince])).toEqual([
      ['/notes.md', undefined, 'Wed, 18 Nov 2026 10:00:00 GMT'],
      ['/page.html', '"v1"', undefined],
      ['/plain', undefined, undefined],
    ]);
    // Unchanged content keeps the date it was first fetched.
    expect(second.documents).toEqual(first.documents);

    pageVersion = 2;
    const third = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T2 });
    expect(describeFetchedSources(third.counts)).toBe('3 URLs: 2 fetched, 1 not modified, 0 failed');
    expect(third.documents.get(`${base}/page.html`)).toEqual({ content: `# The guide\n\nHow it now [works](${base}/docs/x).`, format: 'markdown', fetchedAt: T2.toISOString() });
    // Every other command reads what the build cached.
    expect(readCachedDocuments(config, path.join(cacheDir, 'sources'))).toEqual({ documents: third.documents, unfetched: [] });
  });

  it('reports each failure at its links.txt line with what happened and how to fix it, and goes on without the page', async () => {
    const urls = ['/slow', '/big', '/big-declared', '/to-file', '/to-ftp', '/loop', '/missing', '/broken', '/image', '/moved'].map((p) => `${base}${p}`);
    const { config, cacheDir, links } = configOf(urls);
    const fetched = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T1 });
    expect(describeFetchedSources(fetched.counts)).toBe('10 URLs: 1 fetched, 0 not modified, 9 failed (no cached copies)');
    expect([...fetched.documents.keys()]).toEqual([`${base}/moved`]);
    const without = 'The build goes on without it: topic "web" has no subject for it until a fetch succeeds.';
    expect(fetched.diagnostics.map((d) => [d.kind, d.code, d.file, d.line, d.message])).toEqual(
      [
        `${base}/slow could not be fetched: it took longer than 5 s (kb.sources.timeout_seconds). ${without} Check that the site is up, or raise timeout_seconds in [kb.sources].`,
        `${base}/big could not be fetched: the page is larger than 4096 bytes (kb.sources.max_bytes). ${without} List a smaller page, or raise max_bytes in [kb.sources].`,
        `${base}/big-declared could not be fetched: the page is larger than 4096 bytes (kb.sources.max_bytes). ${without} List a smaller page, or raise max_bytes in [kb.sources].`,
        `${base}/to-file could not be fetched: it redirects to a file: URL (file:///etc/passwd), and only redirects to http:// and https:// are followed. ${without} List a page that is served over http(s).`,
        `${base}/to-ftp could not be fetched: it redirects to a ftp: URL (ftp://example.com/file.txt), and only redirects to http:// and https:// are followed. ${without} List a page that is served over http(s).`,
        `${base}/loop could not be fetched: it redirected more than 5 times (last to /loop). ${without} List the address the page finally lives at.`,
        `${base}/missing could not be fetched: the server answered HTTP 404 Not Found. ${without} Check the URL in a browser; fix the line, or remove it if the page is gone.`,
        `${base}/broken could not be fetched: the server answered HTTP 500 Internal Server Error. ${without} The site is failing or busy: try again later.`,
        `${base}/image could not be fetched: the server sent image/png, not HTML, markdown or plain text. ${without} List a web page, a markdown file or a text file.`,
      ].map((message, index) => ['warning', 'source-failed', links, index + 1, message]),
    );
    // The redirect was followed to the markdown page.
    expect(fetched.documents.get(`${base}/moved`)?.content).toBe('# Notes\n\nPlain *markdown*.\n');
  });

  it('reads gzipped answers, and counts max_bytes after decompression', async () => {
    const { config, cacheDir } = configOf([`${base}/gzip`, `${base}/bomb`]);
    const fetched = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T1 });
    expect(Object.fromEntries(fetched.documents)).toEqual({ [`${base}/gzip`]: { content: 'Compressed café.\n', format: 'text', fetchedAt: T1.toISOString() } });
    expect(fetched.diagnostics.map((d) => d.message)).toEqual([
      `${base}/bomb could not be fetched: the page is larger than 4096 bytes (kb.sources.max_bytes). The build goes on without it: topic "web" has no subject for it until a fetch succeeds. List a smaller page, or raise max_bytes in [kb.sources].`,
    ]);
  });

  it('refuses loopback addresses unless allow_private = true, with a message that says how', async () => {
    const { address } = await dns.promises.lookup('localhost');
    const { config, cacheDir, links } = configOf([`${base}/plain`, `http://localhost:${new URL(base).port}/plain`], 'timeout_seconds = 2');
    seen.length = 0;
    const fetched = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT });
    const fix =
      'Syllabus fetches only public addresses, because a PR preview fetches whatever its links.txt names. For a source you trust on your own network, set allow_private = true in [kb.sources].';
    const without = 'The build goes on without it: topic "web" has no subject for it until a fetch succeeds.';
    expect(fetched.diagnostics).toEqual([
      {
        kind: 'warning',
        code: 'source-failed',
        file: links,
        line: 1,
        message: `${base}/plain could not be fetched: its address 127.0.0.1, a loopback address, and kb.sources.allow_private is false. ${without} ${fix}`,
      },
      {
        kind: 'warning',
        code: 'source-failed',
        file: links,
        line: 2,
        message: `http://localhost:${new URL(base).port}/plain could not be fetched: its host localhost resolves to ${address}, a loopback address, and kb.sources.allow_private is false. ${without} ${fix}`,
      },
    ]);
    // Nothing reached the server.
    expect(seen).toEqual([]);
  });

  // How a URL can name this machine; the host as the URL parser reads it, and the address checked.
  it.each([
    ['127.0.0.1', '127.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1', '127.0.0.1'],
    ['0x7f.0.0.1', '127.0.0.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1', '127.0.0.1'],
    ['017700000001', '127.0.0.1', '127.0.0.1'],
    ['127.000.000.001', '127.0.0.1', '127.0.0.1'],
    ['%31%32%37.0.0.1', '127.0.0.1', '127.0.0.1'],
    ['\uff11\uff12\uff17.\uff10.\uff10.\uff11', '127.0.0.1', '127.0.0.1'],
    ['127.255.255.254', '127.255.255.254', '127.255.255.254'],
    ['[::1]', '[::1]', '::1'],
    ['[0:0:0:0:0:0:0:1]', '[::1]', '::1'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[::ffff:7f00:1]', '[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[::127.0.0.1]', '[::7f00:1]', '::7f00:1'],
    ['[64:ff9b::127.0.0.1]', '[64:ff9b::7f00:1]', '64:ff9b::7f00:1'],
    ['[2002:7f00:1::1]', '[2002:7f00:1::1]', '2002:7f00:1::1'],
    ['[0::]', '[::]', '::'],
  ])('refuses the loopback host spelled %s, and reaches nothing', async (spelling, host, address) => {
    const port = new URL(base).port;
    const { config, cacheDir, links } = configOf([`http://${spelling}:${port}/plain`], 'timeout_seconds = 2');
    seen.length = 0;
    const fetched = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT });
    const kind = address === '::' ? 'an unspecified' : 'a loopback';
    expect(fetched.diagnostics).toEqual([
      {
        kind: 'warning',
        code: 'source-failed',
        file: links,
        line: 1,
        message: `http://${host}:${port}/plain could not be fetched: its address ${address}, ${kind} address, and kb.sources.allow_private is false. The build goes on without it: topic "web" has no subject for it until a fetch succeeds. Syllabus fetches only public addresses, because a PR preview fetches whatever its links.txt names. For a source you trust on your own network, set allow_private = true in [kb.sources].`,
      },
    ]);
    expect(seen).toEqual([]);
  });

  it('goes on with the cached copy when the server is down, and says so', async () => {
    const down = http.createServer(handle);
    await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    const downBase = `http://127.0.0.1:${(down.address() as AddressInfo).port}`;
    const { config, cacheDir, links } = configOf([`${downBase}/plain`, `${downBase}/notes.md`]);
    const first = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T1 });
    expect(first.counts.fetched).toBe(2);
    fs.rmSync(
      path.join(
        cacheDir,
        'sources',
        fs.readdirSync(path.join(cacheDir, 'sources')).find((f) => fs.readFileSync(path.join(cacheDir, 'sources', f), 'utf8').includes('/notes.md'))!,
      ),
    );
    down.closeAllConnections();
    await new Promise<void>((resolve) => down.close(() => resolve()));
    const again = await fetchSources(config, { dir: path.join(cacheDir, 'sources'), userAgent: USER_AGENT, now: () => T2 });
    expect(describeFetchedSources(again.counts)).toBe('2 URLs: 0 fetched, 0 not modified, 2 failed (1 cached copy used)');
    expect(Object.fromEntries(again.documents)).toEqual({ [`${downBase}/plain`]: { content: 'Just text.\n', format: 'text', fetchedAt: T1.toISOString() } });
    expect(again.diagnostics.map((d) => [d.line, d.message])).toEqual([
      [
        1,
        `${downBase}/plain could not be fetched: the connection was refused (ECONNREFUSED). The build goes on with the copy fetched ${T1.toISOString()}. Check that the site is up and the port is right.`,
      ],
      [
        2,
        `${downBase}/notes.md could not be fetched: the connection was refused (ECONNREFUSED). The build goes on without it: topic "web" has no subject for it until a fetch succeeds. Check that the site is up and the port is right.`,
      ],
    ]);
    expect(again.diagnostics.every((d) => d.file === links && d.code === 'source-failed')).toBe(true);
  });
});
