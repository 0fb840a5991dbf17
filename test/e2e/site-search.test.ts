/**
 * Search as you type (content/guide/the-site.md, "Search"), in real Chromium on the shared build of
 * test/fixtures/site: the dialog's keys, its result lines (title, topic › path, excerpt), one file
 * listed under two topics, the topic filter, the search page, the form without JavaScript, the
 * dialog at desktop and phone sizes in both themes, checked by axe, and the site joined from parts
 * built one topic each (`build --part`, `join`), whose search covers every part.
 */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, serveDirectory, type AxeViolation, type StaticServer } from '../helpers/browser.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { ROOT, runCliAsync, runCliInProcess } from '../helpers/run-cli.ts';
import { useSiteInBrowser } from '../helpers/site-in-browser.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const { openPage, url } = useSiteInBrowser();
const pathOf = (page: Page): string => {
  const { pathname, search } = new URL(page.url());
  return pathname + search;
};

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** One result line as a reader sees it: the title, topic › path, and the excerpt with its marked words. */
interface Hit {
  title: string;
  place: string;
  excerpt: string;
  marked: string[];
  href: string;
  selected?: boolean;
}

/** The dialog's status once a search has written it, and its results. */
async function dialogResults(page: Page): Promise<{ status: string; hits: Hit[] }> {
  const status = page.locator('#search-dialog .search-dialog-status');
  await expect.poll(() => status.textContent(), { timeout: 10_000 }).not.toBe('');
  return {
    status: (await status.textContent()) ?? '',
    hits: await page.locator('#search-dialog-results [role="option"]').evaluateAll((options) =>
      options.map((o) => ({
        title: o.querySelector('.search-hit-title')?.textContent ?? '',
        place: o.querySelector('.search-hit-place')?.textContent ?? '',
        excerpt: o.querySelector('.search-hit-excerpt')?.textContent ?? '',
        marked: [...o.querySelectorAll('.search-hit-excerpt mark')].map((m) => m.textContent ?? ''),
        href: o.getAttribute('href') ?? '',
        selected: o.getAttribute('aria-selected') === 'true',
      })),
    ),
  };
}

/** Waits until the dialog's status is `status`, then returns its results. */
async function dialogSaying(page: Page, status: string): Promise<Hit[]> {
  await expect.poll(() => page.locator('#search-dialog .search-dialog-status').textContent(), { timeout: 10_000 }).toBe(status);
  return (await dialogResults(page)).hits;
}

const dialogOpen = (page: Page) => page.locator('#search-dialog').evaluate((d) => (d as HTMLDialogElement).open);
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

const DEPLOY_HIT: Hit = {
  title: 'Deploying',
  place: 'handbook › guides/deploy',
  excerpt:
    'Deploying. Deploys go out every day. Use the word pineapple-deploy to find this page. Rollback. Run make rollback. Back to welcome. Rollback steps. Stop. Revert. [service] name = "api"',
  marked: ['pineapple-deploy'],
  href: '/handbook/guides/deploy/',
  selected: true,
};

/** The one file handbook/search/rotation.md, listed in both topics. */
const ROTATION = {
  inHandbook: { title: 'On-call rotation', place: 'handbook › search/rotation', href: '/handbook/search/rotation/' },
  inOncall: { title: 'On-call rotation', place: 'oncall › rotation', href: '/oncall/rotation/' },
};
const ROTATION_EXCERPT =
  'On-call rotation. Each week one teammate carries the kumquat-pager. Hand it over on Monday morning, with the open incidents written down. Swaps. Swap a week with anyone on the rotation;';

describe('the search dialog', () => {
  it('opens on /, shows results as the words are typed (no Enter), and loads the index only then', async () => {
    const page = await openPage({ viewport: DESKTOP });
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await page.goto(url('/handbook/welcome/'));
    expect(fetched.filter((p) => p.startsWith('/pagefind/'))).toEqual([]);

    await page.keyboard.press('/');
    expect(await dialogOpen(page)).toBe(true);
    expect(await focusedId(page)).toBe('search-dialog-input');
    await page.keyboard.type('pineapple-deploy');
    expect(await dialogSaying(page, '1 result for “pineapple-deploy”.')).toEqual([DEPLOY_HIT]);
    expect(pathOf(page)).toBe('/handbook/welcome/');
    expect(fetched).toContain('/pagefind/shards.json');
    expect(fetched.some((p) => /^\/pagefind\/\d+\/pagefind\.js$/.test(p))).toBe(true);
  });

  it('opens on Ctrl-K and ⌘K, even from a text field, and not on / typed into one', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/search/'));
    await page.locator('#search-query').focus();
    await page.keyboard.type('a/b');
    expect(await page.locator('#search-query').inputValue()).toBe('a/b');
    expect(await dialogOpen(page)).toBe(false);

    await page.keyboard.press('Control+k');
    expect(await dialogOpen(page)).toBe(true);
    expect(await focusedId(page)).toBe('search-dialog-input');
    await page.keyboard.press('Escape');
    expect(await dialogOpen(page)).toBe(false);
    expect(await focusedId(page)).toBe('search-query');

    await page.keyboard.press('Meta+k');
    expect(await dialogOpen(page)).toBe(true);
  });

  it('chooses a result with the arrows and opens it with Enter', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/'));
    await page.keyboard.press('/');
    await page.keyboard.type('Swaps');
    const hits = await dialogSaying(page, '2 results for “Swaps”.');
    expect(hits.map((h) => h.selected)).toEqual([true, false]);
    const second = hits[1]!;
    await page.keyboard.press('ArrowDown');
    expect((await dialogResults(page)).hits.map((h) => h.selected)).toEqual([false, true]);
    expect(await page.locator('#search-dialog-input').getAttribute('aria-activedescendant')).toBe('search-dialog-hit-1');
    // Down from the last wraps to the first, up from the first to the last.
    await page.keyboard.press('ArrowDown');
    expect((await dialogResults(page)).hits.map((h) => h.selected)).toEqual([true, false]);
    await page.keyboard.press('ArrowUp');
    expect((await dialogResults(page)).hits.map((h) => h.selected)).toEqual([false, true]);
    await page.keyboard.press('Enter');
    await page.waitForURL(url(second.href));
    expect(await page.locator('article.prose h1').textContent()).toBe('On-call rotation');
  });

  it('closes on Escape and gives the focus back to where it was', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/handbook/'));
    await page.locator('#theme-toggle').focus();
    await page.keyboard.press('/');
    expect(await dialogOpen(page)).toBe(true);
    await page.keyboard.type('pineapple');
    // The first Escape closes the dialog, even with words in its search field.
    await page.keyboard.press('Escape');
    expect(await dialogOpen(page)).toBe(false);
    expect(await focusedId(page)).toBe('theme-toggle');

    // Clicking the header's box opens it too; the focus comes back to the box.
    await page.locator('#site-search-input').click();
    expect(await dialogOpen(page)).toBe(true);
    expect(await page.locator('#search-dialog-input').inputValue()).toBe('pineapple');
    await page.locator('.search-dialog-close').click();
    expect(await dialogOpen(page)).toBe(false);
    expect(await focusedId(page)).toBe('site-search-input');
  });

  it('keeps the focus inside the dialog on Tab and Shift-Tab', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/'));
    await page.keyboard.press('/');
    await page.keyboard.type('kumquat-pager');
    await dialogSaying(page, '4 results for “kumquat-pager”.');
    const visited: string[] = [];
    const where = () =>
      page.evaluate(() => {
        const active = document.activeElement as HTMLElement;
        return `${active.closest('#search-dialog') ? 'in' : 'OUT'}:${active.id || active.className}`;
      });
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      visited.push(await where());
    }
    expect(visited).toEqual([
      'in:search-dialog-topic',
      'in:search-dialog-close',
      'in:search-dialog-page',
      'in:search-dialog-input',
      'in:search-dialog-topic',
      'in:search-dialog-close',
    ]);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await where()).toBe('in:search-dialog-page');
  });

  it('tells apart one file listed under two topics by its topic and path', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/'));
    await page.keyboard.press('Control+k');
    await page.keyboard.type('Swaps');
    const hits = await dialogSaying(page, '2 results for “Swaps”.');
    // Pagefind ranks the two copies equally: their order is not the point, their lines are.
    expect(hits.map(({ title, place, href }) => ({ title, place, href })).sort((a, b) => a.place.localeCompare(b.place))).toEqual([ROTATION.inHandbook, ROTATION.inOncall]);
    expect(hits.map((h) => [h.excerpt, h.marked])).toEqual([
      [ROTATION_EXCERPT, ['Swaps.', 'Swap']],
      [ROTATION_EXCERPT, ['Swaps.', 'Swap']],
    ]);
  });

  it('narrows the results to one topic with the topic filter', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/'));
    await page.keyboard.press('/');
    await page.keyboard.type('kumquat-pager');
    expect((await dialogSaying(page, '4 results for “kumquat-pager”.')).map((h) => h.place).sort()).toEqual([
      'handbook › search/escalation',
      'handbook › search/rotation',
      'oncall › escalation',
      'oncall › rotation',
    ]);
    await page.locator('#search-dialog-topic').selectOption('On-call');
    expect((await dialogSaying(page, '2 results for “kumquat-pager”.')).map((h) => h.place).sort()).toEqual(['oncall › escalation', 'oncall › rotation']);
    await page.locator('#search-dialog-topic').selectOption('Team Handbook');
    expect((await dialogSaying(page, '2 results for “kumquat-pager”.')).map((h) => h.place).sort()).toEqual(['handbook › search/escalation', 'handbook › search/rotation']);
    expect(await page.locator('.search-dialog-page').getAttribute('href')).toBe('/search/?q=kumquat-pager&topic=Team+Handbook');
    await page.locator('#search-dialog-topic').selectOption('');
    await page.locator('#search-dialog-input').fill('pineapple-deploy');
    expect(await dialogSaying(page, '1 result for “pineapple-deploy”.')).toEqual([DEPLOY_HIT]);
  });

  it('never finds a hidden subject', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/handbook/secret/hidden-note/'));
    await page.keyboard.press('/');
    await page.keyboard.type('HIDDENCANARY_7f3a');
    // Waited for by its whole status: the status of a query typed halfway may show first on a busy machine.
    expect(await dialogSaying(page, 'No results for “HIDDENCANARY_7f3a”.')).toEqual([]);
    expect(await page.locator('#search-dialog-results').isHidden()).toBe(true);
  });

  const sizes = [
    { size: 'desktop', viewport: DESKTOP },
    { size: 'phone', viewport: PHONE, hasTouch: true, isMobile: true },
  ] as const;
  const cases = sizes.flatMap((s) => (['light', 'dark'] as const).map((scheme) => ({ ...s, scheme })));

  it.each(cases)('works at $size size in the $scheme theme, on screen, with no serious or critical axe violations', async ({ size, scheme, ...options }) => {
    const { viewport } = options;
    const page = await openPage({ ...options, colorScheme: scheme });
    await page.goto(url('/handbook/guides/config/'));
    expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
    if (size === 'phone') await page.locator('#site-search-input').tap();
    else await page.keyboard.press('Control+k');
    expect(await dialogOpen(page)).toBe(true);
    await page.keyboard.type('pineapple-deploy');
    expect(await dialogSaying(page, '1 result for “pineapple-deploy”.')).toEqual([DEPLOY_HIT]);

    const box = await page.locator('#search-dialog').boundingBox();
    const hit = await page.locator('#search-dialog-hit-0').boundingBox();
    for (const b of [box!, hit!]) {
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(viewport.width);
      expect(b.y + b.height).toBeLessThanOrEqual(viewport.height);
    }
    // A phone's dialog fills the screen; a desktop's is a panel with the page dimmed around it.
    if (size === 'phone') expect(box).toEqual({ x: 0, y: 0, width: PHONE.width, height: PHONE.height });
    else expect(box!.width).toBeLessThan(viewport.width);

    const violations = await checkAccessibility(page);
    expect(violations.map(describeViolation)).toEqual([]);

    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/guides/deploy/'));
  });
});

describe('the search page', () => {
  it('keeps the query in its box and shows the dialog’s result lines', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(url('/search/?q=Swaps&topic=On-call'));
    expect(await page.locator('#search-query').inputValue()).toBe('Swaps');
    expect(await page.locator('#search-topic').inputValue()).toBe('On-call');
    await expect.poll(() => page.locator('#search-status').textContent(), { timeout: 10_000 }).toBe('1 result for “Swaps”.');
    const lines = await page.locator('#search-results li').evaluateAll((items) =>
      items.map((li) => ({
        title: li.querySelector('a .search-hit-title')?.textContent ?? '',
        href: li.querySelector('a')?.getAttribute('href') ?? '',
        place: li.querySelector('.search-hit-place')?.textContent ?? '',
        excerpt: li.querySelector('.search-hit-excerpt')?.textContent ?? '',
        marked: [...li.querySelectorAll('.search-hit-excerpt mark')].map((m) => m.textContent ?? ''),
      })),
    );
    expect(lines).toEqual([{ ...ROTATION.inOncall, excerpt: ROTATION_EXCERPT, marked: ['Swaps.', 'Swap'] }]);

    await page.locator('#search-topic').selectOption('');
    await expect.poll(() => page.locator('#search-status').textContent(), { timeout: 10_000 }).toBe('2 results for “Swaps”.');
    expect(pathOf(page)).toBe('/search/?q=Swaps');
  });

  it('is reached from the header’s box without JavaScript, query kept', async () => {
    const page = await openPage({ viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto(url('/handbook/welcome/'));
    await page.locator('#site-search-input').fill('pineapple-deploy');
    await page.locator('#site-search-input').press('Enter');
    await page.waitForURL(url('/search/?q=pineapple-deploy'));
    expect(await page.locator('main h1').textContent()).toBe('Search');
  });
});

describe('a site joined from parts', () => {
  let joined: StaticServer;
  beforeAll(async () => {
    const work = makeTree({});
    const config = path.join(ROOT, 'test', 'fixtures', 'site', 'kb.toml');
    await Promise.all(
      ['handbook', 'oncall'].map(async (topic) => {
        const cache = await withKeptPages(path.join(work, `cache-${topic}`), 'site');
        const run = await runCliAsync(['build', '--config', config, '--out', `part-${topic}`, '--cache', cache, '--part', topic], { cwd: work });
        if (run.code !== 0) throw new Error(`Building the part ${topic} failed (exit ${run.code}):\n${run.stderr}`);
      }),
    );
    const join = await runCliInProcess(['join', '--out', 'joined', 'part-handbook', 'part-oncall'], { cwd: work });
    if (join.code !== 0) throw new Error(`The join failed (exit ${join.code}):\n${join.stderr}`);
    joined = await serveDirectory(path.join(work, 'joined'));
  });
  afterAll(async () => {
    await joined?.close();
  });

  it('finds a file listed under two topics through both parts’ shards', async () => {
    const page = await openPage({ viewport: DESKTOP });
    await page.goto(`${joined.url}/search/?q=Swaps`);
    await expect.poll(() => page.locator('#search-status').textContent(), { timeout: 10_000 }).toBe('2 results for “Swaps”.');
    const places = await page.locator('#search-results li .search-hit-place').allTextContents();
    expect(places.sort()).toEqual([ROTATION.inHandbook.place, ROTATION.inOncall.place]);
  });
});

/** A violation as text: the rule, then each element with axe's explanation. */
function describeViolation(violation: AxeViolation): string {
  const nodes = violation.nodes.map((n) => `  ${n.target.join(' ')}: ${n.html}\n    ${(n.failureSummary ?? '').replaceAll('\n', '\n    ')}`);
  return [`${violation.impact} ${violation.id}: ${violation.help}`, ...nodes].join('\n');
}
