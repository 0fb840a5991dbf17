/**
 * An HTML page to markdown, for URL sources (content/reference/subject-formats.md, "URL sources"):
 * the page's main content only, through the unified ecosystem's syntax trees (hast-util-from-html →
 * hast-util-to-mdast → mdast-util-to-markdown with GFM tables, strikethrough and task lists).
 */
import type { Element, ElementContent, Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';

/**
 * Elements dropped with everything inside them: scripts and styles, navigation, site furniture
 * (`nav`, `aside`, `footer`, and `header` unless it holds an `h1`, as articles' headers do),
 * forms and their controls, embedded frames and media, and anything marked `hidden` or
 * `aria-hidden="true"`.
 */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'link',
  'meta',
  'nav',
  'aside',
  'footer',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'label',
  'dialog',
  'iframe',
  'frame',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'svg',
  'math',
  'menu',
]);

/** What a converted page holds. */
export interface ConvertedPage {
  markdown: string;
  /** The page's `<title>`, white space collapsed; `''` when it has none. */
  title: string;
}

type Converters = {
  fromHtml: typeof import('hast-util-from-html').fromHtml;
  toMdast: typeof import('hast-util-to-mdast').toMdast;
  toMarkdown: typeof import('mdast-util-to-markdown').toMarkdown;
  gfmToMarkdown: typeof import('mdast-util-gfm').gfmToMarkdown;
};
let converters: Converters | undefined;

/** Loads the converter's libraries; call once before {@link htmlToMarkdown}. */
export async function loadHtmlConverter(): Promise<void> {
  if (converters) return;
  const [{ fromHtml }, { toMdast }, { toMarkdown }, { gfmToMarkdown }] = await Promise.all([
    import('hast-util-from-html'),
    import('hast-util-to-mdast'),
    import('mdast-util-to-markdown'),
    import('mdast-util-gfm'),
  ]);
  converters = { fromHtml, toMdast, toMarkdown, gfmToMarkdown };
}

/**
 * Converts an HTML page fetched from `pageUrl` (after redirects) to markdown:
 * - the main content is the first `<main>`, else the first element with `role="main"`, else the
 *   first `<article>`, else the `<body>`; the elements {@link DROPPED} lists are left out;
 * - links and images are made absolute against the page's `<base href>` or `pageUrl`; a link to
 *   anything but `http:`, `https:` or `mailto:` keeps only its text, and an image that is not
 *   `http(s)` (a `data:` one, say) is left out;
 * - when the main content has no level-1 heading, the page's `<title>` becomes one at the top, so
 *   that the subject is titled as the page is;
 * - the markdown uses ATX headings, `-` bullets, `*` emphasis and fenced code (the language of a
 *   `language-*` class kept); GFM tables stay tables.
 */
export function htmlToMarkdown(html: string, pageUrl: string): ConvertedPage {
  if (!converters) throw new Error('htmlToMarkdown called before loadHtmlConverter');
  const { fromHtml, toMdast, toMarkdown, gfmToMarkdown } = converters;
  const document = fromHtml(html);
  const title = collapse(textOf(findElement(document, (e) => e.tagName === 'title')));
  const baseHref = findElement(document, (e) => e.tagName === 'base' && typeof e.properties['href'] === 'string')?.properties['href'];
  const base = (typeof baseHref === 'string' && URL.canParse(baseHref, pageUrl) ? new URL(baseHref, pageUrl) : new URL(pageUrl)).href;
  const main =
    findElement(document, (e) => e.tagName === 'main') ??
    findElement(document, (e) => String(e.properties['role'] ?? '').toLowerCase() === 'main') ??
    findElement(document, (e) => e.tagName === 'article') ??
    findElement(document, (e) => e.tagName === 'body');
  const cleaned = main && cleanElement(main, base);
  const content: HastRoot = { type: 'root', children: cleaned ? [cleaned] : [] };
  const tree = toMdast(content) as MdastRoot;
  if (title !== '' && !hasLevelOneHeading(tree)) tree.children.unshift({ type: 'heading', depth: 1, children: [{ type: 'text', value: title }] });
  const markdown = toMarkdown(tree, { extensions: [gfmToMarkdown()], bullet: '-', emphasis: '*', strong: '*', rule: '-', fence: '`', fences: true, listItemIndent: 'one' });
  return { markdown: markdown.replace(/\s+$/, ''), title };
}

/** A copy of an element without what {@link DROPPED} lists, its links made absolute; undefined when dropped itself. */
function cleanElement(element: Element, base: string): Element | undefined {
  if (isDropped(element)) return undefined;
  const properties = { ...element.properties };
  let tagName = element.tagName;
  if (tagName === 'a') {
    const href = absolute(properties['href'], base, ['http:', 'https:', 'mailto:']);
    if (href === undefined) {
      // A link that cannot be followed from elsewhere keeps its text.
      tagName = 'span';
      delete properties['href'];
    } else {
      properties['href'] = href;
    }
  } else if (tagName === 'img') {
    const src = absolute(properties['src'], base, ['http:', 'https:']);
    if (src === undefined) return undefined;
    properties['src'] = src;
  }
  const children: ElementContent[] = [];
  for (const child of element.children) {
    if (child.type !== 'element') {
      if (child.type !== 'comment') children.push(child);
      continue;
    }
    const cleaned = cleanElement(child, base);
    if (cleaned) children.push(cleaned);
  }
  return { ...element, tagName, properties, children };
}

function isDropped(element: Element): boolean {
  const { tagName, properties } = element;
  if (tagName === 'header') return findElement(element, (e) => e.tagName === 'h1') === undefined;
  if (DROPPED.has(tagName)) return true;
  if (properties['hidden'] !== undefined && properties['hidden'] !== false) return true;
  return String(properties['ariaHidden'] ?? '') === 'true';
}

/** A URL property made absolute, or undefined when it is missing, invalid or of another scheme. */
function absolute(value: unknown, base: string, schemes: readonly string[]): string | undefined {
  if (typeof value !== 'string' || value.trim() === '' || !URL.canParse(value.trim(), base)) return undefined;
  const url = new URL(value.trim(), base);
  return schemes.includes(url.protocol) ? url.href : undefined;
}

/** The first element (depth first, document order) that `test` accepts. */
function findElement(node: HastNodes, test: (element: Element) => boolean): Element | undefined {
  if (node.type === 'element' && test(node)) return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children) {
    const found = findElement(child, test);
    if (found) return found;
  }
  return undefined;
}

function textOf(node: HastNodes | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value;
  return 'children' in node ? node.children.map(textOf).join('') : '';
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function hasLevelOneHeading(node: MdastNodes): boolean {
  if (node.type === 'heading' && node.depth === 1) return true;
  return 'children' in node && node.children.some((child) => hasLevelOneHeading(child));
}
