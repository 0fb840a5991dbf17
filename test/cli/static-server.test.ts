/**
 * The static server `syllabus preview` runs, as a static host serves a built site: pages,
 * redirects to a folder's slash, the 404 page, content types, methods. Then a few hundred hostile
 * requests sent byte for byte to a running `syllabus preview`: each gets an HTTP answer, no
 * redirect leaves the site, nothing outside the folder is served, and the server goes on serving.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serveStatic } from '../../src/cli/static-server.ts';
import { hostileRequests, staysOnSite } from '../helpers/hostile-requests.ts';
import { parseAnswer, requestHead, sendRaw, type RawAnswer } from '../helpers/raw-http.ts';
import { BIN, userEnv } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const SECRET = 'SECRET-BESIDE-THE-SITE';
const HOME = '<!doctype html><title>Home</title>';
const KB = '<!doctype html><title>KB</title>';
const NOT_FOUND = '<!doctype html><title>Not found</title>';

/** A built-looking site in `site/`, with secrets beside it and symlinks from it to them. */
const root = makeTree({
  'secret.txt': SECRET,
  'site-beside/secret.txt': SECRET,
  'site/index.html': HOME,
  'site/404.html': NOT_FOUND,
  'site/kb/index.html': KB,
  'site/kb/notes.md': '# Notes\n',
  'site/kb/data.json': '{"a":1}',
  'site/evil.com/index.html': '<!doctype html><title>A folder named like a host</title>',
  'site/café/index.html': '<!doctype html><title>Café</title>',
  'site/style.css': 'body{}',
  'site/leak.txt': { symlink: '../secret.txt' },
  'site/leakdir': { symlink: '..' },
  'site/kb/inner': { symlink: '../../site-beside' },
  'site/loop': { symlink: 'loop' },
});
const site = path.join(root, 'site');

let preview: ChildProcess;
let port: number;
let output = '';

beforeAll(async () => {
  preview = spawn(process.execPath, [BIN, 'preview', '--out', site, '--port', '0'], { env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  preview.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  port = await new Promise<number>((resolve, reject) => {
    preview.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const serving = /at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output);
      if (serving) resolve(Number(serving[1]));
    });
    preview.once('exit', (code) => reject(new Error(`syllabus preview exited with ${code}:\n${output}`)));
  });
});

afterAll(async () => {
  if (preview && preview.exitCode === null) {
    const exited = new Promise((resolve) => preview.once('exit', resolve));
    preview.kill('SIGINT');
    await exited;
  }
});

/** Sends one request to the preview and parses its answer. */
async function ask(method: string, target: string, headers: readonly string[] = []): Promise<RawAnswer> {
  const answer = parseAnswer(await sendRaw(port, requestHead(method, target, headers)), method === 'HEAD');
  if (!answer) throw new Error(`no HTTP answer to ${method} ${target}`);
  return answer;
}

/** What a test compares of an answer. */
function summary(answer: RawAnswer) {
  const { status, headers, body } = answer;
  return { status, location: headers.location, type: headers['content-type'], allow: headers.allow, body: body.toString('utf8') };
}

describe('syllabus preview serves a built site as a static host does', () => {
  it.each([
    ['GET', '/', { status: 200, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: HOME }],
    ['GET', '/index.html', { status: 200, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: HOME }],
    ['GET', '/kb/', { status: 200, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: KB }],
    ['GET', '/kb/notes.md', { status: 200, location: undefined, type: 'text/markdown; charset=utf-8', allow: undefined, body: '# Notes\n' }],
    ['GET', '/kb/data.json?v=2', { status: 200, location: undefined, type: 'application/json; charset=utf-8', allow: undefined, body: '{"a":1}' }],
    ['GET', '/style.css', { status: 200, location: undefined, type: 'text/css; charset=utf-8', allow: undefined, body: 'body{}' }],
    ['GET', '/kb', { status: 301, location: '/kb/', type: undefined, allow: undefined, body: '' }],
    ['GET', '/kb?x=1', { status: 301, location: '/kb/?x=1', type: undefined, allow: undefined, body: '' }],
    ['GET', '/caf%C3%A9', { status: 301, location: '/caf%C3%A9/', type: undefined, allow: undefined, body: '' }],
    ['GET', '/.//kb', { status: 301, location: '/kb/', type: undefined, allow: undefined, body: '' }],
    ['GET', '//kb', { status: 301, location: '/kb/', type: undefined, allow: undefined, body: '' }],
    ['GET', '/.//evil.com', { status: 301, location: '/evil.com/', type: undefined, allow: undefined, body: '' }],
    ['GET', 'http://evil.com//kb', { status: 301, location: '/kb/', type: undefined, allow: undefined, body: '' }],
    ['GET', '/missing/', { status: 404, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: NOT_FOUND }],
    ['GET', `/${'a'.repeat(300)}`, { status: 404, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: NOT_FOUND }],
    ['GET', '/leak.txt', { status: 404, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: NOT_FOUND }],
    ['GET', '/kb/inner', { status: 404, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: NOT_FOUND }],
    [
      'GET',
      '/../secret.txt',
      { status: 400, location: undefined, type: 'text/plain; charset=utf-8', allow: undefined, body: 'Bad request: the path is malformed or climbs out of the site.\n' },
    ],
    [
      'GET',
      '/%zz',
      { status: 400, location: undefined, type: 'text/plain; charset=utf-8', allow: undefined, body: 'Bad request: the path is malformed or climbs out of the site.\n' },
    ],
    ['POST', '/kb/', { status: 405, location: undefined, type: 'text/plain; charset=utf-8', allow: 'GET, HEAD', body: 'Method not allowed: this server only reads.\n' }],
  ])('%s %s', async (method, target, expected) => {
    expect(summary(await ask(method, target))).toEqual(expected);
  });

  it('answers HEAD as GET without the body', async () => {
    const head = await ask('HEAD', '/kb/');
    expect({ status: head.status, type: head.headers['content-type'], length: head.headers['content-length'], body: head.body.length }).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
      length: String(Buffer.byteLength(KB)),
      body: 0,
    });
  });

  it('serves a byte range, and the whole file for a range it cannot serve', async () => {
    expect(summary(await ask('GET', '/index.html', ['Range: bytes=0-8']))).toEqual({
      status: 206,
      location: undefined,
      type: 'text/html; charset=utf-8',
      allow: undefined,
      body: HOME.slice(0, 9),
    });
    expect(summary(await ask('GET', '/index.html', ['Range: bytes=5-2']))).toEqual({
      status: 200,
      location: undefined,
      type: 'text/html; charset=utf-8',
      allow: undefined,
      body: HOME,
    });
  });
});

describe('syllabus preview under hostile requests', () => {
  it('answers each with HTTP, never redirects off the site, never serves a file outside its folder, and goes on serving', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const requests = hostileRequests();
    expect(requests.length).toBeGreaterThan(300);
    const failures: string[] = [];
    for (const request of requests) {
      const raw = await sendRaw(port, request.bytes);
      const answer = parseAnswer(raw, request.head);
      if (!answer) failures.push(`${request.label}: no HTTP answer (${JSON.stringify(raw.toString('latin1').slice(0, 80))})`);
      else if (answer.status >= 500) failures.push(`${request.label}: ${answer.status}`);
      else if (answer.headers.location !== undefined && !staysOnSite(answer.headers.location, origin)) failures.push(`${request.label}: Location ${answer.headers.location}`);
      if (raw.includes(SECRET)) failures.push(`${request.label}: served the secret`);
    }
    expect(failures).toEqual([]);
    expect(preview.exitCode).toBe(null);
    expect(summary(await ask('GET', '/kb/'))).toEqual({ status: 200, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: KB });
  });
});

describe('serveStatic', () => {
  it('answers 500 to a request that fails unexpectedly, tells onError, and goes on serving', async () => {
    const errors: unknown[] = [];
    const server = await serveStatic(site, '127.0.0.1', 0, { onError: (error, request) => errors.push([error, request]) });
    const { port: own } = new URL(server.url);
    const failure = new Error('the disk went away');
    const realpath = vi.spyOn(fs, 'realpathSync').mockImplementationOnce(() => {
      throw failure;
    });
    try {
      const failed = parseAnswer(await sendRaw(Number(own), requestHead('GET', '/kb/')));
      expect(failed && summary(failed)).toEqual({
        status: 500,
        location: undefined,
        type: 'text/plain; charset=utf-8',
        allow: undefined,
        body: 'Internal error: the terminal running the server says what failed.\n',
      });
      expect(errors).toEqual([[failure, { method: 'GET', url: '/kb/' }]]);
      const served = parseAnswer(await sendRaw(Number(own), requestHead('GET', '/kb/')));
      expect(served && summary(served)).toEqual({ status: 200, location: undefined, type: 'text/html; charset=utf-8', allow: undefined, body: KB });
    } finally {
      realpath.mockRestore();
      await server.close();
    }
  });
});
