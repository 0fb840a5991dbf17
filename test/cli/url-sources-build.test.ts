/**
 * URL sources end to end (content/reference/cli/build.md, "URL sources"): `syllabus build` fetches
 * the URLs of a topic's links.txt from a local HTTP server on 127.0.0.1 (allow_private = true),
 * publishes them like any subject (page, markdown twin, index.json, index.txt as kb:<url>,
 * llms.txt), never publishes hidden or disabled ones where they must not be, and keeps them in the
 * cache; learn, find and check then read that cache without going to the network; a rebuild
 * revalidates; a build with the server down goes on with the cached copies and says so.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWatchedView } from '../../src/agent/watched-view.ts';
import { loadConfig } from '../../src/kb/index.ts';
import { runCli, runCliAsync, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const GUIDE = `<!doctype html><html><head><title>Guide · Example</title><script>trackVisitor()</script></head>
<body><header><nav><a href="/">Home</a></nav></header>
<main><h1>The product guide</h1><p>How the product works: install it, then <a href="/docs/run.html">run it</a>.</p></main>
<footer>Footer text</footer></body></html>`;

let server: http.Server;
let port: number;
/** Requests the server answered, and how many of them were conditional. */
let requests = 0;
let conditional = 0;

let root: string;
let dist: string;
let first: CliRun;

const GUIDE_MD = (base: string) => `# The product guide\n\nHow the product works: install it, then [run it](${base}/docs/run.html).`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests++;
    if (req.headers['if-none-match'] || req.headers['if-modified-since']) conditional++;
    const send = (status: number, headers: Record<string, string>, body = ''): void => {
      res.writeHead(status, headers);
      res.end(body);
    };
    if (req.url === '/guide.html') {
      if (req.headers['if-none-match'] === '"guide-1"') send(304, { etag: '"guide-1"' });
      else send(200, { 'content-type': 'text/html; charset=utf-8', etag: '"guide-1"' }, GUIDE);
    } else if (req.url === '/.internal/runbook.md') {
      const lastModified = 'Wed, 18 Nov 2026 10:00:00 GMT';
      if (req.headers['if-modified-since'] === lastModified) send(304, {});
      else send(200, { 'content-type': 'text/markdown', 'last-modified': lastModified }, '# Runbook\n\nHIDDENURLCANARY steps.\n');
    } else if (req.url === '/drafts/next') {
      send(200, { 'content-type': 'text/plain' }, 'DISABLEDURLCANARY\n');
    } else {
      send(404, { 'content-type': 'text/plain' }, 'not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  root = makeTree({
    'kb.toml': `[site]\ntitle = "Sources"\nurl = "https://handbook.example.test"\n\n[kb.sources]\nallow_private = true\ntimeout_seconds = 2\n\n[kb.topic.web]\ntitle = "From the web"\nsubjects = "web"\ndisabled = ["127.0.0.1:${port}/drafts/**"]\n`,
    'web/readme.md': '# Readme\n\nWhat this topic holds.\n',
    'web/links.txt': `# Pages the team reads\n${base}/guide.html\n${base}/.internal/runbook.md\n${base}/drafts/next\n${base}/gone\nftp://example.com/file\n`,
  });
  dist = path.join(root, 'dist');
  await withKeptPages(path.join(root, '.syllabus-cache'), 'site');
  first = await runCliAsync(['build', '--config', path.join(root, 'kb.toml'), '--out', dist], { cwd: root });
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function read(file: string): string {
  return fs.readFileSync(path.join(dist, file), 'utf8');
}

/** Files of dist/ whose text holds `text` (Pagefind's compressed files left out). */
function containing(text: string): string[] {
  return fs
    .readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(dist, name)).isFile() && !/\.pf_(?:fragment|index|meta)$|\.pagefind$/.test(name) && read(name).includes(text))
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

const timing = (stderr: string) => stderr.replace(/\d+\.\d s/g, 'T s');

describe('syllabus build with URL sources', () => {
  it('fetches them in a phase of its own and reports every URL it could not use, at its line', () => {
    const links = path.join('web', 'links.txt');
    expect(first.code, first.stderr).toBe(0);
    expect(timing(first.stderr)).toBe(
      [
        `warning[source-failed]: ${links}:5: http://127.0.0.1:${port}/gone could not be fetched: the server answered HTTP 404 Not Found. The build goes on without it: topic "web" has no subject for it until a fetch succeeds. Check the URL in a browser; fix the line, or remove it if the page is gone.`,
        `warning[invalid-source]: ${links}:6: "ftp://example.com/file" is a ftp: URL: only http:// and https:// sources are fetched. Give the page's https:// address, or remove the line.`,
        'sources   4 URLs: 3 fetched, 0 not modified, 1 failed (no cached copy) (T s)',
        'read      1 topic, 3 subjects (T s)',
        'pages     7 pages; 3 subjects rendered, 0 unchanged (T s)',
        'search    2 pages indexed, 1 of 1 shard written (T s)',
        'Built dist/: 1 topic, 3 subjects (1 hidden, 1 disabled, 0 skipped), 2 warnings, T s',
        '',
      ].join('\n'),
    );
  });

  it('publishes a URL source like a subject: its page links to the source and shows the fetch date, its twin holds the converted markdown', () => {
    const base = `http://127.0.0.1:${port}`;
    const address = `127~2E0~2E0~2E1~3A${port}/guide`;
    expect(read(`web/${address}.md`)).toBe(GUIDE_MD(base));
    const html = read(`web/${address}/index.html`);
    expect(html).toContain('<title>The product guide · Sources</title>');
    expect(html).toContain(`<a href="${base}/guide.html" rel="noopener">Source</a>`);
    expect(html).toMatch(/<span>Fetched <time datetime="\d{4}-\d\d-\d\dT[\d:.]+Z">\d{4}-\d\d-\d\d<\/time><\/span>/);
    expect(html).not.toContain('trackVisitor');
    expect(html).not.toContain('Footer text');
    const index = JSON.parse(read('kb/index.json')) as { topics: { subjects: { slug: string; path: string; format: string; markdown: string }[] }[] };
    expect(index.topics[0]!.subjects.map((s) => [s.slug, s.path, s.format, s.markdown])).toEqual([
      [`127.0.0.1:${port}/guide`, `${base}/guide.html`, 'markdown', `/web/${address}.md`],
      ['readme', 'readme.md', 'markdown', '/web/readme.md'],
    ]);
    expect(read('kb/index.txt')).toBe(`kb:${base}/guide.html\nHow the product works: install it, then run it.\n\nkb:web/readme.md\nWhat this topic holds.\n`);
    expect(read('llms.txt')).toContain(
      `## From the web\n\n- [The product guide](https://handbook.example.test/web/${address}.md): How the product works: install it, then run it.\n- [Readme](https://handbook.example.test/web/readme.md): What this topic holds.\n`,
    );
  });

  it('builds a hidden URL source at its own addresses only, and a disabled one nowhere', () => {
    const hidden = `web/127~2E0~2E0~2E1~3A${port}/internal/runbook`;
    expect(containing('HIDDENURLCANARY')).toEqual([`kb/subjects/${hidden}.json`, `${hidden}.md`, `${hidden}/index.html`]);
    expect(containing('DISABLEDURLCANARY')).toEqual([]);
    expect(containing('drafts/next')).toEqual([]);
  });

  it('keeps every fetched page in the cache, where learn, find, check and the agent server read it without going to the network', async () => {
    const before = requests;
    const config = ['--config', path.join(root, 'kb.toml')];
    const learn = runCli(['learn', 'web', `127.0.0.1:${port}/guide`, ...config], { cwd: root });
    expect([learn.code, learn.stdout, learn.stderr]).toEqual([0, `${GUIDE_MD(`http://127.0.0.1:${port}`)}\n`, '']);
    expect(learn.stdout.replace(/\n$/, '')).toBe(read(`web/127~2E0~2E0~2E1~3A${port}/guide.md`));
    const listing = runCli(['learn', 'web', ...config], { cwd: root });
    expect(listing.stdout).toBe(
      `# Topic: From the web\n\n## Available subjects:\n\n- 127.0.0.1:${port}/guide\n- readme\n\nUse the \`learn\` tool with the \`subjects\` argument to learn specific subjects.\n`,
    );
    const find = runCli(['find', 'product guide', '--json', ...config], { cwd: root });
    expect((JSON.parse(find.stdout) as { slug: string }[]).map((r) => r.slug)).toEqual([`127.0.0.1:${port}/guide`]);
    const check = runCli(['check', ...config], { cwd: root });
    expect([check.code, check.stdout]).toEqual([
      0,
      [
        `warning[source-not-fetched]: web/links.txt:5: http://127.0.0.1:${port}/gone has not been fetched yet, so topic "web" has no subject for it. Run syllabus build: it fetches URL sources into ${path.join(root, '.syllabus-cache')}, where every other command reads them.`,
        'warning[invalid-source]: web/links.txt:6: "ftp://example.com/file" is a ftp: URL: only http:// and https:// sources are fetched. Give the page\'s https:// address, or remove the line.',
        '0 errors, 2 warnings',
        '',
      ].join('\n'),
    ]);
    const toml = path.join(root, 'kb.toml');
    const view = createWatchedView(loadConfig([{ file: toml, text: fs.readFileSync(toml, 'utf8') }]).config!, { watch: false });
    expect(await view.learn({ topic: 'web', subjects: `127.0.0.1:${port}/guide` })).toEqual({ ok: true, text: learn.stdout.replace(/\n$/, '') });
    view.close();
    expect(requests).toBe(before);
  });

  it('revalidates on the next build: unchanged pages answer 304 and keep their copy', async () => {
    conditional = 0;
    const again = await runCliAsync(['build', '--config', path.join(root, 'kb.toml'), '--out', dist], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(timing(again.stderr)).toContain('\nsources   4 URLs: 1 fetched, 2 not modified, 1 failed (no cached copy) (T s)\n');
    // The guide by ETag, the runbook by Last-Modified; the disabled page has neither, and /gone no copy.
    expect(conditional).toBe(2);
    expect(timing(again.stderr)).toContain('\npages     nothing changed since the last build of dist/ (T s)\n');
  });

  it('goes on with the cached copies when the server is down, and says so', async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const down = await runCliAsync(['build', '--config', path.join(root, 'kb.toml'), '--out', dist, '--json'], { cwd: root });
    expect(down.code, down.stderr).toBe(0);
    const lines = timing(down.stderr).split('\n');
    const failures = [
      ['2', 'guide.html', 'The build goes on with the copy fetched DATE.'],
      ['3', '.internal/runbook.md', 'The build goes on with the copy fetched DATE.'],
      ['4', 'drafts/next', 'The build goes on with the copy fetched DATE.'],
      ['5', 'gone', 'The build goes on without it: topic "web" has no subject for it until a fetch succeeds.'],
    ].map(
      ([line, page, after]) =>
        `web/links.txt:${line}: http://127.0.0.1:${port}/${page} could not be fetched: the connection was refused (ECONNREFUSED). ${after} Check that the site is up and the port is right.`,
    );
    const withoutDates = (text: string): string => text.replace(/fetched \d{4}-[\d-]+T[\d:.]+Z/, 'fetched DATE');
    // The summary shows three; --json lists every warning.
    expect(lines.filter((l) => l.startsWith('warning[source-failed]')).map(withoutDates)).toEqual([
      ...failures.slice(0, 3).map((failure) => `warning[source-failed]: ${failure}`),
      'warning[source-failed]: 1 more (4 in all): `syllabus build --json` lists them all',
    ]);
    expect((JSON.parse(down.stdout) as { warnings: string[] }).warnings.map(withoutDates).filter((w) => w.includes('could not be fetched'))).toEqual(failures);
    expect(lines).toContain('sources   4 URLs: 0 fetched, 0 not modified, 4 failed (3 cached copies used) (T s)');
    expect(read(`web/127~2E0~2E0~2E1~3A${port}/guide.md`)).toBe(GUIDE_MD(`http://127.0.0.1:${port}`));
  });
});
