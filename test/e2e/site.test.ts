/**
 * The built site of test/fixtures/site in real Chromium: navigation, search, the theme toggle,
 * copy-as-markdown, the 404 page, the keyboard, accessibility and a phone-sized screen.
 * The site is built once (the real `syllabus build`) and served on a free port.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAccessibility, type AxeViolation } from '../helpers/browser.ts';
import { useSiteInBrowser } from '../helpers/site-in-browser.ts';

/** `--bg` of each theme (src/styles/site.css), as getComputedStyle reports it. */
const BACKGROUND = { light: 'rgb(255, 255, 255)', dark: 'rgb(15, 18, 23)' } as const;

// Small search shards, so that the search page merges several (as on a large site): the shared build has them.
const site = useSiteInBrowser();
const { openPage, watch, url } = site;
const pathOf = (page: Page): string => {
  const { pathname, search, hash } = new URL(page.url());
  return pathname + search + hash;
};

/** Waits (with retries) until the locator's text is exactly `text`. */
async function expectText(locator: Locator, text: string): Promise<void> {
  await expect.poll(() => locator.textContent(), { timeout: 10_000 }).toBe(text);
}

/** The search page's results once its status line is written: the status and each result's link. */
async function searchResults(page: Page): Promise<{ status: string; results: { text: string; href: string }[] }> {
  const status = page.locator('#search-status');
  await expect.poll(() => status.textContent(), { timeout: 10_000 }).not.toBe('');
  return {
    status: (await status.textContent()) ?? '',
    results: await page.locator('#search-results li a').evaluateAll((links) => links.map((a) => ({ text: a.textContent ?? '', href: a.getAttribute('href') ?? '' }))),
  };
}

/** Facts about the focused element: what it is, whether it is on screen, and its outline. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return null;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      tag: element.tagName.toLowerCase(),
      id: element.id,
      className: element.className,
      text: element.textContent?.trim() ?? '',
      href: element.getAttribute('href'),
      onScreen: box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight,
      outlineStyle: style.outlineStyle,
      outlineWidth: style.outlineWidth,
    };
  });
}

/** Expects the focused element to show a focus outline. */
function expectVisibleFocus(state: Awaited<ReturnType<typeof focused>>): void {
  expect(state, 'something is focused').not.toBeNull();
  expect(state!.outlineStyle, `outline of the focused ${state!.tag}.${state!.className}`).not.toBe('none');
  expect(state!.outlineWidth, `outline width of the focused ${state!.tag}.${state!.className}`).not.toBe('0px');
}

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset['theme']);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

describe('navigation', () => {
  it('goes from the home page to a topic and to a subject by clicking', async () => {
    const page = await openPage();
    await page.goto(url('/'));
    expect(await page.title()).toBe('Fixture Handbook');
    expect(await page.locator('main h1').textContent()).toBe('Fixture Handbook');
    expect(await page.locator('main .prose p').textContent()).toBe('How the fixture team works.');
    // A card per enabled topic: the disabled one has none.
    expect(await page.locator('.topics li h2').allTextContents()).toEqual(['Team Handbook', 'On-call']);
    expect(await page.locator('.topics li p').first().textContent()).toBe('How we build and ship.');

    await page.locator('.topics a', { hasText: 'Team Handbook' }).click();
    await page.waitForURL(url('/handbook/'));
    expect(await page.locator('main h1').textContent()).toBe('Team Handbook');

    await page.locator('section.tree a', { hasText: 'Welcome aboard' }).click();
    await page.waitForURL(url('/handbook/welcome/'));
    expect(pathOf(page)).toBe('/handbook/welcome/');
    expect(await page.locator('article.prose h1').textContent()).toBe('Welcome aboard');
    expect(await page.title()).toBe('Welcome aboard · Fixture Handbook');
    expect(await page.locator('nav.breadcrumbs li').allTextContents()).toEqual(['Team Handbook', 'Welcome aboard']);
  });
});

describe('search', () => {
  it('finds a visible subject by a word of its text', async () => {
    const page = await openPage();
    await page.goto(url('/search/?q=pineapple-deploy'));
    expect(await page.locator('#search-query').inputValue()).toBe('pineapple-deploy');
    expect(await searchResults(page)).toEqual({
      status: '1 result for “pineapple-deploy”.',
      results: [{ text: 'Deploying', href: '/handbook/guides/deploy/' }],
    });
  });

  it('does not find a hidden subject, whose page has the word', async () => {
    const page = await openPage();
    // The word is on a built page: it is missing from search because the page is hidden.
    await page.goto(url('/handbook/secret/hidden-note/'));
    expect(await page.locator('article.prose p').allTextContents()).toContain('HIDDENCANARY_7f3a lives only at this subject’s own addresses.');

    await page.goto(url('/search/?q=HIDDENCANARY_7f3a'));
    expect(await searchResults(page)).toEqual({ status: 'No results for “HIDDENCANARY_7f3a”.', results: [] });
  });

  it('carries words typed into the header’s box over to the search dialog', async () => {
    const page = await openPage();
    await page.goto(url('/handbook/welcome/'));
    await page.locator('#site-search-input').pressSequentially('pineapple-deploy');
    await expectText(page.locator('#search-dialog .search-dialog-status'), '1 result for “pineapple-deploy”.');
    expect(await page.locator('#search-dialog-input').inputValue()).toBe('pineapple-deploy');
    expect(await page.locator('#site-search-input').inputValue()).toBe('');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/guides/deploy/'));
  });
});

describe('theme', () => {
  const control = (page: Page) => page.locator('#theme-toggle');
  const says = async (page: Page) => [await control(page).getAttribute('aria-label'), await control(page).textContent()];

  it('goes round system, light and dark, says what a click does, and remembers the choice across a reload and a new page', async () => {
    const page = await openPage({ colorScheme: 'light' });
    await page.goto(url('/'));
    expect(await theme(page)).toBe('light');
    expect(await background(page)).toBe(BACKGROUND.light);
    expect(await says(page)).toEqual(['Theme: system. Switch to light', 'System']);

    await control(page).click();
    expect(await says(page)).toEqual(['Theme: light. Switch to dark', 'Light']);
    expect(await page.evaluate(() => localStorage.getItem('syllabus-theme'))).toBe('light');
    await control(page).click();
    expect(await theme(page)).toBe('dark');
    expect(await background(page)).toBe(BACKGROUND.dark);
    expect(await says(page)).toEqual(['Theme: dark. Switch to system', 'Dark']);
    expect(await page.evaluate(() => localStorage.getItem('syllabus-theme'))).toBe('dark');

    await page.reload();
    expect(await theme(page)).toBe('dark');
    expect(await background(page)).toBe(BACKGROUND.dark);
    expect(await says(page)).toEqual(['Theme: dark. Switch to system', 'Dark']);

    const other = await page.context().newPage();
    watch(other);
    await other.goto(url('/handbook/welcome/'));
    expect(await theme(other)).toBe('dark');
    expect(await background(other)).toBe(BACKGROUND.dark);

    // Back to system: nothing stored, and the light system wins again.
    await control(other).click();
    expect(await says(other)).toEqual(['Theme: system. Switch to light', 'System']);
    expect(await theme(other)).toBe('light');
    expect(await background(other)).toBe(BACKGROUND.light);
    expect(await other.evaluate(() => localStorage.getItem('syllabus-theme'))).toBeNull();
    await page.reload();
    expect(await theme(page)).toBe('light');
  });

  it('follows the system live while the choice is system, and not once a theme is chosen', async () => {
    const page = await openPage({ colorScheme: 'dark' });
    await page.goto(url('/handbook/welcome/'));
    expect(await page.evaluate(() => localStorage.getItem('syllabus-theme'))).toBeNull();
    expect(await theme(page)).toBe('dark');
    expect(await background(page)).toBe(BACKGROUND.dark);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => theme(page)).toBe('light');
    expect(await background(page)).toBe(BACKGROUND.light);

    await control(page).click();
    await control(page).click();
    expect(await theme(page)).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await theme(page)).toBe('dark');
    expect(await background(page)).toBe(BACKGROUND.dark);
  });
});

describe('copy as markdown', () => {
  it('copies exactly the markdown twin of the subject', async () => {
    const page = await openPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(url('/handbook/welcome/'));
    const button = page.locator('button.copy-markdown');
    expect(await button.getAttribute('data-markdown-url')).toBe('/handbook/welcome.md');
    await button.click();
    await expectText(page.locator('.copy-status'), 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(fs.readFileSync(path.join(site.dist(), 'handbook/welcome.md'), 'utf8'));
  });
});

describe('404', () => {
  it('answers a missing address with status 404 and a way home', async () => {
    const page = await openPage();
    const response = await page.goto(url('/handbook/no-such-subject/'));
    expect(response?.status()).toBe(404);
    expect(await page.title()).toBe('Page not found · Fixture Handbook');
    expect(await page.locator('main h1').textContent()).toBe('Page not found');
    const home = page.getByRole('link', { name: 'Go to the home page' });
    expect(await home.getAttribute('href')).toBe('/');
    await home.click();
    await page.waitForURL(url('/'));
    expect(await page.locator('main h1').textContent()).toBe('Fixture Handbook');
  });
});

describe('keyboard only', () => {
  it('skips to the content, then reaches and opens a topic', async () => {
    const page = await openPage();
    await page.goto(url('/'));

    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip).toMatchObject({ tag: 'a', className: 'skip-link', text: 'Skip to content', href: '#content', onScreen: true });
    expectVisibleFocus(skip);

    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page).then((state) => state && `${state.tag}#${state.id}`)).toBe('main#content');
    expect(pathOf(page)).toBe('/#content');

    // From the main content, the next Tab skips the header and lands on the topic card.
    await page.keyboard.press('Tab');
    const topic = await focused(page);
    expect(topic).toMatchObject({ tag: 'a', text: 'Team Handbook', href: '/handbook/', onScreen: true });
    expectVisibleFocus(topic);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/'));
    expect(await page.locator('main h1').textContent()).toBe('Team Handbook');
  });

  it('shows the focus on everything Tab reaches on the way to a topic from the top of the home page', async () => {
    const page = await openPage();
    await page.goto(url('/'));
    const reached: string[] = [];
    for (let i = 0; i < 10; i++) {
      await page.keyboard.press('Tab');
      const state = await focused(page);
      expectVisibleFocus(state);
      reached.push(state!.id ? `#${state!.id}` : state!.text);
      if (state!.text === 'Team Handbook') break;
    }
    expect(reached).toEqual(['Skip to content', 'Fixture Handbook', 'Topic: Topics', '#site-search-input', 'Repository', '#theme-toggle', 'Team Handbook']);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/'));
  });

  it('opens the search dialog with / and opens the first result with Enter', async () => {
    const page = await openPage();
    await page.goto(url('/'));
    await page.keyboard.press('/');
    const box = await focused(page);
    expect(box).toMatchObject({ tag: 'input', id: 'search-dialog-input' });
    expectVisibleFocus(box);
    // The `/` itself is not typed into the box.
    expect(await page.locator('#search-dialog-input').inputValue()).toBe('');

    await page.keyboard.type('pineapple-deploy');
    await expectText(page.locator('#search-dialog .search-dialog-status'), '1 result for “pineapple-deploy”.');
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/guides/deploy/'));
  });
});

describe('accessibility', () => {
  const pages: { name: string; path: string; ready?: (page: Page) => Promise<unknown> }[] = [
    { name: 'home', path: '/' },
    { name: 'topic', path: '/handbook/' },
    { name: 'markdown subject', path: '/handbook/welcome/' },
    { name: 'code subject', path: '/handbook/guides/config/' },
    { name: 'search with results', path: '/search/?q=pineapple-deploy', ready: async (page) => expect((await searchResults(page)).results).toHaveLength(1) },
    { name: '404', path: '/no/such/page/' },
  ];
  const cases = (['light', 'dark'] as const).flatMap((scheme) => pages.map((p) => ({ ...p, scheme })));

  it.each(cases)('$name ($path) in the $scheme theme has no serious or critical violations', async ({ path: pathname, ready, scheme }) => {
    const page = await openPage({ colorScheme: scheme });
    await page.goto(url(pathname));
    expect(await theme(page)).toBe(scheme);
    await ready?.(page);
    const violations = await checkAccessibility(page);
    expect(violations.map(describeViolation), `axe found on ${pathname} (${scheme})`).toEqual([]);
  });
});

/** A violation as text: the rule, then each element with axe's explanation. */
function describeViolation(violation: AxeViolation): string {
  const nodes = violation.nodes.map((n) => `  ${n.target.join(' ')}: ${n.html}\n    ${(n.failureSummary ?? '').replaceAll('\n', '\n    ')}`);
  return [`${violation.impact} ${violation.id}: ${violation.help}`, ...nodes].join('\n');
}

describe('phone width', () => {
  const PHONE = { viewport: { width: 390, height: 800 } };
  const scrollWidth = (page: Page) => page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth }));

  it.each(['/handbook/welcome/', '/handbook/guides/deploy/', '/handbook/guides/config/'])('%s has no horizontal scrolling', async (pathname) => {
    const page = await openPage(PHONE);
    await page.goto(url(pathname));
    const { scrollWidth: width, innerWidth } = await scrollWidth(page);
    expect(width).toBeLessThanOrEqual(innerWidth);
  });

  it('scrolls a long code line inside its block, not the page', async () => {
    const page = await openPage(PHONE);
    await page.goto(url('/handbook/guides/config/'));
    // The fixture's lines are short: make one line far wider than the screen.
    const block = await page.evaluate(() => {
      const pre = document.querySelector('article.prose pre')!;
      pre.querySelector('.line')!.append(`# ${'wide-'.repeat(80)}`);
      return { scrollWidth: pre.scrollWidth, clientWidth: pre.clientWidth, overflowX: getComputedStyle(pre).overflowX };
    });
    expect(block.overflowX).toBe('auto');
    expect(block.scrollWidth).toBeGreaterThan(block.clientWidth);
    const { scrollWidth: width, innerWidth } = await scrollWidth(page);
    expect(width).toBeLessThanOrEqual(innerWidth);
  });
});
