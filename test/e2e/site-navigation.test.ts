/**
 * Navigation and the page shell of the built site of test/fixtures/site in real Chromium, at a
 * desktop (1280×800) and a phone (390×844) size: the topic sidebar (loaded once, revealed,
 * keyboard, only what is in view), the phone drawer and table of contents, the topic switcher,
 * the logo and repository link, the "Open in" menu and the agent snippet, and axe on all of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkAccessibility, type AxeViolation } from '../helpers/browser.ts';
import { useSiteInBrowser } from '../helpers/site-in-browser.ts';

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 } };
const NAV_FILE = '/kb/nav/handbook.json';

const site = useSiteInBrowser();
const { openPage, url } = site;

/** Opens `pathname` and waits until the sidebar's tree is drawn. */
async function openSubject(page: Page, pathname: string): Promise<void> {
  await page.goto(url(pathname));
  await page.locator('.nav-tree[data-ready="true"]').waitFor({ state: 'attached' });
}

/** The rows of the tree in the document, in order: their text, and `open`/`closed` for folders, `current` for the page. */
function treeRows(page: Page) {
  return page.locator('[role="tree"] [role="treeitem"]').evaluateAll((rows) =>
    rows
      .map((row) => ({ row, top: parseFloat((row as HTMLElement).style.top) }))
      .sort((a, b) => a.top - b.top)
      .map(({ row }) => {
        const expanded = row.getAttribute('aria-expanded');
        const mark = expanded === 'true' ? ' (open)' : expanded === 'false' ? ' (closed)' : row.getAttribute('aria-current') === 'page' ? ' (current)' : '';
        return `${row.textContent}${mark}`;
      }),
  );
}

/** The focused tree row's text. */
const focusedRow = (page: Page) => page.evaluate(() => (document.activeElement?.getAttribute('role') === 'treeitem' ? document.activeElement.textContent : null));

function describeViolation(violation: AxeViolation): string {
  const nodes = violation.nodes.map((n) => `  ${n.target.join(' ')}: ${n.html}\n    ${(n.failureSummary ?? '').replaceAll('\n', '\n    ')}`);
  return [`${violation.impact} ${violation.id}: ${violation.help}`, ...nodes].join('\n');
}

describe('the topic sidebar', () => {
  it('shows the topic’s tree with the current page revealed, its folder open and the others closed', async () => {
    const page = await openPage(DESKTOP);
    await openSubject(page, '/handbook/many/item-15/');
    const rows = await treeRows(page);
    expect(rows.slice(0, 6)).toEqual(['content-features (closed)', 'files (closed)', 'guides (closed)', 'img (closed)', 'many (open)', 'Item 01']);
    expect(rows).toContain('Item 15 (current)');
    expect(rows.slice(-3)).toEqual(['notes', 'search (closed)', 'Welcome aboard']);
    // The current row is inside the tree's view, and the sidebar is beside the content.
    const { row, tree, sidebar, main } = await page.evaluate(() => {
      const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().toJSON() as DOMRect;
      return { row: box('[role="treeitem"][aria-current="page"]'), tree: box('.nav-tree'), sidebar: box('aside.sidebar'), main: box('main') };
    });
    expect(row.top).toBeGreaterThanOrEqual(tree.top);
    expect(row.bottom).toBeLessThanOrEqual(tree.bottom);
    expect(sidebar.right).toBeLessThanOrEqual(main.left);
  });

  it('keeps the tree out of the page’s HTML: the page links only its topic and its neighbours', () => {
    const html = fs.readFileSync(path.join(site.dist(), 'handbook/many/item-15/index.html'), 'utf8');
    // Pages of the topic (its markdown twin aside): the topic page, the folder's place on it, and the neighbours.
    const links = [...html.matchAll(/href="(\/handbook\/[^"]*)"/g)].map((m) => m[1]).filter((link) => !link!.endsWith('.md'));
    expect([...new Set(links)].sort()).toEqual(['/handbook/', '/handbook/#folder-many', '/handbook/many/item-14/', '/handbook/many/item-16/']);
    expect(html).toContain(`data-nav-url="${NAV_FILE}"`);
  });

  it('fetches the topic’s tree once across pages, and again when the kept copy disagrees with a page', async () => {
    const page = await openPage(DESKTOP);
    const fetched: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === NAV_FILE) fetched.push(new URL(request.url()).pathname);
    });
    await openSubject(page, '/handbook/many/item-15/');
    await page.locator('[role="treeitem"]', { hasText: 'Item 16' }).click();
    await page.waitForURL(url('/handbook/many/item-16/'));
    await page.locator('.nav-tree[data-ready="true"]').waitFor({ state: 'attached' });
    expect(await treeRows(page)).toContain('Item 16 (current)');
    await openSubject(page, '/handbook/guides/deploy/');
    expect(await treeRows(page)).toContain('Deploying (current)');
    expect(fetched).toEqual([NAV_FILE]);

    // A copy from an older build (item-17 under another title) is fetched again on item-17's page.
    await page.evaluate((key) => {
      const nav = JSON.parse(sessionStorage.getItem(key)!) as { entries: { title?: string; address?: string }[] };
      nav.entries.find((e) => e.address === 'many/item-17')!.title = 'Old title';
      sessionStorage.setItem(key, JSON.stringify(nav));
    }, `syllabus-nav:${NAV_FILE}`);
    await openSubject(page, '/handbook/many/item-17/');
    expect(fetched).toEqual([NAV_FILE, NAV_FILE]);
    expect(await treeRows(page)).toContain('Item 17 (current)');
  });

  it('is a keyboard tree: arrows, Home, End, Right and Left open, enter and close folders, Enter follows a link', async () => {
    const page = await openPage(DESKTOP);
    await openSubject(page, '/handbook/guides/deploy/');
    await page.locator('[role="treeitem"][aria-current="page"]').focus();
    expect(await page.locator('[role="treeitem"][tabindex="0"]').textContent()).toBe('Deploying');
    await page.keyboard.press('ArrowUp');
    expect(await focusedRow(page)).toBe('config');
    await page.keyboard.press('Home');
    expect(await focusedRow(page)).toBe('content-features');
    await page.keyboard.press('ArrowDown');
    expect(await focusedRow(page)).toBe('files');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('[role="treeitem"]', { hasText: 'files' }).getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowRight');
    expect(await focusedRow(page)).toBe('archive');
    await page.keyboard.press('ArrowLeft');
    expect(await focusedRow(page)).toBe('files');
    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('[role="treeitem"]', { hasText: 'files' }).getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('End');
    expect(await focusedRow(page)).toBe('Welcome aboard');
    // Only one row at a time is a Tab stop.
    expect(await page.locator('[role="treeitem"][tabindex="0"]').count()).toBe(1);
    await page.keyboard.press('Enter');
    await page.waitForURL(url('/handbook/welcome/'));
  });

  it('draws only the rows in view of a 5,000-subject topic, and draws others as it scrolls', async () => {
    const page = await openPage(DESKTOP);
    const entries: object[] = [];
    for (let f = 0; f < 50; f++) {
      entries.push({ folder: `f${f}`, depth: 0, count: 100 });
      for (let s = 0; s < 100; s++) entries.push({ title: `Subject ${f}-${s}`, address: `f${f}/s${s}`, depth: 1 });
    }
    // The page of many/item-15 is placed in folder f49 of the big topic.
    entries.push({ folder: 'many', depth: 0, count: 1 }, { title: 'Item 15', address: 'many/item-15', depth: 1 });
    await page.route(`**${NAV_FILE}`, (route) =>
      route.fulfill({ contentType: 'application/json', body: JSON.stringify({ version: 1, topic: 'handbook', title: 'Big', url: '/handbook/', entries }) }),
    );
    await page.goto(url('/handbook/many/item-15/'));
    await page.locator('.nav-tree[data-ready="true"]').waitFor({ state: 'attached' });
    const row = (name: string) => page.getByRole('treeitem', { name, exact: true });
    // Revealed at the end of the tree: the first folders are not drawn until the tree scrolls up.
    expect(await row('Item 15').getAttribute('aria-current')).toBe('page');
    await page.locator('.nav-tree').evaluate((tree) => (tree.scrollTop = 0));
    await row('f0').click();
    await row('Subject 0-3').waitFor();
    const drawn = () => page.locator('[role="treeitem"]').count();
    expect(await drawn()).toBeLessThan(80);
    expect(await row('Subject 0-3').evaluate((r) => [r.getAttribute('aria-level'), r.getAttribute('aria-posinset'), r.getAttribute('aria-setsize')])).toEqual(['2', '4', '100']);
    await page.locator('.nav-tree').evaluate((tree) => (tree.scrollTop = tree.scrollHeight));
    await row('f49').waitFor();
    expect(await row('Subject 0-1').count()).toBe(0);
    expect(await drawn()).toBeLessThan(80);
  });
});

describe('phones: the menu, the drawer and the table of contents', () => {
  it('opens the sidebar in a drawer from the menu button, keeps the focus in it, and closes it with Escape', async () => {
    const page = await openPage(PHONE);
    await openSubject(page, '/handbook/guides/deploy/');
    expect(await page.locator('aside.sidebar').isVisible()).toBe(false);
    const menu = page.locator('#nav-menu-button');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await menu.click();
    expect(await page.locator('#nav-drawer').evaluate((d: HTMLDialogElement) => d.open)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    expect(await focusedRow(page)).toBe('Deploying');
    expect(await page.locator('#nav-drawer [role="treeitem"][aria-current="page"]').isVisible()).toBe(true);
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.getElementById('nav-drawer')!.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    expect(await page.locator('#nav-drawer').evaluate((d: HTMLDialogElement) => d.open)).toBe(false);
    // The drawer's close event, which puts the sidebar back, is dispatched after the dialog has closed.
    await page.locator('aside.sidebar #topic-nav').waitFor({ state: 'attached' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('nav-menu-button');
    expect(await page.locator('aside.sidebar #topic-nav').count()).toBe(1);
  });

  it('folds the table of contents above the content on a phone, with the title near the top; opens it on a desktop', async () => {
    const phone = await openPage(PHONE);
    await phone.goto(url('/handbook/welcome/'));
    const toc = phone.locator('details#toc');
    expect(await toc.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    const boxes = await phone.evaluate(() => ({
      toc: document.getElementById('toc')!.getBoundingClientRect().top,
      content: document.querySelector('article h1')!.getBoundingClientRect().top,
    }));
    expect(boxes.toc).toBeLessThan(boxes.content);
    expect(boxes.content).toBeLessThan(260);
    await toc.locator('summary').click();
    expect(await toc.locator('a').first().isVisible()).toBe(true);

    const desktop = await openPage(DESKTOP);
    await desktop.goto(url('/handbook/welcome/'));
    expect(await desktop.locator('details#toc').evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    expect(await desktop.locator('#nav-menu-button').isVisible()).toBe(false);
  });
});

describe('the header', () => {
  it.each([
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const)('switches topics from a menu that shows the current one, listing only enabled topics (%s)', async (_size, size) => {
    const page = await openPage(size);
    await page.goto(url('/handbook/welcome/'));
    const switcher = page.locator('details.topic-switcher');
    expect(await switcher.locator('summary').textContent()).toBe('Topic: Team Handbook');
    await switcher.locator('summary').click();
    const links = switcher.locator('a');
    expect(await links.evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('aria-current')]))).toEqual([
      ['Team Handbook', '/handbook/', 'true'],
      ['On-call', '/oncall/', null],
    ]);
    expect(await links.first().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await switcher.evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    await switcher.locator('summary').click();
    await switcher.getByRole('link', { name: 'On-call' }).click();
    await page.waitForURL(url('/oncall/'));
    expect(await page.locator('details.topic-switcher summary').textContent()).toBe('Topic: On-call');
    await page.goto(url('/handbook/'));
    expect(await page.locator('details.topic-switcher summary').textContent()).toBe('Topic: Team Handbook');
    await page.goto(url('/'));
    expect(await page.locator('details.topic-switcher summary').textContent()).toBe('Topic: Topics');
  });

  it('shows the logo, the built-in favicon and the repository link', async () => {
    const page = await openPage(DESKTOP);
    await page.goto(url('/'));
    const logo = page.locator('header img.site-logo');
    expect(await logo.getAttribute('src')).toBe('/logo.png');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    expect(fs.readFileSync(path.join(site.dist(), 'logo.png'))).toEqual(fs.readFileSync(path.join(import.meta.dirname, '../fixtures/site/brand/logo.png')));
    expect(await page.locator('link[rel="icon"]').evaluate((l) => [l.getAttribute('type'), l.getAttribute('href')])).toEqual(['image/svg+xml', '/favicon.svg']);
    const repository = page.getByRole('link', { name: 'Repository' });
    expect(await repository.getAttribute('href')).toBe('https://example.test/acme/handbook');
  });
});

describe('for assistants and agents', () => {
  it('offers the page to ChatGPT and Claude with a prompt naming its markdown twin', async () => {
    const page = await openPage(DESKTOP);
    await page.goto(url('/handbook/guides/deploy/'));
    const menu = page.locator('details.open-in');
    await menu.locator('summary').click();
    const prompt = encodeURIComponent('Read https://handbook.example.test/handbook/guides/deploy.md and answer my questions about it.');
    expect(await menu.locator('a').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('target')]))).toEqual([
      ['ChatGPT', `https://chatgpt.com/?q=${prompt}`, '_blank'],
      ['Claude', `https://claude.ai/new?q=${prompt}`, '_blank'],
    ]);
  });

  it('shows and copies the MCP configuration that serves this site', async () => {
    const page = await openPage({ ...PHONE, permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(url('/handbook/welcome/'));
    await page.locator('details.agent-snippet summary').click();
    const expected = JSON.stringify(
      { mcpServers: { 'fixture-handbook': { command: 'npx', args: ['-y', 'syllabus-kb', 'mcp', '--remote', 'https://handbook.example.test/'] } } },
      null,
      2,
    );
    expect(await page.locator('#mcp-config').textContent()).toBe(expected);
    await page.getByRole('button', { name: 'Copy configuration' }).click();
    await expect.poll(() => page.locator('.snippet-status').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(expected);
  });
});

describe('accessibility of the shell', () => {
  it.each([
    ['desktop', 'light'],
    ['desktop', 'dark'],
    ['phone', 'light'],
    ['phone', 'dark'],
  ] as const)('a subject page with the sidebar open has no serious or critical violations (%s, %s)', async (size, scheme) => {
    const page = await openPage({ ...(size === 'phone' ? PHONE : DESKTOP), colorScheme: scheme });
    await openSubject(page, '/handbook/welcome/');
    // On a phone the open drawer is modal; on a desktop the topic switcher is opened too.
    if (size === 'phone') await page.locator('#nav-menu-button').click();
    else await page.locator('details.topic-switcher summary').click();
    const violations = await checkAccessibility(page);
    expect(violations.map(describeViolation)).toEqual([]);
  });
});
