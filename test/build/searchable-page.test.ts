/**
 * What the build sends Pagefind of a subject page (src/build/searchable-page.ts): the `<html>` tag
 * and the article marked `data-pagefind-body`, cut out tag by tag, without what Pagefind ignores whole; and proof on the built site
 * fixture that Pagefind writes the very same index from that as from the whole pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchablePage } from '../../src/build/searchable-page.ts';
import { builtSiteFixture } from '../helpers/shared-build.ts';

const page = (article: string, after = '<nav>next</nav>'): string =>
  `<!DOCTYPE html><html lang="en" class="x"><head><title>T</title><meta name="a" content="b"></head><body><header>menu</header>${article}${after}</body></html>`;

describe('the document Pagefind reads of a page', () => {
  it('is the html tag and the marked article, whole', () => {
    const article = '<article class="prose" data-pagefind-body="" data-pagefind-filter="topic:Guide"><h1 data-pagefind-meta="title">A</h1><p>Text.</p></article>';
    expect(searchablePage(page(article))).toBe(`<!DOCTYPE html><html lang="en" class="x"><head></head><body>${article}</body></html>`);
  });

  it('steps over quoted attribute values, comments and nested articles', () => {
    const article = "<article data-pagefind-body><a title=\"</article> and 'quotes'\">x</a><!-- </article> --><article><p>inner</p></article><span data-x='a>b'>y</span></article>";
    expect(searchablePage(page(article, '<article>other</article>'))).toBe(`<!DOCTYPE html><html lang="en" class="x"><head></head><body>${article}</body></html>`);
  });

  it('leaves out the elements Pagefind ignores whole, nested ones of the same name included, and keeps the others', () => {
    const ignored = '<div class="meta" data-pagefind-ignore="all"><div>links</div><a title="</div>">x</a></div>';
    const kept = '<p data-pagefind-ignore>kept: indexed for filters</p><img data-pagefind-ignore="all" alt="no end tag">';
    const article = (inside: string): string => `<article data-pagefind-body><h1>A</h1>${inside}<p>Text.</p></article>`;
    expect(searchablePage(page(article(`${ignored}${kept}${ignored}`)))).toBe(`<!DOCTYPE html><html lang="en" class="x"><head></head><body>${article(kept)}</body></html>`);
    // Never ended: left in.
    const unended = '<div data-pagefind-ignore="all"><p>x</p>';
    expect(searchablePage(page(article(unended)))).toBe(`<!DOCTYPE html><html lang="en" class="x"><head></head><body>${article(unended)}</body></html>`);
  });

  it('is the page itself when no article is marked, or the marked one never ends', () => {
    const plain = page('<article class="prose"><p>Hidden subjects are not indexed.</p></article>');
    expect(searchablePage(plain)).toBe(plain);
    const unended = page('<article data-pagefind-body><p>cut', '');
    expect(searchablePage(unended)).toBe(unended);
  });

  it('gives Pagefind the same index as the whole pages of the built site', async () => {
    const dist = await builtSiteFixture();
    const pages = fs
      .readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('index.html'))
      .sort()
      .map((name) => ({ url: `/${path.dirname(name).split(path.sep).join('/')}/`, html: fs.readFileSync(path.join(dist, name), 'utf8') }))
      .filter((p) => p.html.includes('data-pagefind-body'));
    expect(pages.length).toBe(40);
    const pagefind = await import('pagefind');
    const indexOf = async (content: (html: string) => string) => {
      const { index } = await pagefind.createIndex({});
      for (const p of pages) {
        const added = await index!.addHTMLFile({ url: p.url, content: content(p.html) });
        expect(added.errors).toEqual([]);
      }
      const { files, errors } = await index!.getFiles();
      expect(errors).toEqual([]);
      return new Map(files.map((f) => [f.path, Buffer.from(f.content).toString('base64')]));
    };
    try {
      const whole = await indexOf((html) => html);
      const cut = await indexOf(searchablePage);
      expect([...cut.keys()].sort()).toEqual([...whole.keys()].sort());
      expect([...cut].filter(([file, bytes]) => whole.get(file) !== bytes).map(([file]) => file)).toEqual([]);
    } finally {
      await pagefind.close();
    }
  });
});
