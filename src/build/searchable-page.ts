/**
 * What Pagefind reads of a subject page, cut out of the page before it is sent: Pagefind indexes
 * only the element marked `data-pagefind-body` (its filter, meta and text are all on it or inside
 * it) and takes the language from `<html lang>`. Sending that alone, in a document of its own,
 * gives Pagefind the same index for a fraction of the bytes (a subject page is mostly navigation),
 * and so does leaving out the elements it ignores whole.
 */

/** The body marker the subject page puts on its `<article>` (src/pages/[topic]/[...address].astro). */
const BODY_START = /<article\b[^>]*\sdata-pagefind-body[\s=>]/g;

/**
 * An element Pagefind leaves out whole, filters and metadata included (`data-pagefind-ignore="all"`):
 * the subject page's line of links and buttons under the title, half of what it would be sent.
 */
const IGNORED_START = /<([a-zA-Z][\w-]*)\b[^>]*\sdata-pagefind-ignore="all"[^>]*>/g;

/**
 * The document Pagefind indexes of `html`: its `<html …>` tag and the `<article>` marked
 * `data-pagefind-body`, whole; `html` itself when the page has no such article (it is then indexed
 * as it is).
 */
export function searchablePage(html: string): string {
  const htmlTag = /<html\b[^>]*>/.exec(html);
  BODY_START.lastIndex = 0;
  const start = BODY_START.exec(html);
  if (!htmlTag || !start) return html;
  const end = elementEnd(html, start.index, 'article');
  if (end === undefined) return html;
  return `<!DOCTYPE html>${htmlTag[0]}<head></head><body>${withoutIgnored(html.slice(start.index, end))}</body></html>`;
}

/** HTML's elements that have no end tag. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** `article` without the elements Pagefind ignores whole; an element whose end is not found stays in. */
function withoutIgnored(article: string): string {
  let kept = '';
  let at = 0;
  IGNORED_START.lastIndex = 0;
  for (let found = IGNORED_START.exec(article); found; found = IGNORED_START.exec(article)) {
    const name = found[1]!.toLowerCase();
    // An element without an end tag is left in.
    const end = VOID_ELEMENTS.has(name) ? undefined : elementEnd(article, found.index, name);
    if (end === undefined) continue;
    kept += article.slice(at, found.index);
    at = end;
    IGNORED_START.lastIndex = end;
  }
  return at === 0 ? article : kept + article.slice(at);
}

/**
 * Where the element `name` opening at `from` ends (after its end tag), read tag by tag: quoted
 * attribute values (which may hold `<` and `>`), comments and nested elements of the same name are
 * stepped over.
 */
function elementEnd(html: string, from: number, name: string): number | undefined {
  let depth = 0;
  let at = from;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) return undefined;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      if (close === -1) return undefined;
      at = close + 3;
      continue;
    }
    const end = tagEnd(html, open);
    if (end === undefined) return undefined;
    const tag = /^<(\/?)([a-zA-Z][\w-]*)/.exec(html.slice(open, Math.min(end, open + name.length + 3)));
    if (tag && tag[2]!.toLowerCase() === name) {
      depth += tag[1] === '/' ? -1 : 1;
      if (depth === 0) return end;
    }
    at = end;
  }
  return undefined;
}

/** The index just after the `>` closing the tag that opens at `open`, quoted values stepped over. */
function tagEnd(html: string, open: number): number | undefined {
  let quote: string | undefined;
  for (let i = open + 1; i < html.length; i++) {
    const c = html[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      return i + 1;
    }
  }
  return undefined;
}
