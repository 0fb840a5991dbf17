/**
 * A fetched body to a URL source's content (src/url-sources/source-body.ts, html-to-markdown.ts):
 * HTML to markdown (main content only, furniture dropped, links absolute), markdown and plain
 * text kept, other types refused. Outputs asserted whole.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadHtmlConverter } from '../../src/url-sources/html-to-markdown.ts';
import { loadMarkdownParser } from '../../src/kb/index.ts';
import { convertBody } from '../../src/url-sources/source-body.ts';

beforeAll(() => Promise.all([loadHtmlConverter(), loadMarkdownParser()]));

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Getting started · Example Docs</title>
  <style>body { color: red }</style>
  <script>window.tracking = true;</script>
</head>
<body>
  <header class="site"><a href="/">Example</a><nav><a href="/docs/">Docs</a> <a href="/blog/">Blog</a></nav></header>
  <aside class="sidebar"><ul><li><a href="a.html">Sidebar link</a></li></ul></aside>
  <main>
    <h1>Getting <em>started</em></h1>
    <p>Read the <a href="../guide/install.html#linux">install guide</a>, <a href="javascript:void(0)">this button</a> and <a href="mailto:team@example.com">write to us</a>.</p>
    <img src="img/logo.png" alt="Logo"> <img src="data:image/png;base64,AAAA" alt="inline">
    <h2>Steps</h2>
    <ol><li>Install</li><li>Run <code>npm start</code></li></ol>
    <pre><code class="language-sh">npm install
npm start
</code></pre>
    <table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>port</td><td>4321</td></tr></tbody></table>
    <form action="/search"><input name="q"><button>Search</button></form>
    <div hidden>Hidden text</div>
    <p aria-hidden="true">Decoration</p>
    <script>alert('inline');</script>
    <!-- a comment -->
  </main>
  <footer><p>© 2026 Example</p></footer>
</body>
</html>`;

const URL_ = 'https://example.com/docs/start/index.html';

describe('convertBody', () => {
  it('converts an HTML page to markdown: main content only, scripts, styles, navigation, forms and footer dropped, links absolute', () => {
    expect(convertBody(Buffer.from(PAGE), 'text/html; charset=utf-8', URL_)).toEqual({
      ok: true,
      format: 'markdown',
      content: [
        '# Getting *started*',
        '',
        'Read the [install guide](https://example.com/docs/guide/install.html#linux), this button and [write to us](mailto:team@example.com).',
        '',
        '![Logo](https://example.com/docs/start/img/logo.png)',
        '',
        '## Steps',
        '',
        '1. Install',
        '2. Run `npm start`',
        '',
        '```sh',
        'npm install',
        'npm start',
        '```',
        '',
        '| Option | Default |',
        '| ------ | ------- |',
        '| port   | 4321    |',
      ].join('\n'),
    });
  });

  it('takes an article when there is no main, keeps its header when it holds the h1, and falls back to the <title> as h1', () => {
    const article =
      '<html><head><title>Post</title><base href="https://cdn.example.com/blog/"></head><body><nav>Menu</nav><article><header><h1>A post</h1><p>By Ana</p></header><p>See <a href="next.html">next</a>.</p></article><footer>f</footer></body></html>';
    expect(convertBody(Buffer.from(article), 'text/html', 'https://example.com/post')).toEqual({
      ok: true,
      format: 'markdown',
      content: '# A post\n\nBy Ana\n\nSee [next](https://cdn.example.com/blog/next.html).',
    });
    const untitled = '<html><head><title>\n  Release notes\n</title></head><body><header><p>Site</p></header><div role="main"><h2>2.0</h2><p>New things.</p></div></body></html>';
    expect(convertBody(Buffer.from(untitled), 'application/xhtml+xml', 'https://example.com/notes')).toEqual({
      ok: true,
      format: 'markdown',
      content: '# Release notes\n\n## 2.0\n\nNew things.',
    });
  });

  it('decodes by the charset of the header, else of the page', () => {
    const latin1 = Buffer.from('<html><head><meta charset="iso-8859-1"></head><body><p>Caf\xe9</p></body></html>', 'latin1');
    expect(convertBody(latin1, 'text/html', 'https://example.com/')).toEqual({ ok: true, format: 'markdown', content: 'Café' });
    expect(convertBody(Buffer.from('Caf\xe9', 'latin1'), 'text/plain; charset=ISO-8859-1', 'https://example.com/a')).toEqual({ ok: true, format: 'text', content: 'Café' });
  });

  it('keeps markdown as it is but for its relative links, made absolute; text/plain at a .md path is markdown', () => {
    const markdown = [
      '# Title\r',
      '\r',
      'See [the docs](docs/x.md), [about](/about "About"), [abs](https://a.example/c), [a section](#install) and <https://auto.example/>.',
      '![logo](img/logo.png) [![badge](badge.svg)](../CONTRIBUTING.md) [spaced](<my notes.md>) [paren](a(1).md) [escaped](a\\_b.md)',
      '',
      '[ref]: ./ref/target.md "Title"',
      '',
      '```',
      '[in code](stays.md)',
      '```',
      '',
    ].join('\n');
    const absolute = [
      '# Title\r',
      '\r',
      'See [the docs](https://raw.example.com/acme/main/docs/x.md), [about](https://raw.example.com/about "About"), [abs](https://a.example/c), [a section](#install) and <https://auto.example/>.',
      '![logo](https://raw.example.com/acme/main/img/logo.png) [![badge](https://raw.example.com/acme/main/badge.svg)](https://raw.example.com/acme/CONTRIBUTING.md) [spaced](<https://raw.example.com/acme/main/my%20notes.md>) [paren](<https://raw.example.com/acme/main/a(1).md>) [escaped](a\\_b.md)',
      '',
      '[ref]: https://raw.example.com/acme/main/ref/target.md "Title"',
      '',
      '```',
      '[in code](stays.md)',
      '```',
      '',
    ].join('\n');
    expect(convertBody(Buffer.from(markdown), 'text/markdown; charset=utf-8', 'https://raw.example.com/acme/main/README')).toEqual({
      ok: true,
      format: 'markdown',
      content: absolute,
    });
    expect(convertBody(Buffer.from(markdown), 'text/plain', 'https://raw.example.com/acme/main/README.MD')).toEqual({ ok: true, format: 'markdown', content: absolute });
    expect(convertBody(Buffer.from('[rel](docs/x.md)'), 'text/plain', 'https://example.com/notes.txt')).toEqual({ ok: true, format: 'text', content: '[rel](docs/x.md)' });
    expect(convertBody(Buffer.from('\uFEFFplain\n'), 'text/plain', 'https://example.com/notes.txt')).toEqual({ ok: true, format: 'text', content: 'plain\n' });
  });

  it('refuses other types, a missing type and binary bodies, saying what to do', () => {
    expect(convertBody(Buffer.from('x'), 'application/pdf', URL_)).toEqual({
      ok: false,
      problem: 'the server sent application/pdf, not HTML, markdown or plain text',
      fix: 'List a web page, a markdown file or a text file.',
    });
    expect(convertBody(Buffer.from('x'), undefined, URL_)).toEqual({
      ok: false,
      problem: 'the server sent no Content-Type',
      fix: 'List a web page, a markdown file or a text file.',
    });
    expect(convertBody(Buffer.from([0x89, 0x50, 0x00, 0x01]), 'text/plain', URL_)).toEqual({
      ok: false,
      problem: 'the body is binary although the server calls it text/plain',
      fix: 'List a web page, a markdown file or a text file.',
    });
  });
});
