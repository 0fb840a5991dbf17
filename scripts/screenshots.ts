/**
 * Photographs the site for reviewers (`npm run screenshots`): builds test/fixtures/site into a
 * temporary folder, serves it, and writes `docs/screenshots/<page>-<size>-<theme>.png` for the
 * home, topic, subject, code, search page, search dialog and 404 pages, at desktop (1280×800)
 * and phone (390×844) sizes, light and dark. Each picture is the first screen of its page, so
 * that the same site makes the same files. Not run by the tests: an image is not an assertion.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { serveStatic } from '../src/cli/static-server.ts';
import { ensureChromium } from './ensure-chromium.ts';
import { BIN, NODE, ROOT } from './bench-common.ts';

const OUTPUT = path.join(ROOT, 'docs', 'screenshots');
const CONFIG = path.join(ROOT, 'test', 'fixtures', 'site', 'kb.toml');
const QUERY = 'kumquat-pager';

/** The sizes photographed: a laptop's window and a phone's screen. */
const SIZES = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
} as const;

/** The pages photographed: the address, and what to wait for (or do) before the picture. */
const PAGES: { name: string; path: string; ready?: (page: Page) => Promise<void> }[] = [
  { name: 'home', path: '/' },
  { name: 'topic', path: '/handbook/' },
  { name: 'subject', path: '/handbook/guides/deploy/' },
  { name: 'code', path: '/handbook/guides/config/' },
  { name: 'search', path: `/search/?q=${QUERY}`, ready: (page) => waitForText(page, '#search-status') },
  {
    name: 'search-dialog',
    path: '/handbook/welcome/',
    ready: async (page) => {
      await page.keyboard.press('Control+k');
      await page.keyboard.type(QUERY);
      await waitForText(page, '#search-dialog .search-dialog-status');
    },
  },
  { name: '404', path: '/no/such/page/' },
];

/** Waits until the element at `selector` holds some text (a search has answered). */
async function waitForText(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => (document.querySelector(s)?.textContent ?? '') !== '', selector, { timeout: 15_000 });
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-screenshots-'));
  try {
    const started = Date.now();
    // Built where it is, so that the subjects' dates come from git as on a real site.
    await promisify(execFile)(NODE, [BIN, 'build', '--config', CONFIG, '--out', path.join(work, 'dist'), '--cache', path.join(work, 'cache')], { cwd: ROOT });
    const server = await serveStatic(path.join(work, 'dist'));
    const browser = await chromium.launch({
      executablePath: await ensureChromium(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--hide-scrollbars',
        '--font-render-hinting=none',
      ],
    });
    try {
      fs.rmSync(OUTPUT, { recursive: true, force: true });
      fs.mkdirSync(OUTPUT, { recursive: true });
      let written = 0;
      for (const [size, options] of Object.entries(SIZES)) {
        for (const theme of ['light', 'dark'] as const) {
          const context = await browser.newContext({ ...options, deviceScaleFactor: 1, colorScheme: theme, reducedMotion: 'reduce' });
          const page = await context.newPage();
          for (const shot of PAGES) {
            await page.goto(`${server.url}${shot.path}`, { waitUntil: 'networkidle' });
            await shot.ready?.(page);
            await page.screenshot({ path: path.join(OUTPUT, `${shot.name}-${size}-${theme}.png`), animations: 'disabled', caret: 'hide' });
            written++;
          }
          await context.close();
        }
      }
      console.log(`Wrote ${written} screenshots to ${path.relative(ROOT, OUTPUT)}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
