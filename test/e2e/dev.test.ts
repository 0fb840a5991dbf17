/**
 * `syllabus dev` as a writer uses it: the server starts inside this project (whose test fixtures
 * hold symlink loops that Vite's watcher must not walk), serves pages and the static twins, and
 * picks up edits to subjects and to kb.toml without a restart. Hostile paths get answers that
 * stay on the site and never show a file beside the knowledge base.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, stopChild, userEnv } from '../helpers/run-cli.ts';
import { hostileRequests, staysOnSite } from '../helpers/hostile-requests.ts';
import { parseAnswer, sendRaw } from '../helpers/raw-http.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { addressOf } from '../../src/kb/index.ts';
import { SOURCE_CONVERSION_VERSION } from '../../src/url-sources/source-body.ts';
import { writeCachedSource } from '../../src/url-sources/source-cache.ts';
import { freePort } from '../../scripts/bench-common.ts';

/** How long a page may take to show an edit: generous, since this is a wait, not a measurement. */
const PATIENCE_MS = 45_000;

/** What the files beside the knowledge base hold: never in an answer. */
const SECRET = 'SECRET-BESIDE-THE-KNOWLEDGE-BASE';

let kb: string;
let child: ChildProcess;
let origin: string;
let output = '';

/** Fetches `url` until `accept` holds for the answer, and returns that answer. */
async function fetchUntil(url: string, accept: (status: number, body: string) => boolean): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + PATIENCE_MS;
  let last = { status: 0, body: '' };
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`syllabus dev exited with ${child.exitCode}:\n${output}`);
    try {
      const response = await fetch(url);
      last = { status: response.status, body: await response.text() };
      if (accept(last.status, last.body)) return last;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} never gave the expected answer; last status ${last.status}.\nServer output:\n${output}`);
}

beforeAll(async () => {
  const tmp = makeTree({ 'secret.txt': SECRET, 'site-beside/secret.txt': SECRET });
  kb = path.join(tmp, 'kb');
  fs.cpSync(path.join(ROOT, 'test/fixtures/site'), kb, { recursive: true });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [BIN, 'dev', '--config', path.join(kb, 'kb.toml'), '--port', String(port)], { cwd: ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await fetchUntil(`${origin}/`, (status) => status === 200);
  // The line comes right after the server listens, maybe just after its first answer.
  while (!output.includes('Serving ')) {
    if (child.exitCode !== null) throw new Error(`syllabus dev exited with ${child.exitCode}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
});

afterAll(async () => {
  if (child) await stopChild(child, 'SIGINT');
});

describe('syllabus dev', () => {
  it('says what it read, then where it serves, once the knowledge base is read', () => {
    const start = new RegExp(
      String.raw`^Read 43 subjects in 2 topics \(\d+\.\d s\)\.\nServing ${origin.replaceAll('.', String.raw`\.`)}/ \(ready \d+\.\d s after the start; Ctrl-C stops\)\n$`,
    );
    expect(output).toMatch(start);
  });

  it('serves the home, topic and subject pages of the knowledge base', async () => {
    const home = await fetchUntil(`${origin}/`, (status) => status === 200);
    expect(home.body).toContain('<title>Fixture Handbook</title>');
    const subject = await fetchUntil(`${origin}/handbook/welcome/`, (status) => status === 200);
    expect(subject.body).toContain('<h1 data-pagefind-meta="title">Welcome aboard</h1>');
  });

  it('serves the markdown twin of a subject, as the build writes it', async () => {
    const twin = await fetchUntil(`${origin}/handbook/welcome.md`, (status) => status === 200);
    // The subject's content as `learn` gives it: the file without its trailing newline.
    expect(twin.body).toBe(fs.readFileSync(path.join(kb, 'handbook/welcome.md'), 'utf8').trimEnd());
  });

  it('never serves a disabled subject', async () => {
    const page = await fetchUntil(`${origin}/opsvault/runbook-walrus/`, (status) => status !== 0);
    expect(page.status).toBe(404);
  });

  it('shows an edited subject without a restart', async () => {
    fs.appendFileSync(path.join(kb, 'handbook/welcome.md'), '\n\nAn edit with DEVEDITCANARY in it.\n');
    const page = await fetchUntil(`${origin}/handbook/welcome/`, (_status, body) => body.includes('DEVEDITCANARY'));
    expect(page.body).toContain('<p>An edit with DEVEDITCANARY in it.</p>');
  });

  it('serves a subject added while it runs', async () => {
    fs.writeFileSync(path.join(kb, 'handbook/fresh-start.md'), '# Fresh start\n\nNew body.\n');
    const page = await fetchUntil(`${origin}/handbook/fresh-start/`, (status) => status === 200);
    expect(page.body).toContain('<h1 data-pagefind-meta="title">Fresh start</h1>');
  });

  it('shows a URL source once a build run meanwhile has cached it', async () => {
    const url = 'https://docs.example.test/guide/intro';
    // links.txt and an edit together: once the edit shows, the server has read the new links.txt.
    fs.writeFileSync(path.join(kb, 'handbook/links.txt'), `${url}\n`);
    fs.appendFileSync(path.join(kb, 'handbook/welcome.md'), '\n\nLINKSREADCANARY\n');
    await fetchUntil(`${origin}/handbook/welcome/`, (_status, body) => body.includes('LINKSREADCANARY'));
    const address = `${origin}/handbook/${addressOf('docs.example.test/guide/intro')}/`;
    expect((await fetch(address)).status).toBe(404);
    writeCachedSource(path.join(kb, '.syllabus-cache', 'sources'), {
      url,
      finalUrl: url,
      fetchedAt: '2026-11-20T10:00:00.000Z',
      etag: undefined,
      lastModified: undefined,
      contentType: 'text/markdown',
      conversion: SOURCE_CONVERSION_VERSION,
      format: 'markdown',
      content: '# Intro from the web\n\nFetched words.',
    });
    const page = await fetchUntil(address, (status) => status === 200);
    expect(page.body).toContain('<h1 data-pagefind-meta="title">Intro from the web</h1>');
  });

  it('answers hostile paths without serving a file beside the knowledge base or redirecting off the site, and goes on serving', async () => {
    // CONNECT and Upgrade requests go to Vite's live-reload socket server, which is not ours to change.
    const requests = hostileRequests().filter((request) => !/^CONNECT |Upgrade/.test(request.label));
    const failures: string[] = [];
    for (const request of requests) {
      const raw = await sendRaw(Number(new URL(origin).port), request.bytes);
      const answer = parseAnswer(raw, request.head);
      if (!answer) failures.push(`${request.label}: no HTTP answer`);
      else if (answer.headers.location !== undefined && !staysOnSite(answer.headers.location, origin)) failures.push(`${request.label}: Location ${answer.headers.location}`);
      if (raw.includes(SECRET)) failures.push(`${request.label}: served a file beside the knowledge base`);
    }
    expect(failures).toEqual([]);
    expect(child.exitCode).toBe(null);
    expect((await fetch(`${origin}/handbook/welcome.md`)).status).toBe(200);
  });

  it('reloads kb.toml when it changes', async () => {
    const config = path.join(kb, 'kb.toml');
    fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('title = "Team Handbook"', 'title = "Renamed Handbook"'));
    const home = await fetchUntil(`${origin}/`, (_status, body) => body.includes('Renamed Handbook'));
    expect(home.body).not.toContain('Team Handbook');
  });
});
