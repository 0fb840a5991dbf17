/**
 * Finishing touches on a subject's rendered HTML (src/astro/rendered-html.ts): the leading h1 that
 * repeats the title is dropped, h2–h4 with ids get an anchor link. Whole output strings.
 */
import { describe, expect, it } from 'vitest';
import { finishSubjectHtml, textOf } from '../../../src/build/render/rendered-html.ts';
import { firstHeading } from '../../../src/kb/catalog/title.ts';

/** The finished HTML alone. */
const finish = (html: string, title: string): string => finishSubjectHtml(html, title).html;

const anchor = (id: string) => `<a class="heading-anchor" href="#${id}" aria-label="Link to this section" data-pagefind-ignore>#</a>`;

describe('textOf', () => {
  it.each([
    ['plain', 'plain'],
    ['  spaced  ', 'spaced'],
    ['a <code>b</code> <em>c</em>', 'a b c'],
    ['a &lt; b &amp;&amp; c &gt; d', 'a < b && c > d'],
    ['&quot;q&quot; &#39;s&#39; &#x27;t&#x27;', `"q" 's' 't'`],
    // Decoded once: an escaped entity stays an entity.
    ['&amp;lt;', '&lt;'],
    ['<a href="x">link</a><br/>', 'link'],
  ])('%j → %j', (html, text) => {
    expect(textOf(html)).toBe(text);
  });
});

describe('the leading h1', () => {
  it('is dropped when its text is the title', () => {
    expect(finish('<h1>Deploying</h1>\n<p>Text.</p>', 'Deploying')).toBe('<p>Text.</p>');
  });

  it('is dropped with its attributes, leading whitespace, and a title with surrounding spaces', () => {
    expect(finish('\n  <h1 id="deploying" class="x">Deploying</h1>\n\n<p>Text.</p>', '  Deploying ')).toBe('<p>Text.</p>');
  });

  it('is dropped when entities decode to the title', () => {
    expect(finish('<h1>Q&amp;A: a &lt; b</h1>\n<p>x</p>', 'Q&A: a < b')).toBe('<p>x</p>');
    expect(finish('<h1>&quot;Quotes&quot; &amp; &#39;apostrophes&#39;</h1><p>x</p>', `"Quotes" & 'apostrophes'`)).toBe('<p>x</p>');
  });

  it('is dropped when inline markup inside it has the title’s text', () => {
    expect(finish('<h1>The <em>big</em> picture</h1><p>x</p>', 'The big picture')).toBe('<p>x</p>');
  });

  it('is dropped when the title is the raw text of a first heading with inline code', () => {
    // A subject without front matter takes its title from its first `# ` heading, as written.
    const title = firstHeading('# The `learn` tool\n\nText.\n');
    // The loader says the title came from that heading; the page then shows the heading's own HTML.
    expect(finishSubjectHtml('<h1>The <code>learn</code> tool</h1>\n<p>Text.</p>', title!, true)).toEqual({ html: '<p>Text.</p>', titleHtml: 'The <code>learn</code> tool' });
  });

  it('is kept when its text differs from the title', () => {
    const html = '<h1>Something else</h1>\n<p>Text.</p>';
    expect(finish(html, 'Deploying')).toBe(html);
  });

  it('is kept when it is not first', () => {
    const html = '<p>Intro.</p>\n<h1>Deploying</h1>';
    expect(finish(html, 'Deploying')).toBe(html);
  });

  it('only the first h1 is dropped', () => {
    expect(finish('<h1>T</h1><h1>T</h1>', 'T')).toBe('<h1>T</h1>');
  });
});

describe('heading anchors', () => {
  it('h2, h3 and h4 with ids get an anchor link; h1, h5 and h6 do not', () => {
    const html = ['<h2 id="two">Two</h2>', '<h3 id="three">Three</h3>', '<h4 id="four">Four</h4>', '<h5 id="five">Five</h5>', '<h6 id="six">Six</h6>'].join('\n');
    expect(finish(`<p>x</p>\n<h1 id="one">One</h1>\n${html}`, 'Title')).toBe(
      [
        '<p>x</p>',
        '<h1 id="one">One</h1>',
        `<h2 id="two">Two${anchor('two')}</h2>`,
        `<h3 id="three">Three${anchor('three')}</h3>`,
        `<h4 id="four">Four${anchor('four')}</h4>`,
        '<h5 id="five">Five</h5>',
        '<h6 id="six">Six</h6>',
      ].join('\n'),
    );
  });

  it('keeps the other attributes and the inner markup', () => {
    expect(finish('<h2 class="a" id="set-up" data-x="1">Set <code>up</code></h2>', 'T')).toBe(`<h2 class="a" id="set-up" data-x="1">Set <code>up</code>${anchor('set-up')}</h2>`);
  });

  it('headings without ids are untouched', () => {
    const html = '<h2>Two</h2>\n<h3 class="x">Three</h3>\n<h4>Four</h4>';
    expect(finish(html, 'T')).toBe(html);
  });

  it('an attribute that only ends in "id" is not an id', () => {
    const html = '<h2 data-id="x">Two</h2>';
    expect(finish(html, 'T')).toBe(html);
  });

  it('after the leading h1 is dropped', () => {
    expect(finish('<h1>T</h1>\n<h2 id="a">A</h2>', 'T')).toBe(`<h2 id="a">A${anchor('a')}</h2>`);
  });

  it('is idempotent on input without headings', () => {
    const html = '<p>No headings <strong>here</strong>.</p>';
    expect(finish(html, 'T')).toBe(html);
  });
});
