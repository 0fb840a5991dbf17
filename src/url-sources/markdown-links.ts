/**
 * Relative links of a fetched markdown page made absolute (content/reference/subject-formats.md: a
 * URL source is read away from its site, where its relative links would lead nowhere). Only the
 * destinations change: the rest of the text stays byte for byte as the page wrote it.
 */
import type { Nodes } from 'mdast';
import { parseMarkdown } from '../kb/markdown/parser.ts';

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Rewrites the destinations of links (`[text](url)`), images (`![alt](url)`) and definitions
 * (`[label]: url`) that are relative — neither absolute nor a bare `#fragment` — against
 * `pageUrl`: `docs/x.md` → `https://example.com/repo/docs/x.md`, `/about` →
 * `https://example.com/about`. A destination written with escapes or character references, which
 * cannot be found in the text as the parser read it, is left as written.
 */
export function absoluteMarkdownLinks(markdown: string, pageUrl: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  const visit = (node: Nodes): void => {
    if ((node.type === 'link' || node.type === 'image' || node.type === 'definition') && isRelative(node.url) && URL.canParse(node.url, pageUrl)) {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start !== undefined && end !== undefined) {
        const found = destinationIn(markdown.slice(start, end), node.url, node.type === 'definition');
        if (found) edits.push({ start: start + found.at, end: start + found.at + node.url.length, text: destination(new URL(node.url, pageUrl).href, found.bracketed) });
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(parseMarkdown(markdown));
  let out = markdown;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function isRelative(url: string): boolean {
  return url !== '' && !url.startsWith('#') && !SCHEME.test(url) && !url.startsWith('//');
}

/**
 * Where `url` is written as the destination in the source text of its node: after the last `](`
 * (a link or image) or the first `]:` (a definition), past white space and an optional `<`, and
 * followed by `>` (when it opened with `<`), or else by white space, `)` or the end. Undefined
 * when it is written otherwise.
 */
function destinationIn(source: string, url: string, definition: boolean): { at: number; bracketed: boolean } | undefined {
  const marker = definition ? source.indexOf(']:') : source.lastIndexOf('](');
  if (marker === -1) return undefined;
  let at = marker + 2;
  while (at < source.length && /\s/.test(source[at]!)) at++;
  const bracketed = source[at] === '<';
  if (bracketed) at++;
  if (!source.startsWith(url, at)) return undefined;
  const after = source[at + url.length];
  const closed = bracketed ? after === '>' : after === undefined || after === ')' || /\s/.test(after);
  return closed ? { at, bracketed } : undefined;
}

/** An absolute URL as a destination: in angle brackets (unless already inside them) when it holds parentheses. */
function destination(href: string, bracketed: boolean): string {
  const safe = href.replace(/[<>\s]/g, (c) => encodeURIComponent(c));
  return !bracketed && /[()]/.test(safe) ? `<${safe}>` : safe;
}
