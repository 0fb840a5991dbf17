/**
 * A preview build (`syllabus build --base`): the /changes/ page and the banners, checked on the
 * built files and in real Chromium. The base is test/fixtures/site built as it is; the head is a
 * copy with a pull request's worth of edits, hidden and disabled ones included, which the
 * published preview must not show.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAccessibility, launchBrowser, serveDirectory, type StaticServer } from '../helpers/browser.ts';
import { ROOT, runCli, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'site');

let work: string;
let preview: string;
let headBuild: CliRun;
let server: StaticServer;
let browser: Browser;

/** The edits of the pull request: one of each kind of change, and some the preview must not show. */
function editHead(head: string): void {
  const append = (file: string, text: string) => fs.appendFileSync(path.join(head, file), text);
  append('handbook/guides/deploy.md', '\nRoll forward with `deploy --again`.\n');
  fs.writeFileSync(path.join(head, 'handbook/guides/oncall.md'), '# On call\n\nWho answers the pager.\n');
  fs.rmSync(path.join(head, 'handbook/many/item-30.md'));
  fs.renameSync(path.join(head, 'handbook/many/item-29.md'), path.join(head, 'handbook/many/item-29-renamed.md'));
  append('handbook/.secret/hidden-note.md', '\nHIDDENCHANGE_91c2 added to the hidden subject.\n');
  append('handbook/drafts/plan.md', '\nDISABLEDCHANGE_5e7d added to a disabled draft.\n');
  // A question of the pull request itself, its text untrusted (content/reference/evaluations.md, "In review").
  append('evals.toml', '\n[[question]]\nid = "roll-forward"\nask = "<img src=x onerror=alert(1)> How do I roll forward a deploy?"\nexpect = ["handbook/guides/deploy"]\n');
  const config = path.join(head, 'kb.toml');
  fs.writeFileSync(config, fs.readFileSync(config, 'utf8').replace('learned = ["welcome"]', 'learned = ["welcome", "notes"]'));
}

beforeAll(async () => {
  work = makeTree({});
  fs.cpSync(FIXTURE, path.join(work, 'base'), { recursive: true });
  fs.cpSync(FIXTURE, path.join(work, 'head'), { recursive: true });
  editHead(path.join(work, 'head'));
  await withKeptPages(path.join(work, 'base-cache'), 'site');
  await withKeptPages(path.join(work, 'head-cache'), 'site');
  const base = runCli(['build', '--config', 'base/kb.toml', '--out', 'base-dist', '--cache', 'base-cache'], { cwd: work });
  expect(base.code, base.stderr).toBe(0);
  // The base as an absolute path, as a workflow may give it: the machine's folders stay off the preview.
  headBuild = runCli(['build', '--config', 'head/kb.toml', '--out', 'preview', '--cache', 'head-cache', '--base', path.join(work, 'base-dist')], { cwd: work });
  expect(headBuild.code, headBuild.stderr).toBe(0);
  preview = path.join(work, 'preview');
  server = await serveDirectory(preview);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const read = (file: string): string => fs.readFileSync(path.join(preview, file), 'utf8');
const url = (pathname: string): string => `${server.url}${pathname}`;

/** The part of a page between two markers, both included. */
function between(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  expect(from, `missing ${start}`).toBeGreaterThanOrEqual(0);
  return html.slice(from, html.indexOf(end, from) + end.length);
}

describe('the preview build', () => {
  it('says what it compared, as a phase of the build', () => {
    expect(
      headBuild.stderr
        .split('\n')
        .find((line) => line.startsWith('changes'))
        ?.replace(/\d+\.\d s/, 'T s'),
    ).toBe(`changes   1 added, 1 removed, 1 changed, 1 moved against ${path.join(work, 'base-dist')}; questions: hit@3 0.67 → 0.67, MRR 0.50 → 0.50, none regressed (T s)`);
  });

  it('publishes no path of the machine that built it', () => {
    const found = fs.readdirSync(preview, { recursive: true, encoding: 'utf8' }).filter((name) => {
      const file = path.join(preview, name);
      return fs.statSync(file).isFile() && fs.readFileSync(file).includes(work);
    });
    expect(found).toEqual([]);
  });

  it('lists the changes of listed subjects on /changes/, each linked to its preview page', () => {
    const html = read('changes/index.html');
    expect(between(html, '<p class="changes-sides">', '</p>')).toBe('<p class="changes-sides">Compared with the base build.</p>');
    expect(between(html, '<ul class="changes-summary">', '</ul>')).toBe(
      '<ul class="changes-summary"><li><strong>1</strong> added</li><li><strong>1</strong> changed</li><li><strong>1</strong> moved</li><li><strong>1</strong> removed</li><li><strong>±0</strong> tokens (1,578 → 1,578)</li></ul>',
    );
    expect(between(html, '<section aria-labelledby="added">', '</section>')).toBe(
      '<section aria-labelledby="added"><h2 id="added">Added</h2><ul class="changes-list"><li id="change-handbook-guides--oncall"><a href="/handbook/guides/oncall/"><code>handbook/guides/oncall</code></a> · 9 tokens</li></ul></section>',
    );
    expect(between(html, '<section aria-labelledby="removed">', '</section>')).toBe(
      '<section aria-labelledby="removed"><h2 id="removed">Removed</h2><ul class="changes-list"><li><code>handbook/many/item-30</code> · 18 tokens</li></ul></section>',
    );
    expect(between(html, '<section aria-labelledby="learned">', '</section>')).toBe(
      '<section aria-labelledby="learned"><h2 id="learned">Pre-loading</h2><ul class="changes-list"><li id="change-handbook-notes"><a href="/handbook/notes/"><code>handbook/notes</code></a> is now pre-loaded (learned)</li></ul></section>',
    );
    expect(html).toContain(
      '<h3><code>handbook/many/item-29</code> → <a href="/handbook/many/item-29-renamed/"><code>handbook/many/item-29-renamed</code></a> <span class="change-tokens">±0 tokens</span></h3><p>Same content.</p>',
    );
  });

  it("shows how the head's questions fare on both sides, their text escaped", () => {
    // The head's set, asked of both sides: the deploy runbook grew, and so did the section (notes is pre-loaded now).
    expect(between(read('changes/index.html'), '<section aria-labelledby="questions">', '</section>')).toBe(
      '<section aria-labelledby="questions"><h2 id="questions">Questions</h2><p>How <code>find</code>, the <code>&lt;knowledge&gt;</code> section and <code>learn</code> lead to the answers of the preview&#39;s question set (3 questions).</p><table class="changes-eval-totals"><thead><tr><th scope="col">Figure</th><th scope="col">Base</th><th scope="col">Preview</th></tr></thead><tbody><tr><td>hit@1</td><td>0.33</td><td>0.33</td></tr><tr><td>hit@3</td><td>0.67</td><td>0.67</td></tr><tr><td>MRR</td><td>0.50</td><td>0.50</td></tr><tr><td>Mean tokens</td><td>554</td><td>582</td></tr></tbody></table><table class="changes-eval-questions"><thead><tr><th scope="col">Question</th><th scope="col">Change</th><th scope="col">Rank</th><th scope="col">In the top 3</th><th scope="col">Tokens</th></tr></thead><tbody><tr data-change="tokens"><td><code>deploy</code>: How do I deploy a release?</td><td>tokens</td><td>1 → 1</td><td>yes → yes</td><td>667 → 699 (+32)</td></tr><tr data-change="tokens"><td><code>pager</code>: Who answers the pager?</td><td>tokens</td><td>not found → not found</td><td>no → no</td><td>327 → 349 (+22)</td></tr><tr data-change="tokens"><td><code>roll-forward</code>: &lt;img src=x onerror=alert(1)&gt; How do I roll forward a deploy?</td><td>tokens</td><td>2 → 2</td><td>yes → yes</td><td>667 → 699 (+32)</td></tr></tbody></table></section>',
    );
  });

  it('highlights the line diff of a changed subject', () => {
    const section = between(read('changes/index.html'), '<section class="change" id="change-handbook-guides--deploy">', '</section>');
    expect(section).toContain('<h3><a href="/handbook/guides/deploy/"><code>handbook/guides/deploy</code></a> <span class="change-tokens">+');
    expect(section).toMatch(/<pre class="astro-code astro-code-themes github-light-default github-dark-default"[^>]*><code>/);
    const text = section.replace(/<[^>]+>/g, '').replaceAll('&#x60;', '`');
    expect(text).toContain('+Roll forward with `deploy --again`.');
  });

  it('shows no hidden or disabled change on the preview', () => {
    for (const canary of ['HIDDENCHANGE_91c2', 'DISABLEDCHANGE_5e7d']) {
      const found = fs.readdirSync(preview, { recursive: true, encoding: 'utf8' }).filter((name) => {
        const file = path.join(preview, name);
        return fs.statSync(file).isFile() && fs.readFileSync(file).includes(canary);
      });
      // The hidden subject's own addresses carry its content; nothing else does.
      expect(found.sort()).toEqual(
        canary === 'HIDDENCHANGE_91c2' ? ['handbook/secret/hidden-note.md', 'handbook/secret/hidden-note/index.html', 'kb/subjects/handbook/secret/hidden-note.json'] : [],
      );
    }
    const html = read('changes/index.html');
    expect(html).not.toContain('hidden-note');
    expect(html).not.toContain('drafts');
  });

  it('puts a banner on each changed page, and none on the others', () => {
    expect(between(read('handbook/guides/deploy/index.html'), '<p class="change-banner"', '</p>')).toBe(
      '<p class="change-banner" role="note" data-pagefind-ignore="all">This subject changed in this preview. <a href="/changes/#change-handbook-guides--deploy">See what changed</a></p>',
    );
    expect(between(read('handbook/many/item-29-renamed/index.html'), '<p class="change-banner"', '</p>')).toBe(
      '<p class="change-banner" role="note" data-pagefind-ignore="all">This subject moved here in this preview from <code>handbook/many/item-29</code>. <a href="/changes/#change-handbook-many--item-29-renamed">See what changed</a></p>',
    );
    expect(read('handbook/welcome/index.html')).not.toContain('change-banner');
    expect(read('handbook/secret/hidden-note/index.html')).not.toContain('change-banner');
  });

  it('builds no /changes/ page without --base', () => {
    expect(fs.existsSync(path.join(work, 'base-dist', 'changes'))).toBe(false);
  });
});

describe('/changes/ in a browser', () => {
  async function open(pathname: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await browser.newPage({ colorScheme });
    await page.goto(url(pathname));
    return page;
  }

  it('goes from a banner to the subject’s entry and from there back to its page', async () => {
    const page = await open('/handbook/guides/deploy/');
    await page.locator('.change-banner a').click();
    await page.waitForURL(url('/changes/#change-handbook-guides--deploy'));
    const entry = page.locator('#change-handbook-guides--deploy');
    expect(await entry.isVisible()).toBe(true);
    await entry.locator('h3 a').click();
    await page.waitForURL(url('/handbook/guides/deploy/'));
    expect(await page.locator('article.prose h1').textContent()).toBe('Deploying');
    await page.close();
  });

  it('colours added and removed lines, in light and in dark', async () => {
    const colours: Record<string, string> = {};
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open('/changes/', scheme);
      // The token inside the line (the line's own span has the block's colour).
      const added = page.locator('#change-handbook-guides--deploy pre span.line', { hasText: '+Roll forward' }).locator('span').first();
      colours[scheme] = await added.evaluate((element) => getComputedStyle(element).color);
      await page.close();
    }
    // Shiki's diff grammar colours inserted lines; the two themes differ.
    expect(colours['light']).not.toBe(colours['dark']);
    expect(colours['light']).not.toBe('rgb(31, 35, 40)');
  });

  it('has no serious accessibility problem', async () => {
    const page = await open('/changes/');
    expect(await checkAccessibility(page)).toEqual([]);
    await page.close();
  });
});
