/**
 * Bounds on what `--remote` reads (content/reference/cli/learn.md, "Reading a published site"):
 * every fetched file stops at its kind's limit, counted after decompression, however the server
 * compresses, declares or streams it. The reader is checked on its own against a local server (how
 * much it read), then every kind of file through the command line (`main` in this process; the
 * message asserted whole).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readBoundedText } from '../../src/net/fetch-bounded.ts';
import { MAX_BYTES } from '../../src/remote/fetch-json.ts';
import { openRemoteSite } from '../../src/remote/remote-site.ts';
import { fakeSiteFiles, serveFiles, type Reply } from './fake-site.ts';
import { runCliInProcess } from '../helpers/run-cli.ts';

const MiB = 1024 * 1024;
/** The most one read of a response body gives: a larger overshoot would mean the reader did not stop at once. */
const CHUNK = 64 * 1024;
/** 128 MiB of zeros, compressed: twice the largest limit, in about 130 kB. */
const ZEROS = 128 * MiB;
/**
 * The request timeout of these reads: longer than any test may run, so that only the size limit
 * can end one (reading 64 MiB on a busy machine may take longer than the default timeout).
 */
const NO_TIMEOUT_MS = 600_000;

let gzipBomb: Buffer;
let deflateBomb: Buffer;
let brotliBomb: Buffer;

/** Compresses `size` zero bytes a MiB at a time, so that the test never holds them all. */
async function compressZeros(stream: zlib.Gzip | zlib.Deflate | zlib.BrotliCompress, size: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => parts.push(chunk));
  const ended = new Promise((resolve) => stream.on('end', resolve));
  const zero = Buffer.alloc(MiB);
  for (let written = 0; written < size; written += MiB) stream.write(zero);
  stream.end();
  await ended;
  return Buffer.concat(parts);
}

beforeAll(async () => {
  [gzipBomb, deflateBomb, brotliBomb] = await Promise.all([
    compressZeros(zlib.createGzip({ level: 9 }), ZEROS),
    compressZeros(zlib.createDeflate({ level: 9 }), ZEROS),
    compressZeros(zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } }), ZEROS),
  ]);
});

/** What one test's server did: whether each response was closed before it was all sent. */
interface Served {
  url: string;
  /** Resolves when the client has closed the connection of the last response. */
  closed: () => Promise<void>;
  close: () => Promise<void>;
}

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Serves `handle` on 127.0.0.1. */
async function serve(handle: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Served> {
  let onClose: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const server = http.createServer((req, res) => {
    res.on('close', onClose);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const served = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    closed: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(served);
  return served;
}

/** A body of `chunk` repeated for as long as the client reads. */
function streamForever(res: http.ServerResponse, chunk: Buffer): void {
  const write = (): void => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', write);
  };
  write();
}

describe('readBoundedText: reading stops as soon as the body passes the limit', () => {
  it.each([
    ['gzip', () => gzipBomb],
    ['deflate', () => deflateBomb],
    ['br', () => brotliBomb],
  ])('a %s bomb (128 MiB of zeros, compressed) is counted after decompression', async (encoding, bomb) => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(bomb());
    });
    const read = await readBoundedText(await fetch(site.url), MiB);
    expect(read.ok).toBe(false);
    const { bytes } = read as { ok: false; bytes: number };
    expect(bytes).toBeGreaterThan(MiB);
    expect(bytes).toBeLessThanOrEqual(MiB + CHUNK);
    // The client cancelled the body: the server saw the connection close.
    await site.closed();
  });

  it('a body that never ends is cancelled past the limit', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      streamForever(res, Buffer.from('['.repeat(CHUNK)));
    });
    const read = await readBoundedText(await fetch(site.url), MiB);
    expect(read.ok).toBe(false);
    expect((read as { bytes: number }).bytes).toBeLessThanOrEqual(MiB + CHUNK);
    await site.closed();
  });

  it('a declared content-length over the limit is refused before any byte of the body is read', async () => {
    // The body never comes: a reader that waited for it would wait until the test's own timeout.
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(64 * MiB) });
      res.write('[');
    });
    expect(await readBoundedText(await fetch(site.url), MiB)).toEqual({ ok: false, bytes: 0 });
    await site.closed();
  });

  it('a content-length that says less than is sent: the body ends where the header says', async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
        // What follows the declared length is never part of the body.
        const junk = Buffer.alloc(CHUNK, '[');
        const write = (): void => {
          while (!socket.destroyed && socket.write(junk));
          if (!socket.destroyed) socket.once('drain', write);
        };
        socket.on('error', () => {});
        write();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      expect(await readBoundedText(await fetch(url), MiB)).toEqual({ ok: true, text: '{}' });
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('a body of exactly the limit is read whole; one byte more is not', async () => {
    const site = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(`"${'a'.repeat(req.url === '/over' ? 99 : 98)}"`));
    });
    expect(await readBoundedText(await fetch(site.url), 100)).toEqual({ ok: true, text: `"${'a'.repeat(98)}"` });
    expect(await readBoundedText(await fetch(`${site.url}over`), 100)).toEqual({ ok: false, bytes: 101 });
  });
});

describe('the limit of each kind of file', () => {
  it('fits what Syllabus publishes, with a wide margin', () => {
    // The tldr pages (7,424 subjects) publish a 4.9 MB catalog, 2.7 MB of keywords, subject files
    // under 3 kB, and subjects are at most kb.max_subject_bytes (1 MiB by default).
    expect(MAX_BYTES).toEqual({ catalog: 64 * MiB, 'keywords file': 64 * MiB, 'knowledge file': 16 * MiB, 'subject file': 16 * MiB });
  });

  it('a catalog bomb fails at the catalog limit, and memory stays far from the bomb', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipBomb);
    });
    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      await expect(openRemoteSite(site.url, { timeoutMs: NO_TIMEOUT_MS }).index()).rejects.toThrow(
        `${site.url}kb/index.json is larger than 67108864 bytes, the most syllabus reads of a catalog. Check the --remote URL: it must be the root address of a site built by syllabus. Files this large are not read from a site: read the knowledge base from its source files (--config) instead.`,
      );
    } finally {
      clearInterval(sample);
    }
    // A sanity bound only: 128 MiB decompressed, 64 MiB of it kept at most.
    expect(peak - before).toBeLessThan(200 * MiB);
  });
});

describe('through the CLI: one line naming the URL and the limit, exit 1', () => {
  const FILES = fakeSiteFiles([{ id: 't', subjects: [{ slug: 'a', content: 'Alpha' }] }], { prompt: '<knowledge>\nP\n</knowledge>', description: 'D', preloaded: {} });
  const files = serveFiles(FILES);
  let site: Served;
  /** The path whose answer is the bomb, or an endless body. */
  let target: { path: string; reply: 'bomb' | 'forever' } | undefined;

  beforeAll(async () => {
    site = await serve((req, res) => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (path === target?.path && target.reply === 'bomb') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        res.end(gzipBomb);
      } else if (path === target?.path) {
        res.writeHead(200, { 'content-type': 'application/json' });
        streamForever(res, Buffer.from(' '.repeat(CHUNK)));
      } else if (path === '/kb/keywords.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            version: 1,
            topics: [{ id: 't', subjects: [{ slug: 'a', keywords: ['alpha'], confidence: 1, lengths: [1, 0, 0, 0, 0], terms: ['alpha', '', '', '', ''] }] }],
          }),
        );
      } else {
        const reply = files(path) as Extract<Reply, { body: string }>;
        res.writeHead(reply.status ?? 200, { 'content-type': reply.type ?? 'application/json' });
        res.end(reply.body);
      }
    });
    servers.splice(servers.indexOf(site), 1);
  });
  afterAll(() => site.close());

  /** `syllabus <args> --remote <the site>`, with no timeout to race the size limit. */
  const remote = (args: string[]) => runCliInProcess([...args, '--remote', site.url], { env: { SYLLABUS_REMOTE_TIMEOUT_MS: String(NO_TIMEOUT_MS) } });

  const tooLarge = (path: string, limit: number, what: string) => ({
    code: 1,
    stdout: '',
    stderr: `error: ${site.url}${path.slice(1)} is larger than ${limit} bytes, the most syllabus reads of a ${what}. Check the --remote URL: it must be the root address of a site built by syllabus. Files this large are not read from a site: read the knowledge base from its source files (--config) instead.\n`,
  });

  it('the baseline: the site answers', async () => {
    target = undefined;
    expect(await remote(['learn', 't', 'a'])).toEqual({ code: 0, stdout: 'Alpha\n', stderr: '' });
    expect(await remote(['find', 'alpha'])).toEqual({ code: 0, stdout: '- t/a (**a**)\n', stderr: '' });
  });

  it('a catalog bomb', async () => {
    target = { path: '/kb/index.json', reply: 'bomb' };
    expect(await remote(['learn', 't', 'a'])).toEqual(tooLarge('/kb/index.json', 64 * MiB, 'catalog'));
  });

  it('a subject file bomb', async () => {
    target = { path: '/kb/subjects/t/a.json', reply: 'bomb' };
    expect(await remote(['learn', 't', 'a'])).toEqual(tooLarge('/kb/subjects/t/a.json', 16 * MiB, 'subject file'));
  });

  it('a knowledge file that never ends', async () => {
    target = { path: '/kb/knowledge.json', reply: 'forever' };
    expect(await remote(['prompt'])).toEqual(tooLarge('/kb/knowledge.json', 16 * MiB, 'knowledge file'));
  });

  it('a keywords file bomb', async () => {
    target = { path: '/kb/keywords.json', reply: 'bomb' };
    expect(await remote(['find', 'alpha'])).toEqual(tooLarge('/kb/keywords.json', 64 * MiB, 'keywords file'));
  });
});
