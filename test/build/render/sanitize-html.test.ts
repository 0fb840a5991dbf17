/**
 * What a subject's markdown and raw HTML may put in a page (src/build/render/sanitize-html.ts,
 * content/guide/writing-subjects.md): an allow-list, so that markup which would take over the
 * rest of the page is dropped and everything after it renders as usual; and what the renderer
 * itself emits (heading ids, highlighted code, links, GFM) survives it. Rendered through the
 * site's own renderer, so that the order of its stages is tested too. Whole output strings.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Element, Nodes } from 'hast';
import { defaultSchema } from 'hast-util-sanitize';
import { htmlToHast } from 'satteri';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CatalogSubject } from '../../../src/kb/catalog/catalog.ts';
import type { RenderContext } from '../../../src/build/render/markdown-plugins.ts';
import { CODE_THEMES, createMarkdownRenderer, type MarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';
import { createHtmlSanitizer, escapeUnclosedRawText, mayNeedRawTextGuard } from '../../../src/build/render/sanitize-html.ts';

const GUIDE = path.resolve('/kb/guide');
const FROM = path.join(GUIDE, 'start.md');

/** A site with one topic, `guide`, whose `start.md` the test documents are rendered as. */
function siteContext(allowHtml: boolean): RenderContext {
  const from = { topic: 'guide', slug: 'start', address: 'start', path: 'start.md', file: FROM, learning: null, source: null } as unknown as CatalogSubject;
  return {
    allowHtml,
    base: '/',
    linkTopics: [{ id: 'guide', dir: GUIDE }],
    byFile: new Map([[FROM, from]]),
    rawUrls: new Map([[path.join(GUIDE, 'img/logo.png'), '/raw/guide/img/logo/logo.png']]),
  };
}

let sanitised: MarkdownRenderer;
let trusted: MarkdownRenderer;
let sanitizeHtml: (html: string) => string;
beforeAll(async () => {
  [sanitised, trusted, sanitizeHtml] = await Promise.all([
    createMarkdownRenderer(() => siteContext(false)),
    createMarkdownRenderer(() => siteContext(true)),
    createHtmlSanitizer(CODE_THEMES),
  ]);
});

const render = (markdown: string) => sanitised.render(markdown, pathToFileURL(FROM));
const html = async (markdown: string) => (await render(markdown)).html;

const REST = '<p>After <em>this</em>.</p>\n<h2 id="next">Next</h2>';

describe('markup that would change how the rest of the page is read', () => {
  // [tag, on its own line, inside a paragraph]
  it.each([
    ['plaintext', `<p>Before.</p>\n&lt;plaintext&gt;\n${REST}\n`, `<p>Before &lt;plaintext&gt; inline.</p>\n${REST}\n`],
    ['xmp', `<p>Before.</p>\n&lt;xmp&gt;\n${REST}\n`, `<p>Before &lt;xmp&gt; inline.</p>\n${REST}\n`],
    ['noembed', `<p>Before.</p>\n&lt;noembed&gt;\n${REST}\n`, `<p>Before &lt;noembed&gt; inline.</p>\n${REST}\n`],
    ['noframes', `<p>Before.</p>\n&lt;noframes&gt;\n${REST}\n`, `<p>Before &lt;noframes&gt; inline.</p>\n${REST}\n`],
    ['iframe', `<p>Before.</p>\n&lt;iframe&gt;\n${REST}\n`, `<p>Before &lt;iframe&gt; inline.</p>\n${REST}\n`],
    ['title', `<p>Before.</p>\n&lt;title&gt;\n${REST}\n`, `<p>Before &lt;title&gt; inline.</p>\n${REST}\n`],
    // A line starting with <script>, <style> or <textarea> opens an HTML block that CommonMark
    // ends only at the end tag: the rest of the document is that block's HTML, markdown unparsed.
    ['script', `<p>Before.</p>\n&lt;script&gt;\n\nAfter *this*.\n\n## Next\n`, `<p>Before &lt;script&gt; inline.</p>\n${REST}\n`],
    ['style', `<p>Before.</p>\n&lt;style&gt;\n\nAfter *this*.\n\n## Next\n`, `<p>Before &lt;style&gt; inline.</p>\n${REST}\n`],
    ['textarea', `<p>Before.</p>\n&lt;textarea&gt;\n\nAfter *this*.\n\n## Next\n`, `<p>Before &lt;textarea&gt; inline.</p>\n${REST}\n`],
    ['listing', `<p>Before.</p>\n${REST}\n`, `<p>Before </p> inline.<p></p>\n${REST}\n`],
    ['noscript', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.</p>\n${REST}\n`],
    ['svg', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.</p>\n${REST}\n`],
    ['math', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.</p>\n${REST}\n`],
    // Unclosed, these hold the rest of the document; unwrapped, it renders as markup inside the paragraph.
    ['template', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.\n${REST}</p>\n`],
    ['object', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.<p></p>\n${REST}</p>\n`],
    ['select', `<p>Before.</p>\n\n${REST}\n`, `<p>Before  inline.<p></p>\n${REST}</p>\n`],
  ])('an unclosed <%s> is dropped or shown as text, never taking what follows', async (tag, ownLine, inParagraph) => {
    const alone = await render(`Before.\n\n<${tag}>\n\nAfter *this*.\n\n## Next\n`);
    expect(alone.html).toBe(ownLine);
    expect(await html(`Before <${tag}> inline.\n\nAfter *this*.\n\n## Next\n`)).toBe(inParagraph);
    if (!['script', 'style', 'textarea'].includes(tag)) expect(alone.headings).toEqual([{ depth: 2, slug: 'next', text: 'Next' }]);
  });

  it('reads raw-text start tags in any case', async () => {
    expect(await html('Before.\n\n<PlainText>\n\nAfter *this*.')).toBe('<p>Before.</p>\n&lt;PlainText&gt;\n<p>After <em>this</em>.</p>\n');
    expect(await html('Before <XMP> inline.\n\nAfter *this*.')).toBe('<p>Before &lt;XMP&gt; inline.</p>\n<p>After <em>this</em>.</p>\n');
  });

  it('a closed <script>, <style> or <iframe> is removed with its content', async () => {
    expect(await html('Before.\n\n<script>alert("xss")</script>\n\nAfter *this*.')).toBe('<p>Before.</p>\n\n<p>After <em>this</em>.</p>\n');
    expect(await html('<style>body { display: none }</style>\n\nAfter *this*.')).toBe('\n<p>After <em>this</em>.</p>\n');
    expect(await html('<iframe src="https://evil.example/"></iframe>\n\nAfter *this*.')).toBe('\n<p>After <em>this</em>.</p>\n');
  });

  it('<svg> and <math> go with their scripts; their text stays', async () => {
    expect(await html('<svg>\n<script>alert(1)</script>\n<circle r="1"/>\n</svg>\n\nAfter *this*.')).toBe('\n\n\n\n<p>After <em>this</em>.</p>\n');
    expect(await html('Inline <math><mi>x</mi></math> and <svg><a href="javascript:alert(1)">link</a></svg>.')).toBe('<p>Inline x and <a>link</a>.</p>\n');
  });

  it('parser tricks end as inert text or attributes', async () => {
    expect(await html('Text <noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>')).toBe(
      '<p>Text </p><p title="</noscript><img src=x onerror=alert(1)>"></p><p></p>\n',
    );
    expect(await html('<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>')).toBe('<p>&lt;style&gt;<img src="x"><p></p><table></table></p>\n');
    expect(await html('<textarea>a <b>b</b></textarea> <title>t</title>\n\nAfter')).toBe('a &lt;b&gt;b&lt;/b&gt; t\n<p>After</p>\n');
  });
});

describe('mayNeedRawTextGuard', () => {
  it('is true for a source holding a raw-text start tag, in any case, and false for one without', () => {
    for (const source of ['<script>', 'a <XMP', '<PlainText class="x">', '> <iframe\n> src="x">', '`<style>` in code too']) expect(mayNeedRawTextGuard(source)).toBe(true);
    for (const source of ['plain text', '<b>bold</b> <span>', 'a < b and c > d', '&lt;script>']) expect(mayNeedRawTextGuard(source)).toBe(false);
  });
});

describe('escapeUnclosedRawText', () => {
  it.each([
    ['<plaintext>', '&lt;plaintext>'],
    ['<PlainText class="x">rest', '&lt;PlainText class="x">rest'],
    ['<plaintext>a</plaintext>', '&lt;plaintext>a</plaintext>'],
    ['<xmp>', '&lt;xmp>'],
    ['<xmp/>', '&lt;xmp/>'],
    ['<xmp>kept</xmp>', '<xmp>kept</xmp>'],
    ['<script src="x.js"></script>', '<script src="x.js"></script>'],
    ['<SCRIPT>a</Script >', '<SCRIPT>a</Script >'],
    ['<script>a</scripts>', '&lt;script>a</scripts>'],
    // Inside a closed element the parser reads text: a start tag there is not one.
    ['<script>"<style>"</script><style>', '<script>"<style>"</script>&lt;style>'],
    ['<xmp>a</xmp><xmp>b', '<xmp>a</xmp>&lt;xmp>b'],
    ['<xmp><xmp><xmp>', '&lt;xmp>&lt;xmp>&lt;xmp>'],
    ['<xmp><xmp></xmp>', '<xmp><xmp></xmp>'],
    ['<style>a</style><script>b</style>', '<style>a</style>&lt;script>b</style>'],
    ['<iframe\n  src="x">', '&lt;iframe\n  src="x">'],
    ['<textarea', '&lt;textarea'],
    ['<scripts>', '<scripts>'],
    ['<b>bold</b>', '<b>bold</b>'],
  ])('%j → %j', (raw, escaped) => {
    expect(escapeUnclosedRawText(raw)).toBe(escaped);
  });
});

describe('attributes outside the allow-list', () => {
  it('event handlers, styles and classes are removed; the elements stay', async () => {
    expect(await html('<img src="a.png" alt="A" onerror="alert(1)"> <a href="https://example.com/" onclick="alert(1)" onmouseover="x">link</a>')).toBe(
      '<p><img src="a.png" alt="A"> <a href="https://example.com/">link</a></p>\n',
    );
    expect(await html('<div style="position: fixed; inset: 0" class="site-header" title="t" onclick="x">over</div>')).toBe('<div title="t">over</div>\n');
    expect(await html('<a href="https://x.example/" target="_blank" rel="noopener" style="color:red">x</a>')).toBe('<p><a href="https://x.example/">x</a></p>\n');
  });

  it("Shiki's style variables and KaTeX's lengths and colours are allowed only as they write them", async () => {
    expect(
      await html(
        '<span style="--shiki-light:#f00;--shiki-dark:#0f0">ok</span> <span style="--shiki-light:url(https://evil.example/)">bad</span> <span style="color:red">katex</span> <span style="position:absolute;top:0">no</span> <span style="height:1em;background:url(https://evil.example/)">no</span> <span style="display:none">no</span>',
      ),
    ).toBe(
      '<p><span style="--shiki-light:#f00;--shiki-dark:#0f0">ok</span> <span>bad</span> <span style="color:red">katex</span> <span>no</span> <span>no</span> <span>no</span></p>\n',
    );
    expect(await html('<pre class="astro-code site-header" style="overflow-x: auto; position: fixed">p</pre>')).toBe('<pre class="astro-code">p</pre>\n');
  });

  it('an image cannot take a name, which would shadow the document’s own methods; an anchor can', async () => {
    expect(await html('<img name="getElementById" src="a.png"> <a name="old-anchor"></a>')).toBe('<p><img src="a.png"> <a name="old-anchor"></a></p>\n');
  });
});

describe('elements outside the allow-list', () => {
  it('<base>, <meta>, <link> are removed', async () => {
    expect(
      await html(
        '<base href="https://evil.example/">\n<meta http-equiv="refresh" content="0; url=https://evil.example/">\n<link rel="stylesheet" href="https://evil.example/x.css">\n\nAfter *this*.',
      ),
    ).toBe('\n\n\n<p>After <em>this</em>.</p>\n');
  });

  it('a form loses its form; an input can only be a disabled checkbox', async () => {
    expect(await html('<form action="https://evil.example/"><input type="text" name="q"><button formaction="https://evil.example/">Go</button></form>')).toBe(
      '<input disabled type="checkbox">Go\n',
    );
  });

  it('unknown elements are replaced by their content', async () => {
    expect(await html('<object data="x.swf"><embed src="x.swf"></object><blink>b</blink><x-widget data-x="1">custom</x-widget>')).toBe('<p>bcustom</p>\n');
  });

  it('comments are removed', async () => {
    expect(await html('<!-- a comment -->\n\nText.')).toBe('\n<p>Text.</p>\n');
  });
});

describe('URLs', () => {
  // As the renderer's output does, each fragment ends with a newline.
  const link = (url: string) => sanitizeHtml(`<a href="${url}">x</a>\n`).trimEnd();
  const image = (url: string) => sanitizeHtml(`<img src="${url}">\n`).trimEnd();

  it.each([
    ['relative file', 'b.md'],
    ['relative with dot segments', '../x/c.md#frag'],
    ['site-absolute', '/guide/intro/'],
    ['protocol-relative', '//cdn.example.com/a.png'],
    ['fragment', '#set-up'],
    ['query', '?q=1'],
    ['empty', ''],
    ['colon after a slash is a path, not a scheme', './note:1.md'],
    ['colon after a query is not a scheme', '?next=javascript:alert(1)'],
    ['http', 'http://example.com'],
    ['https', 'https://example.com/a?b#c'],
  ])('kept in links and images: %s, %j', (_name, url) => {
    expect([link(url), image(url)]).toEqual([`<a href="${url}">x</a>`, `<img src="${url}">`]);
  });

  it.each([
    ['mailto', 'mailto:someone@example.com'],
    ['tel', 'tel:+1-555-0100'],
    ['ftp', 'ftp://files.example.com/a'],
  ])('kept in links only: %s, %j', (_name, url) => {
    expect([link(url), image(url)]).toEqual([`<a href="${url}">x</a>`, '<img>']);
  });

  it.each([
    ['javascript', 'javascript:alert(1)'],
    ['upper case', 'JAVASCRIPT:alert(1)'],
    ['mixed case', 'JaVaScRiPt:alert(1)'],
    ['leading spaces', '   javascript:alert(1)'],
    ['leading control character', '&#x01;javascript:alert(1)'],
    ['tab inside', 'java&#x09;script:alert(1)'],
    ['newline inside', 'java&#x0A;script:alert(1)'],
    ['space before the colon', 'javascript :alert(1)'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['data HTML', 'data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['data HTML, base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['data SVG', 'data:image/svg+xml,&lt;svg onload=alert(1)/&gt;'],
    ['data SVG, upper case', 'DATA:IMAGE/SVG+XML;base64,PHN2Zz4='],
    ['file', 'file:///etc/passwd'],
    ['an unknown scheme', 'custom-app:open'],
    // Schemes are compared as written: an upper-case one is refused too.
    ['upper-case https', 'HTTPS://EXAMPLE.COM'],
  ])('refused in links and images: %s, %j', (_name, url) => {
    expect([link(url), image(url)]).toEqual(['<a>x</a>', '<img>']);
  });

  it.each([
    ['png', 'data:image/png;base64,iVBORw0KGgo='],
    ['gif', 'data:image/gif;base64,R0lGODlh'],
    ['webp', 'data:image/webp;base64,UklGR'],
  ])('a data:image/ URL is kept for images only: %s', (_name, url) => {
    expect([link(url), image(url)]).toEqual(['<a>x</a>', `<img src="${url}">`]);
  });

  it('a data URL that is not a raster image is refused for images too', () => {
    expect(['data:text/plain,hi', 'data:,hi', 'data:application/pdf;base64,JVBER'].map(image)).toEqual(['<img>', '<img>', '<img>']);
  });

  it('markdown links and images are held to the same list', async () => {
    expect(
      await html(
        '[a](javascript:alert(1)) [b](data:text/html,x) [c](https://ok.example/) [d](tel:+15550100) ![p](data:image/png;base64,iVBORw0KGgo=) ![s](data:image/svg+xml;base64,PHN2Zz4=)',
      ),
    ).toBe('<p><a>a</a> <a>b</a> <a href="https://ok.example/">c</a> <a href="tel:+15550100">d</a> <img src="data:image/png;base64,iVBORw0KGgo=" alt="p"> <img alt="s"></p>\n');
  });
});

/** Classic attacks, as raw HTML and as markdown. */
const PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
  'Inline <script>alert(1)</script> script.',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"/>',
  `<IMG SRC="javascript:alert('XSS');">`,
  `<IMG SRC=JaVaScRiPt:alert('XSS')>`,
  '<IMG SRC=&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;&#97;&#108;&#101;&#114;&#116;&#40;&#49;&#41;>',
  `<IMG SRC="jav&#x09;ascript:alert('XSS');">`,
  `<IMG SRC=" &#14;  javascript:alert('XSS');">`,
  '<img src=x:alert(1) onerror=eval(src)>',
  '<img srcset="javascript:alert(1)">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<svg><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>',
  '<math href="javascript:alert(1)">x</math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="#" onclick="alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '![x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '[x]: javascript:alert(1)\n\n[y][x]',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  "<style>@import 'https://evil.example/x.css';</style>",
  '<link rel=stylesheet href=https://evil.example/x.css>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<form action="javascript:alert(1)"><button>x</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>x</marquee>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<!--<img src="--><img src=x onerror=alert(1)//">',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<plaintext><img src=x onerror=alert(1)>',
  '<template><img src=x onerror=alert(1)></template>',
  '<x-widget onclick=alert(1)>click</x-widget>',
  '<div id="x" onmouseover="alert(1)">x</div>',
];

/** What a browser would find in `html` that could run code or restyle the page, by the rules the allow-list states. */
function unsafeParts(html: string): string[] {
  const found: string[] = [];
  const schemeOf = (url: string) => /^([^/?#]*?):/.exec(url)?.[1];
  const visit = (node: Nodes) => {
    if (node.type === 'element') {
      const element: Element = node;
      if (!defaultSchema.tagNames!.includes(element.tagName)) found.push(`<${element.tagName}>`);
      for (const [key, value] of Object.entries(element.properties)) {
        const text = String(value);
        if (/^on/i.test(key)) found.push(`${element.tagName}.${key}`);
        if (key === 'href' && schemeOf(text) !== undefined && !['http', 'https', 'mailto', 'tel', 'ftp', 'irc', 'ircs', 'xmpp'].includes(schemeOf(text)!))
          found.push(`href=${text}`);
        if (key === 'src' && schemeOf(text) !== undefined && !['http', 'https'].includes(schemeOf(text)!) && !/^data:image\/(?!svg)/.test(text)) found.push(`src=${text}`);
        if (key === 'style' && !['pre', 'span', 'td', 'th'].includes(element.tagName)) found.push(`${element.tagName}.style`);
      }
    }
    if ('children' in node) node.children.forEach(visit);
  };
  visit(htmlToHast(html, { fragment: true }));
  return found;
}

describe('attacks', () => {
  it('the oracle finds what it looks for', () => {
    expect(unsafeParts('<p onclick="x"><script>1</script><a href="javascript:x">a</a><img src="data:image/svg+xml,x"><b style="color:red">b</b></p>')).toEqual([
      'p.onClick',
      '<script>',
      'href=javascript:x',
      'src=data:image/svg+xml,x',
      'b.style',
    ]);
  });

  it.each(PAYLOADS.map((payload) => [payload]))('%j', async (payload) => {
    expect(unsafeParts(await html(payload))).toEqual([]);
    expect(unsafeParts(await html(`Before.\n\n${payload}\n\nAfter.`))).toEqual([]);
  });
});

describe('what the renderer emits survives', () => {
  it('headings keep their ids, and the table of contents links to them', async () => {
    const out = await render('# Start\n\n## Set up\n\n### Set up\n\n<h2 id="own-anchor">Own <em>anchor</em></h2>\n\n[Jump](#set-up-1) and [back](#own-anchor).');
    expect(out.html).toBe(
      '<h1 id="start">Start</h1>\n<h2 id="set-up">Set up</h2>\n<h3 id="set-up-1">Set up</h3>\n<h2 id="own-anchor">Own <em>anchor</em></h2>\n<p><a href="#set-up-1">Jump</a> and <a href="#own-anchor">back</a>.</p>\n',
    );
    expect(out.headings).toEqual([
      { depth: 1, slug: 'start', text: 'Start' },
      { depth: 2, slug: 'set-up', text: 'Set up' },
      { depth: 3, slug: 'set-up-1', text: 'Set up' },
      { depth: 2, slug: 'own-anchor', text: 'Own anchor' },
    ]);
    // The page's table of contents links to `#<slug>`: each has its target.
    for (const { slug } of out.headings) expect(out.html).toContain(` id="${slug}"`);
  });

  it("highlighted code keeps Shiki's classes, style variables, tab stop and language", async () => {
    const pre = (language: string) =>
      `<pre class="astro-code astro-code-themes github-light-default github-dark-default" style="--shiki-light:#1f2328;--shiki-dark:#e6edf3;--shiki-light-bg:#ffffff;--shiki-dark-bg:#0d1117; overflow-x: auto;" tabindex="0" data-language="${language}">`;
    expect(await html('```js\nconst a = 1;\n```\n\n```diff\n-old\n+new\n```\n\n```xsd\n<a/>\n```')).toBe(
      `${pre('js')}<code><span class="line"><span style="--shiki-light:#CF222E;--shiki-dark:#FF7B72">const</span><span style="--shiki-light:#0550AE;--shiki-dark:#79C0FF"> a</span><span style="--shiki-light:#CF222E;--shiki-dark:#FF7B72"> =</span><span style="--shiki-light:#0550AE;--shiki-dark:#79C0FF"> 1</span><span style="--shiki-light:#1F2328;--shiki-dark:#E6EDF3">;</span></span></code></pre>\n` +
        `${pre('diff')}<code><span class="line"><span style="--shiki-light:#82071E;--shiki-dark:#FFA198"><span style="user-select: none;">-</span>old</span></span>\n<span class="line"><span style="--shiki-light:#116329;--shiki-dark:#7EE787"><span style="user-select: none;">+</span>new</span></span></code></pre>\n` +
        `${pre('xml').replace('>', ' data-label="xsd">')}<code><span class="line"><span style="--shiki-light:#1F2328;--shiki-dark:#E6EDF3">&lt;</span><span style="--shiki-light:#116329;--shiki-dark:#7EE787">a</span><span style="--shiki-light:#1F2328;--shiki-dark:#E6EDF3">/&gt;</span></span></code></pre>\n`,
    );
  });

  it('links and images the link plugin rewrote to site URLs', async () => {
    expect(await html('See [next](next.md#part), [the folder](sub/), [away](https://example.com/a?b#c), ![Logo](img/logo.png "The logo") and ![Missing](img/missing.png).')).toBe(
      '<p>See <a href="/guide/next/#part">next</a>, <a href="/guide/#folder-sub">the folder</a>, <a href="https://example.com/a?b#c">away</a>, <img src="/raw/guide/img/logo/logo.png" alt="Logo" title="The logo"> and <img src="img/missing.png" alt="Missing">.</p>\n',
    );
  });

  it('GFM tables with their alignment, task lists with their checkboxes, strikethrough and footnotes', async () => {
    expect(await html('| Left | Centre | Right |\n| :--- | :----: | ----: |\n| a | b | c |\n\n- [ ] todo\n- [x] done\n\nA note.[^n] ~~gone~~\n\n[^n]: The *note*.')).toBe(
      '<table>\n<thead>\n<tr>\n<th style="text-align: left">Left</th>\n<th style="text-align: center">Centre</th>\n<th style="text-align: right">Right</th>\n</tr>\n</thead>\n' +
        '<tbody>\n<tr>\n<td style="text-align: left">a</td>\n<td style="text-align: center">b</td>\n<td style="text-align: right">c</td>\n</tr>\n</tbody>\n</table>\n' +
        '<ul class="contains-task-list">\n<li class="task-list-item"><input type="checkbox" disabled aria-label="todo"> todo</li>\n<li class="task-list-item"><input type="checkbox" checked disabled aria-label="done"> done</li>\n</ul>\n' +
        '<p>A note.<sup><a href="#user-content-fn-n" id="user-content-fnref-n" data-footnote-ref="" aria-describedby="footnote-label">1</a></sup> <del>gone</del></p>\n' +
        '<section data-footnotes="" class="footnotes"><h2 class="sr-only" id="footnote-label">Footnotes</h2>\n<ol>\n<li id="user-content-fn-n">\n' +
        '<p>The <em>note</em>. <a href="#user-content-fnref-n" data-footnote-backref="" aria-label="Back to reference 1" class="data-footnote-backref">↩</a></p>\n</li>\n</ol>\n</section>\n',
    );
  });

  it('details, pictures and the inline elements GitHub allows', async () => {
    expect(
      await html(
        '<details open><summary>More</summary>\n\nHidden *text*.\n\n</details>\n\n<picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="L" width="20"></picture> <kbd>Ctrl</kbd> <sub>2</sub><sup>3</sup> <ins>i</ins> <s>s</s>',
      ),
    ).toBe(
      '<details open><summary>More</summary>\n<p>Hidden <em>text</em>.</p>\n</details>\n<p><picture><source srcset="dark.png" media="(prefers-color-scheme: dark)"><img src="light.png" alt="L" width="20"></picture> <kbd>Ctrl</kbd> <sub>2</sub><sup>3</sup> <ins>i</ins> <s>s</s></p>\n',
    );
  });

  it('a page with nothing to remove comes out exactly as rendered', async () => {
    const markdown = '# Title\n\nSome *text* with `code`, a [link](next.md) and\n\n```sh\nnpm run build\n```\n\n| a |\n| - |\n| 1 |\n';
    const [safe, asWritten] = await Promise.all([render(markdown), trusted.render(markdown, pathToFileURL(FROM))]);
    expect(safe).toEqual(asWritten);
  });
});

describe('[site] allow_html = true', () => {
  it('keeps the HTML as written', async () => {
    const keep = async (markdown: string) => (await trusted.render(markdown, pathToFileURL(FROM))).html;
    expect(await keep('Before.\n\n<plaintext>\n\nAfter *this*.')).toBe('<p>Before.</p>\n<plaintext>\n<p>After <em>this</em>.</p></plaintext>\n');
    expect(await keep('<script>alert(1)</script>\n\n<div class="card" style="color: red" onclick="go()">x</div>')).toBe(
      '<script>alert(1)</script>\n<div class="card" style="color: red" onclick="go()">x</div>\n',
    );
  });
});
