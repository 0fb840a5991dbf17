/**
 * Which URLs the sanitiser keeps in rendered markdown (isSafeUrl in src/astro/markdown-plugins.ts,
 * SPEC 6: no `javascript:` URLs unless `[site] allow_html = true`).
 */
import { describe, expect, it } from 'vitest';
import { isSafeUrl } from '../../../src/build/render/markdown-plugins.ts';

describe('isSafeUrl: kept in links and images', () => {
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
    ['upper-case https', 'HTTPS://EXAMPLE.COM'],
    ['mailto', 'mailto:someone@example.com'],
    ['tel', 'tel:+1-555-0100'],
    ['ftp', 'ftp://files.example.com/a'],
  ])('%s: %j', (_name, url) => {
    expect([isSafeUrl(url, false), isSafeUrl(url, true)]).toEqual([true, true]);
  });
});

describe('isSafeUrl: refused in links and images', () => {
  it.each([
    ['javascript', 'javascript:alert(1)'],
    ['upper case', 'JAVASCRIPT:alert(1)'],
    ['mixed case', 'JaVaScRiPt:alert(1)'],
    ['leading spaces', '   javascript:alert(1)'],
    ['leading control character', '\u0001javascript:alert(1)'],
    ['tab inside', 'java\tscript:alert(1)'],
    ['newline inside', 'java\nscript:alert(1)'],
    ['carriage return inside', 'jav\r\nascript:alert(1)'],
    ['space before the colon', 'javascript :alert(1)'],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['data HTML', 'data:text/html,<script>alert(1)</script>'],
    ['data HTML, base64', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['data SVG', 'data:image/svg+xml,<svg onload="alert(1)"/>'],
    ['data SVG, upper case', 'DATA:IMAGE/SVG+XML;base64,PHN2Zz4='],
    ['file', 'file:///etc/passwd'],
    ['an unknown scheme', 'custom-app:open'],
  ])('%s: %j', (_name, url) => {
    expect([isSafeUrl(url, false), isSafeUrl(url, true)]).toEqual([false, false]);
  });
});

describe('isSafeUrl: data:image/ only for images', () => {
  it.each([
    ['png', 'data:image/png;base64,iVBORw0KGgo='],
    ['jpeg, upper case', 'DATA:IMAGE/JPEG;base64,/9j/4AAQ'],
    ['gif', 'data:image/gif;base64,R0lGODlh'],
    ['webp with a space before the scheme', ' data:image/webp;base64,UklGR'],
  ])('%s: %j', (_name, url) => {
    expect({ image: isSafeUrl(url, true), link: isSafeUrl(url, false) }).toEqual({ image: true, link: false });
  });

  it('a data URL that is not an image is refused for images too', () => {
    expect([isSafeUrl('data:text/plain,hi', true), isSafeUrl('data:,hi', true), isSafeUrl('data:application/pdf;base64,JVBER', true)]).toEqual([false, false, false]);
  });
});
