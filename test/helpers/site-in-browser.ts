/**
 * test/fixtures/site as a browser test file sees it: its shared build (shared-build.ts) served on
 * a free port and a Chromium, started before the file's tests and closed after them. Each page a
 * test opens gets a context of its own, closed after the test, and the test fails on any uncaught
 * error in its pages.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { launchBrowser, serveDirectory, type StaticServer } from './browser.ts';
import { builtSiteFixture } from './shared-build.ts';

/** What a browser test file uses of the site; valid once the file's tests run. */
export interface SiteInBrowser {
  /** The built site's folder. */
  dist(): string;
  /** The served address of `pathname` (`/handbook/`). */
  url(pathname: string): string;
  /** A page in a new context of its own (closed after the test), watched for uncaught errors. */
  openPage(options?: BrowserContextOptions): Promise<Page>;
  /** Watches a page the test opened itself for uncaught errors. */
  watch(page: Page): void;
}

/** Registers the file's hooks that start and stop the site and the browser, and returns what its tests use. */
export function useSiteInBrowser(): SiteInBrowser {
  let dist: string;
  let server: StaticServer;
  let browser: Browser;
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
    const errors = pageErrors;
    pageErrors = [];
    for (const context of contexts.splice(0)) await context.close();
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  const watch = (page: Page): void => {
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  };
  return {
    dist: () => dist,
    url: (pathname) => `${server.url}${pathname}`,
    async openPage(options = {}) {
      const context = await browser.newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      watch(page);
      return page;
    },
    watch,
  };
}
