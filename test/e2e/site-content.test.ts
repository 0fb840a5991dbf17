/**
 * What markdown and code look like on the built site of test/fixtures/site, in real Chromium
 * (content/guide/the-site.md, "Writing for the site" and "Code"): code blocks' copy buttons,
 * language labels, line numbers and wrap toggle; diagrams drawn from the site's own copy of
 * mermaid, loaded only where there is one; math typeset with fonts served by the site; tables and
 * long lines that scroll inside their box, never the page, on a phone, in light and dark;
 * accessibility of the showcase page.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { checkAccessibility } from '../helpers/browser.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { useSiteInBrowser } from '../helpers/site-in-browser.ts';

const SHOWCASE = '/handbook/content-features/showcase/';
const CODE_PAGE = '/handbook/content-features/schema/';
const SCHEMA = fs.readFileSync(path.join(ROOT, 'test/fixtures/site/handbook/content-features/schema.xsd'), 'utf8');
/** Drawing a diagram loads and runs mermaid, which takes seconds on a busy machine. */
const DRAWN = { timeout: 60_000 };

const site = useSiteInBrowser();
const { url } = site;
/** Every URL the current test's pages asked for. */
let requested: string[] = [];

afterEach(() => {
  requested = [];
});

/** A page of the site (see useSiteInBrowser), its requests recorded. */
async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
  const page = await site.openPage(options);
  page.on('request', (request) => requested.push(request.url()));
  return page;
}

/** A page allowed to use the clipboard. */
const clipboardPage = () => openPage({ permissions: ['clipboard-read', 'clipboard-write'] });

describe('code blocks', () => {
  it('labels every code block of a markdown page with its language, as written', async () => {
    const page = await openPage();
    await page.goto(url(SHOWCASE));
    expect(await page.locator('.code-frame .code-language').allTextContents()).toEqual(['ts', 'bash', 'xsd']);
    expect(await page.locator('.code-frame button.code-copy').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label')))).toEqual([
      'Copy ts code',
      'Copy bash code',
      'Copy xsd code',
    ]);
  });

  it('copies a block’s code with its copy button', async () => {
    const page = await clipboardPage();
    await page.goto(url(SHOWCASE));
    const button = page.locator('.code-frame').first().locator('button.code-copy');
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const greeting: string = 'hello';");
  });

  it('heads a code subject with its file name and language, numbers its lines, and copies the code without the numbers', async () => {
    const page = await clipboardPage();
    await page.goto(url(CODE_PAGE));
    expect(await page.locator('figure.code-block figcaption').evaluate((caption) => (caption as HTMLElement).innerText.split('\n'))).toEqual([
      'schema.xsd',
      'xsd',
      'Wrap lines',
      'Copy',
    ]);
    const code = SCHEMA.replace(/\n$/, '');
    const lines = code.split('\n').length;
    // The numbers are drawn by the page's CSS, one per line.
    const numbers = await page.locator('figure.code-block .line').evaluateAll((spans) => spans.map((span) => getComputedStyle(span, '::before').content));
    expect(numbers).toEqual(Array.from({ length: lines }, () => 'counter(line)'));
    // What a reader selects, and what the button copies, is the code alone.
    const selected = await page.locator('figure.code-block code').evaluate((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      return getSelection()!.toString();
    });
    expect(selected).toBe(code);
    await page.locator('figure.code-block button.code-copy').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });

  it('wraps long lines on demand, and remembers the choice on the next page', async () => {
    const page = await openPage({ viewport: { width: 390, height: 800 } });
    await page.goto(url(CODE_PAGE));
    const pre = page.locator('figure.code-block pre');
    const wrap = page.locator('button.code-wrap');
    const overflows = () => pre.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(await wrap.getAttribute('aria-pressed')).toBe('false');
    expect(await overflows()).toBe(true);
    await wrap.click();
    expect(await wrap.getAttribute('aria-pressed')).toBe('true');
    expect(await overflows()).toBe(false);
    await page.reload();
    expect(await wrap.getAttribute('aria-pressed')).toBe('true');
    expect(await overflows()).toBe(false);
    await wrap.click();
    await page.reload();
    expect(await wrap.getAttribute('aria-pressed')).toBe('false');
    expect(await overflows()).toBe(true);
  });
});

describe('diagrams and math', () => {
  it('draws a mermaid diagram with the site’s own copy of mermaid, again when the theme changes', async () => {
    const page = await openPage();
    await page.goto(url(SHOWCASE));
    const figure = page.locator('figure.diagram');
    await figure.locator('.diagram-svg svg').waitFor(DRAWN);
    expect(await figure.getAttribute('data-drawn')).toBe('true');
    expect(await figure.locator('pre').isHidden()).toBe(true);
    expect(await figure.locator('svg').textContent()).toContain('Review the pull request');
    const light = await figure.locator('.diagram-svg').innerHTML();
    await page.evaluate(() => (document.documentElement.dataset['theme'] = 'dark'));
    await expect.poll(() => figure.locator('.diagram-svg').innerHTML(), DRAWN).not.toBe(light);
    expect(requested.filter((address) => !address.startsWith(`${url('/')}`))).toEqual([]);
    expect(requested.some((address) => address.startsWith(`${url('/')}_syllabus/mermaid-`))).toBe(true);
  });

  it('loads neither mermaid nor KaTeX on pages without a diagram or math', async () => {
    const page = await openPage();
    for (const pathname of ['/handbook/welcome/', CODE_PAGE]) {
      await page.goto(url(pathname));
      await page.waitForLoadState('networkidle');
    }
    expect(requested.filter((address) => /\/_syllabus\/(?:mermaid|katex|diagrams)/.test(address))).toEqual([]);
    expect(requested.some((address) => address.includes('/_syllabus/code-blocks.'))).toBe(true);
  });

  it('typesets math with KaTeX’s fonts, served by the site', async () => {
    const page = await openPage();
    await page.goto(url(SHOWCASE));
    await page.evaluate(() => document.fonts.ready);
    expect(await page.locator('.prose .katex').count()).toBe(3);
    expect(await page.locator('.prose .katex-display').count()).toBe(2);
    expect(await page.locator('.prose .katex math annotation').allTextContents()).toEqual(['e^{i\\pi} + 1 = 0', '\\int_0^1 x^2 \\, dx = \\frac{1}{3}', '\\sqrt{a^2 + b^2}']);
    const loaded = await page.evaluate(() => [...document.fonts].filter((font) => font.family.startsWith('KaTeX') && font.status === 'loaded').map((font) => font.family));
    expect(loaded).toContain('KaTeX_Main');
    const fonts = requested.filter((address) => address.endsWith('.woff2'));
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((address) => !address.startsWith(`${url('/')}_syllabus/katex-`))).toEqual([]);
  });
});

describe('on a phone', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`never scrolls sideways, in ${theme}: tables and long lines scroll inside their box`, async () => {
      const page = await openPage({ viewport: { width: 390, height: 800 }, colorScheme: theme });
      for (const pathname of [SHOWCASE, CODE_PAGE]) {
        await page.goto(url(pathname));
        expect(await page.evaluate(() => document.documentElement.dataset['theme'])).toBe(theme);
        if (pathname === SHOWCASE) await page.locator('figure.diagram .diagram-svg svg').waitFor(DRAWN);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), pathname).toBe(true);
      }
      await page.goto(url(SHOWCASE));
      const table = page.locator('.prose table');
      expect(await table.evaluate((element) => element.scrollWidth > element.clientWidth && getComputedStyle(element).overflowX === 'auto')).toBe(true);
      await table.evaluate((element) => (element.scrollLeft = 10_000));
      expect(await table.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
      expect(await page.evaluate(() => scrollX)).toBe(0);
    });
  }
});

describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`the showcase page has no serious or critical axe violations, in ${theme}`, async () => {
      const page = await openPage({ colorScheme: theme });
      await page.goto(url(SHOWCASE));
      await page.locator('figure.diagram .diagram-svg svg').waitFor(DRAWN);
      expect(await checkAccessibility(page)).toEqual([]);
    });
  }
});
