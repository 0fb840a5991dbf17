/**
 * What Pagefind reads of a subject page, cut out of the page before it is sent: Pagefind indexes
 * only the element marked `data-pagefind-body` (its filter, meta and text are all on it or inside
 * it) and takes the language from `<html lang>`. Sending that alone, in a document of its own,
 * gives Pagefind the same index for a fraction of the bytes (a subject page is mostly navigation).
 */

/** The body marker the subject page puts on its `<article>` (src/pages/[topic]/[...address].astro). */
const BODY_START = /<article\b[^>]*\sdata-pagefind-body[\s=>]/g;

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
  const end = articleEnd(html, start.index);
  if (end === undefined) return html;
  return `<!DOCTYPE html>${htmlTag[0]}<head></head><body>${html.slice(start.index, end)}</body></html>`;
}

/**
 * Where the `<article>` opening at `from` ends (after its `</article>`), read tag by tag: quoted
 * attribute values (which may hold `<` and `>`), comments and nested articles are stepped over.
 */
function articleEnd(html: string, from: number): number | undefined {
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
    const name = /^<(\/?)([a-zA-Z][\w-]*)/.exec(html.slice(open, Math.min(end, open + 16)));
    if (name && name[2]!.toLowerCase() === 'article') {
      depth += name[1] === '/' ? -1 : 1;
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
