/**
 * test/fixtures/site as a browser test file sees it: its shared build (shared-build.ts) served on
 * a free port and a Chromium, started before the file's tests and closed after them. The test
 * fails on any uncaught error in its pages.
 *
 * A new page costs about half a second of a busy machine's time (Chromium starts a renderer for
 * it), so the file's tests share one page where their options allow: between tests it is reset to
 * what a new one would be — storage, cookies, the HTTP cache, the clipboard, routes, listeners,
 * extra pages, the viewport and the colour scheme — and it leaves the site for `about:blank`.
 * Options a page cannot change once made (JavaScript off, a touch screen) get a context of their
 * own, closed after the test.
 */
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser, serveDirectory, type StaticServer } from './browser.ts';
import { builtSiteFixture } from './shared-build.ts';

/** What a browser test file uses of the site; valid once the file's tests run. */
export interface SiteInBrowser {
  /** The built site's folder. */
  dist(): string;
  /** The served address of `pathname` (`/handbook/`). */
  url(pathname: string): string;
  /** A page as new (closed or reset after the test), watched for uncaught errors. */
  openPage(options?: BrowserContextOptions): Promise<Page>;
  /** Watches a page the test opened itself for uncaught errors. */
  watch(page: Page): void;
}

/** Playwright's viewport and colour scheme of a new context. */
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
/** The only permissions a test asks for; the shared page has them, and its clipboard is emptied between tests. */
const SHARED_PERMISSIONS = ['clipboard-read', 'clipboard-write'];
/** The page events tests listen to; their listeners go between tests. */
const TEST_EVENTS = ['request', 'response', 'requestfinished', 'requestfailed', 'console', 'dialog', 'popup', 'pageerror'] as const;

/** Whether a page made with `options` can be the shared page with its viewport and colour scheme set. */
function shareable(options: BrowserContextOptions): boolean {
  const { viewport, colorScheme, permissions, ...rest } = options;
  return Object.keys(rest).length === 0 && viewport !== null && (permissions ?? []).every((p) => SHARED_PERMISSIONS.includes(p)) && colorScheme !== 'no-preference';
}

/** Registers the file's hooks that start and stop the site and the browser, and returns what its tests use. */
export function useSiteInBrowser(): SiteInBrowser {
  let dist: string;
  let server: StaticServer;
  let browser: Browser;
  let shared: { context: BrowserContext; page: Page; cdp: CDPSession; used: boolean } | undefined;
  const contexts: BrowserContext[] = [];
  let pageErrors: string[] = [];

  beforeAll(async () => {
    dist = await builtSiteFixture();
    server = await serveDirectory(dist);
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    if (shared?.used) await resetShared();
    const errors = pageErrors;
    pageErrors = [];
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  const watch = (page: Page): void => {
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  };

  /** Puts the shared page back as a new one would be, or drops it when that fails. */
  async function resetShared(): Promise<void> {
    const { context, page, cdp } = shared!;
    shared!.used = false;
    try {
      for (const other of context.pages()) if (other !== page) await other.close();
      await page.unrouteAll({ behavior: 'wait' });
      await context.unrouteAll({ behavior: 'wait' });
      for (const event of TEST_EVENTS) page.removeAllListeners(event);
      watch(page);
      if (new URL(page.url()).origin === server.url) {
        await page.evaluate(async () => {
          localStorage.clear();
          sessionStorage.clear();
          await navigator.clipboard.writeText('');
        });
      }
      await page.goto('about:blank');
      await cdp.send('Storage.clearDataForOrigin', { origin: server.url, storageTypes: 'all' });
      await cdp.send('Network.clearBrowserCache');
      await context.clearCookies();
    } catch {
      shared = undefined;
      await context.close().catch(() => undefined);
    }
  }

  return {
    dist: () => dist,
    url: (pathname) => `${server.url}${pathname}`,
    async openPage(options = {}) {
      if (!shareable(options) || shared?.used) {
        const context = await browser.newContext(options);
        contexts.push(context);
        const page = await context.newPage();
        watch(page);
        return page;
      }
      if (!shared) {
        const context = await browser.newContext({ permissions: SHARED_PERMISSIONS });
        const page = await context.newPage();
        shared = { context, page, cdp: await context.newCDPSession(page), used: false };
        watch(page);
      }
      shared.used = true;
      const { page } = shared;
      await page.setViewportSize(options.viewport ?? DEFAULT_VIEWPORT);
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
      return page;
    },
    watch,
  };
}
