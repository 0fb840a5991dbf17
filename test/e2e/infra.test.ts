/** The browser-test tools themselves, in real Chromium: the static server and the axe check. */
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { checkAccessibility, launchBrowser, serveDirectory, type StaticServer } from '../helpers/browser.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>${body}</main></body></html>`;

const NOTES = '# Notes\n\nA subject, served as markdown.\n';

let server: StaticServer;
let browser: Browser;
let tab: Page;

beforeAll(async () => {
  const site = makeTree({
    'index.html': page('Home', '<h1>Home</h1>'),
    '404.html': page('Not found', '<h1>Page not found</h1>'),
    'café/index.html': page('Café', '<h1>Café</h1>'),
    '~drafts/notes.md': NOTES,
    'bad/index.html': page('Bad', '<h1>Bad</h1><img src="/photo.png">'),
    'good/index.html': page('Good', '<h1>Good</h1><img src="/photo.png" alt="A photo">'),
  });
  server = await serveDirectory(site);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

beforeEach(async () => {
  tab = await browser.newPage();
});

afterEach(async () => {
  await tab.close();
});

/** A raw request, bypassing the browser's own URL normalisation. */
function rawGet(url: string, requestPath: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    http
      .get(url + requestPath, (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, location: response.headers.location });
      })
      .on('error', reject);
  });
}

describe('serveDirectory', () => {
  it('serves index.html for /', async () => {
    const response = await tab.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    expect(await tab.locator('h1').textContent()).toBe('Home');
  });

  it('serves a folder with a non-ASCII name, and redirects it to its slash', async () => {
    const response = await tab.goto(`${server.url}/café`);
    expect(tab.url()).toBe(`${server.url}/caf%C3%A9/`);
    expect(response?.status()).toBe(200);
    expect(await tab.title()).toBe('Café');
  });

  it('answers a missing path with 404.html and status 404', async () => {
    const response = await tab.goto(`${server.url}/no/such/page/`);
    expect(response?.status()).toBe(404);
    expect(await tab.locator('h1').textContent()).toBe('Page not found');
  });

  it('serves .md as text/markdown, under a path with ~', async () => {
    await tab.goto(`${server.url}/`);
    const fetched = await tab.evaluate(async () => {
      const response = await fetch('/~drafts/notes.md');
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    });
    expect(fetched).toEqual({ status: 200, type: 'text/markdown; charset=utf-8', text: NOTES });
  });

  it('refuses a path that climbs out of the root as a bad request', async () => {
    expect(await rawGet(server.url, '/..%2F..%2F..%2Fetc%2Fpasswd')).toEqual({ status: 400, location: undefined });
  });
});

describe('checkAccessibility', () => {
  it('reports an image without alt text as critical', async () => {
    await tab.goto(`${server.url}/bad/`);
    const violations = await checkAccessibility(tab);
    expect(violations.map((v) => [v.id, v.impact, v.nodes.map((n) => n.target)])).toEqual([['image-alt', 'critical', [['img']]]]);
  });

  it('reports nothing on an accessible page', async () => {
    await tab.goto(`${server.url}/good/`);
    expect(await checkAccessibility(tab)).toEqual([]);
  });
});
