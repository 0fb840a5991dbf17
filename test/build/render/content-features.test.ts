/**
 * What writers put in markdown, as the site renders it (content/reference/subject-formats.md,
 * "Alerts", "Math", "Diagrams"): GitHub alerts, math typeset by KaTeX, mermaid fences marked for
 * drawing, footnotes, task lists and tables; hostile input in each stays inert; and the files the
 * pages load for math and diagrams. Whole output strings, through the site's own renderer.
 */
import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { contentAssetPaths, katexStylesheet, listContentAssets } from '../../../src/build/content-assets.ts';
import { mayHoldAlert } from '../../../src/build/render/github-alerts.ts';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';
import { mayHoldMath } from '../../../src/build/render/math-formulas.ts';

let renderer: MarkdownRenderer;

beforeAll(async () => {
  renderer = await createMarkdownRenderer(() => ({ allowHtml: false, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() }));
});

const render = (markdown: string) => renderer.render(markdown);

/** KaTeX's typesetting of a lone `x`, inline, as the sanitised page holds it. */
const INLINE_X =
  '<span class="katex"><span class="katex-mathml"><math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x</annotation></semantics></math></span><span class="katex-html" aria-hidden="true"><span class="katex-base"><span class="katex-strut" style="height:0.4306em;"></span><span class="mathnormal">x</span></span></span></span>';

describe('GitHub alerts', () => {
  it.each([
    ['NOTE', 'note', 'Note'],
    ['TIP', 'tip', 'Tip'],
    ['IMPORTANT', 'important', 'Important'],
    ['WARNING', 'warning', 'Warning'],
    ['CAUTION', 'caution', 'Caution'],
  ])('[!%s] is a callout of its kind, titled as GitHub titles it', async (marker, kind, title) => {
    expect((await render(`> [!${marker}]\n> Read **this**.\n>\n> And this.`)).html).toBe(
      `<div class="callout callout-${kind}"><p class="callout-title">${title}</p><p>Read <strong>this</strong>.</p><p>And this.</p></div>\n`,
    );
  });

  it('reads the marker in any case, and a marker alone makes an empty callout', async () => {
    expect((await render('> [!note]\n> Lower case.')).html).toBe('<div class="callout callout-note"><p class="callout-title">Note</p><p>Lower case.</p></div>\n');
    expect((await render('> [!NOTE]')).html).toBe('<div class="callout callout-note"><p class="callout-title">Note</p></div>\n');
  });

  it('leaves a blockquote whose first line is not a marker alone, as GitHub does', async () => {
    expect((await render('> [!WARNING] Title here\n> Not an alert.')).html).toBe('<blockquote>\n<p>[!WARNING] Title here\nNot an alert.</p>\n</blockquote>\n');
    expect((await render('> Plain [!NOTE]\n> quote.')).html).toBe('<blockquote>\n<p>Plain [!NOTE]\nquote.</p>\n</blockquote>\n');
    expect((await render('> [!DANGER]\n> Unknown kind.')).html).toBe('<blockquote>\n<p>[!DANGER]\nUnknown kind.</p>\n</blockquote>\n');
  });

  it('reads a marker written with escapes or character references as the marker', async () => {
    const note = (text: string) => `<div class="callout callout-note"><p class="callout-title">Note</p><p>${text}</p></div>\n`;
    expect((await render('> [\\!NOTE]\n> Escaped bang.')).html).toBe(note('Escaped bang.'));
    expect((await render('> \\[!NOTE]\n> Escaped bracket.')).html).toBe(note('Escaped bracket.'));
    expect((await render('> &#91;!NOTE]\n> Reference.')).html).toBe(note('Reference.'));
    expect((await render('> &#x5B;&#x21;note&#93;\n> All references.')).html).toBe(note('All references.'));
  });

  it('mayHoldAlert is false only for a source that cannot hold a marker', () => {
    for (const source of ['> [!NOTE]', '> [\\!NOTE]', '> &#91;!NOTE]', 'a & b']) expect(mayHoldAlert(source)).toBe(true);
    for (const source of ['> A quote.', '> [NOTE]', '> [ !NOTE]', 'Wow!']) expect(mayHoldAlert(source)).toBe(false);
  });

  it('keeps hostile HTML inside an alert inert', async () => {
    expect((await render('> [!CAUTION]\n> <script>alert(1)</script><img src=x onerror="alert(2)">')).html).toBe(
      '<div class="callout callout-caution"><p class="callout-title">Caution</p><img src="x"></div>\n',
    );
  });
});

describe('math', () => {
  it('mayHoldMath is false only for a source without a dollar', () => {
    expect(mayHoldMath('Costs $5.')).toBe(true);
    expect(mayHoldMath('Costs 5 dollars, &#36;5.')).toBe(false);
  });

  it('typesets $…$ inline, into HTML for the eye and MathML for screen readers, and says the page needs KaTeX', async () => {
    expect(await render('An $x$ here.')).toEqual({ html: `<p>An ${INLINE_X} here.</p>\n`, headings: [], needs: { math: true } });
  });

  it('typesets $$…$$ and math fences as displays', async () => {
    const display = (await render('$$\nx\n$$')).html;
    expect(display).toBe(`<span class="katex-display">${INLINE_X.replace('<math>', '<math display="block">')}</span>\n`);
    expect((await render('```math\nx\n```')).html).toBe(display);
  });

  it('keeps dollars in prose as text: prices and shell variables are not math', async () => {
    for (const text of ['It costs $5 and $10 now.', 'echo $HOME $USER', 'between $5-$10 each']) {
      expect(await render(text)).toEqual({ html: `<p>${text}</p>\n`, headings: [] });
    }
  });

  it('makes nothing of a formula that asks for links, classes or markup', async () => {
    const html = (await render('$\\href{javascript:alert(1)}{x}$ $\\htmlClass{site-header}{y}$ $<img src=x onerror=alert(1)>$')).html;
    // The source stays readable, escaped, in each formula's annotation; nothing else names it.
    expect(html.replace(/<annotation [^>]*>[^<]*<\/annotation>/g, '')).not.toMatch(/href=|onerror=|<img|site-header/);
    expect(html).toContain('<annotation encoding="application/x-tex">\\href{javascript:alert(1)}{x}</annotation>');
    expect(html).toContain('<annotation encoding="application/x-tex">&lt;img src=x onerror=alert(1)&gt;</annotation>');
  });

  it("lets KaTeX's elements through only inside its spans: raw MathML and SVG elsewhere are dropped", async () => {
    expect((await render('Inline <math><mi>x</mi></math> and <svg><path d="M0 0"/></svg>.')).html).toBe('<p>Inline x and .</p>\n');
    expect((await render('<span class="katex" style="position:absolute;top:0" onclick="alert(1)"><math><maction href="javascript:alert(2)">y</maction></math></span>')).html).toBe(
      '<p><span class="katex"><math>y</math></span></p>\n',
    );
  });
});

describe('diagrams', () => {
  it('marks a mermaid fence for drawing, keeping its source, and says the page needs the diagram script', async () => {
    expect(await render('```mermaid\ngraph TD; A-->B\n```')).toEqual({
      html: '<figure class="diagram"><pre><code class="language-mermaid">graph TD; A--&gt;B\n</code></pre></figure>\n',
      headings: [],
      needs: { diagrams: true },
    });
  });

  it('keeps hostile labels as escaped text', async () => {
    expect((await render('```mermaid\nA["<img src=x onerror=alert(1)>"] --> B\n```')).html).toBe(
      '<figure class="diagram"><pre><code class="language-mermaid">A["&lt;img src=x onerror=alert(1)&gt;"] --&gt; B\n</code></pre></figure>\n',
    );
  });
});

describe('footnotes, task lists and tables', () => {
  it('links footnotes both ways, under a heading for screen readers', async () => {
    expect((await render('Claim.[^1]\n\n[^1]: Source.')).html).toBe(
      '<p>Claim.<sup><a href="#user-content-fn-1" id="user-content-fnref-1" data-footnote-ref="" aria-describedby="footnote-label">1</a></sup></p>\n' +
        '<section data-footnotes="" class="footnotes"><h2 class="sr-only" id="footnote-label">Footnotes</h2>\n<ol>\n<li id="user-content-fn-1">\n' +
        '<p>Source. <a href="#user-content-fnref-1" data-footnote-backref="" aria-label="Back to reference 1" class="data-footnote-backref">↩</a></p>\n</li>\n</ol>\n</section>\n',
    );
  });

  it('shows task lists as disabled checkboxes, each named by its item’s own text', async () => {
    expect((await render('- [ ] open *now*\n- [x] done\n  - [ ] nested')).html).toBe(
      '<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" disabled aria-label="open now"> open <em>now</em></li>\n' +
        '<li class="task-list-item"><input type="checkbox" checked disabled aria-label="done"> done\n<ul class="contains-task-list">\n' +
        '<li class="task-list-item"><input type="checkbox" disabled aria-label="nested"> nested</li>\n</ul>\n</li>\n</ul>\n',
    );
    expect((await render('- [ ] loose\n\n- [x] two')).html).toBe(
      '<ul class="contains-task-list">\n<li class="task-list-item">\n<p><input type="checkbox" disabled aria-label="loose"> loose</p>\n</li>\n' +
        '<li class="task-list-item">\n<p><input type="checkbox" checked disabled aria-label="two"> two</p>\n</li>\n</ul>\n',
    );
    // A checkbox written as HTML is no task list item: nothing names it for the writer.
    expect((await render('<input type="checkbox" onclick="alert(1)"> raw')).html).toBe('<p><input type="checkbox" disabled> raw</p>\n');
  });

  it('renders a table as a table (content.css makes it scroll inside its box)', async () => {
    expect((await render('| a |\n| - |\n| 1 |')).html).toBe('<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>\n');
  });
});

describe('the files pages load for math and diagrams', () => {
  it("publishes KaTeX's stylesheet naming WOFF2 fonts only, beside the fonts themselves", () => {
    expect(katexStylesheet('@font-face{src:url(fonts/A.woff2) format("woff2"),url(fonts/A.woff) format("woff"),url(fonts/A.ttf) format("truetype")}')).toBe(
      '@font-face{src:url(fonts/A.woff2) format("woff2")}',
    );
    const files = listContentAssets();
    const paths = files.map((file) => file.path);
    const { katexStylesheet: stylesheet, mermaid } = contentAssetPaths();
    expect(stylesheet).toMatch(/^_syllabus\/katex-\d+\.\d+\.\d+\/katex\.css$/);
    expect(mermaid).toMatch(/^_syllabus\/mermaid-\d+\.\d+\.\d+\/mermaid\.esm\.min\.mjs$/);
    const css = files.find((file) => file.path === stylesheet)!;
    const text = 'make' in css.body ? css.body.make() : '';
    const named = [...text.matchAll(/url\(([^)]*)\)/g)].map((match) => `${stylesheet.replace(/katex\.css$/, '')}${match[1]}`);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((font) => !font.endsWith('.woff2') || !paths.includes(font))).toEqual([]);
  });

  it("publishes mermaid's module with every chunk it imports", () => {
    const files = listContentAssets();
    const paths = new Set(files.map((file) => file.path));
    const { mermaid } = contentAssetPaths();
    const folder = mermaid.slice(0, mermaid.lastIndexOf('/') + 1);
    for (const file of files.filter((f) => f.path.startsWith(folder))) {
      const source = 'copy' in file.body ? fs.readFileSync(file.body.copy, 'utf8') : '';
      const base = file.path.slice(0, file.path.lastIndexOf('/') + 1);
      for (const [, target = ''] of source.matchAll(/(?:from|import)\s*\(?\s*"(\.\.?\/[^"]+)"/g)) {
        expect(paths.has(new URL(target, `https://x/${base}`).pathname.slice(1)), `${file.path} imports ${target}`).toBe(true);
      }
    }
  });
});
