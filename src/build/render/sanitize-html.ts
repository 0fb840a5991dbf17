/**
 * What a subject's markdown and raw HTML may put in a page, unless `[site] allow_html = true`
 * trusts the content (content/guide/writing-subjects.md, content/reference/configuration.md).
 * An allow-list: hast-util-sanitize with its copy of GitHub's schema, extended for exactly what
 * the renderer itself emits. The markdown renderer applies it to every rendering, so the built
 * site, the development server and a host site's integration and loader all show content through
 * this one module.
 */
import type { Nodes, Properties, Root } from 'hast';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import type { Html } from 'mdast';
import type { MdastPluginDefinition } from 'satteri';
import { createHastSerializer } from './hast-html.ts';
import { katexClasses } from './math-formulas.ts';
import { SITE_CLASSES } from './site-elements.ts';

/**
 * The elements whose start tag makes an HTML parser read everything after it as plain text, up
 * to their end tag or, for `plaintext`, to the end of the page: the tags of GFM's "disallowed raw
 * HTML" extension. No sanitiser can repair that afterwards: the markup is text by then.
 */
const RAW_TEXT_ELEMENTS = ['plaintext', 'script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes'];
const RAW_TEXT_START = `<(${RAW_TEXT_ELEMENTS.join('|')})(?=[\\s/>]|$)`;

/**
 * `html` (one piece of raw HTML in markdown) with the `<` of every raw-text start tag that the
 * piece does not close escaped, so that the tag shows as text instead of turning the rest of the
 * page into text. A start tag the piece closes is left for the allow-list, which removes it.
 * Linear in the length of `html`, whatever it holds.
 */
export function escapeUnclosedRawText(html: string): string {
  const endTag = (name: string) => new RegExp(`</${name}[\\s/>]`, 'gi');
  const lastEnds = new Map<string, number>();
  const lastEnd = (name: string): number => {
    if (!lastEnds.has(name)) {
      let last = -1;
      for (const end of html.matchAll(endTag(name))) last = end.index;
      lastEnds.set(name, last);
    }
    return lastEnds.get(name)!;
  };
  const starts = new RegExp(RAW_TEXT_START, 'gi');
  let out = '';
  let copied = 0;
  for (let start = starts.exec(html); start; start = starts.exec(html)) {
    const name = start[1]!.toLowerCase();
    const after = start.index + start[0].length;
    if (name !== 'plaintext' && lastEnd(name) >= after) {
      // Up to its end tag the element's content is text to the parser, tags included.
      const end = endTag(name);
      end.lastIndex = after;
      starts.lastIndex = end.exec(html)!.index;
    } else {
      out += `${html.slice(copied, start.index)}&lt;`;
      copied = start.index + 1;
    }
  }
  return out + html.slice(copied);
}

/** A raw-text start tag anywhere, whatever follows it: wider than {@link RAW_TEXT_START}. */
const RAW_TEXT_NAME = new RegExp(`<(?:${RAW_TEXT_ELEMENTS.join('|')})`, 'i');

/**
 * Whether the raw-text guard can change anything in `markdown`: false when its source holds no
 * raw-text start tag at all, since a piece of raw HTML is a slice of the source (a tag's name is
 * never split across lines).
 */
export function mayNeedRawTextGuard(markdown: string): boolean {
  return RAW_TEXT_NAME.test(markdown);
}

/**
 * An mdast plugin that applies {@link escapeUnclosedRawText} to every piece of raw HTML, before
 * the renderer parses the document's HTML as a whole.
 */
export function createRawTextGuardPlugin(): MdastPluginDefinition {
  return {
    name: 'syllabus-raw-text-guard',
    html(node: Readonly<Html>, ctx) {
      const value = escapeUnclosedRawText(node.value);
      if (value !== node.value) ctx.setProperty(node, 'value', value);
    },
  };
}

/** The CSS Shiki writes on code blocks and their tokens: its theme variables, scrolling, and unselectable diff markers. */
const SHIKI_STYLE =
  /^(?:\s*(?:--shiki-(?:light|dark)(?:-bg|-font-style|-font-weight|-text-decoration)?\s*:\s*[#\w-]+|overflow-x\s*:\s*auto|user-select\s*:\s*none)\s*(?:;|$))*\s*$/;
/**
 * The inline CSS KaTeX writes on its boxes: lengths, colours and `position: relative`, the
 * properties it sets and nothing else (no `position: absolute` or `fixed`, no `url()`, no `display`).
 */
const KATEX_STYLE = (() => {
  const value = String.raw`(?:-?(?:\d+\.?\d*|\.\d+)(?:em|ex|px|pt)?|#[\da-f]{3,8}|[a-z]+)`;
  const property = String.raw`(?:(?:min-)?width|height|vertical-align|top|bottom|left|margin(?:-left|-right|-top)?|padding-left|border(?:-top|-bottom|-right)?-width|border(?:-right)?-style|border-color|(?:background-)?color|text-shadow)`;
  const declaration = String.raw`\s*(?:${property}\s*:\s*${value}(?:\s+${value}){0,3}|position\s*:\s*relative)\s*`;
  return new RegExp(String.raw`^(?:${declaration};)*(?:${declaration})?$`, 'i');
})();
/** MathML's elements, as KaTeX writes them, and the attributes each may carry. */
const MATHML: Readonly<Record<string, readonly string[]>> = (() => {
  const presentation = ['mathvariant', 'displaystyle', 'scriptlevel', 'mathcolor', 'mathbackground'];
  const elements: Record<string, string[]> = {
    math: ['xmlns', 'display'],
    semantics: [],
    annotation: ['encoding'],
    mrow: [],
    mi: [],
    mn: [],
    mo: ['fence', 'separator', 'stretchy', 'symmetric', 'largeop', 'movablelimits', 'lspace', 'rspace', 'minsize', 'maxsize', 'form'],
    ms: [],
    mtext: [],
    mspace: ['width', 'height', 'depth', 'linebreak'],
    msup: [],
    msub: [],
    msubsup: [],
    mfrac: ['linethickness'],
    msqrt: [],
    mroot: [],
    mover: ['accent'],
    munder: ['accentunder'],
    munderover: ['accent', 'accentunder'],
    mtable: ['columnalign', 'rowalign', 'columnspacing', 'rowspacing', 'columnlines', 'rowlines', 'frame', 'framespacing', 'width', 'align', 'equalrows', 'equalcolumns', 'side'],
    mtr: ['columnalign', 'rowalign'],
    mtd: ['columnalign', 'rowalign', 'columnspan', 'rowspan'],
    mstyle: [],
    mpadded: ['width', 'height', 'depth', 'lspace', 'voffset'],
    mphantom: [],
    menclose: ['notation'],
    merror: [],
    mglyph: [],
    mprescripts: [],
    mmultiscripts: [],
    none: [],
  };
  return Object.fromEntries(Object.entries(elements).map(([tag, own]) => [tag, [...own, ...presentation]]));
})();
/** A GFM table column's alignment. */
const ALIGN_STYLE = /^\s*text-align\s*:\s*(?:left|center|right)\s*(?:;\s*)?$/;
/** An image URL that is not a `data:` URL (schemes are checked apart), or one of a raster image. */
const IMAGE_SOURCE = [/^(?!data:)/i, /^data:image\/(?!svg)/i];

/** The names of the code themes, which Shiki puts on every code block as classes. */
export interface CodeThemes {
  light: string;
  dark: string;
}

/** The allow-list: GitHub's schema, plus exactly what the renderer emits. */
export function sanitizeSchema(codeThemes: CodeThemes): Schema {
  const attributes = defaultSchema.attributes!;
  // The classes of the site's own elements (MDX components), added to what GitHub's schema allows on each element.
  const siteClasses = Object.fromEntries(
    Object.entries(SITE_CLASSES).map(([tag, classes]) => {
      const own = (attributes[tag] ?? []).filter((entry) => !(Array.isArray(entry) && entry[0] === 'className'));
      const allowed = (attributes[tag] ?? []).flatMap((entry) => (Array.isArray(entry) && entry[0] === 'className' ? entry.slice(1) : []));
      return [tag, [...own, ['className', ...allowed, ...classes]]];
    }),
  ) as Schema['attributes'];
  const katex = katexClasses();
  return {
    ...defaultSchema,
    tagNames: [...defaultSchema.tagNames!, 'figure', 'figcaption', ...Object.keys(MATHML), 'svg', 'path', 'line'],
    attributes: {
      ...attributes,
      ...siteClasses,
      ...MATHML,
      // KaTeX's drawings (roots, arrows, braces): paths and lines, no links, scripts or references.
      svg: ['xmlns', 'width', 'height', 'viewBox', 'preserveAspectRatio'],
      path: ['d'],
      line: ['x1', 'y1', 'x2', 'y2', 'strokeWidth'],
      // An image's `name` would shadow the document's own methods, which the site's scripts call.
      '*': attributes['*']!.filter((name) => name !== 'name'),
      a: [...attributes['a']!, 'name'],
      details: ['name', ['className', ...SITE_CLASSES.details]],
      // A task list's checkbox is named by its item's text (task-lists.ts).
      input: [...attributes['input']!, 'ariaLabel'],
      img: [...attributes['img']!.filter((name) => name !== 'src'), ['src', ...IMAGE_SOURCE]],
      pre: [['className', 'astro-code', 'astro-code-themes', codeThemes.light, codeThemes.dark], ['style', SHIKI_STYLE], 'dataLanguage', 'dataLabel'],
      span: [['className', 'line', ...SITE_CLASSES.span, ...katex], ['style', SHIKI_STYLE, KATEX_STYLE], 'ariaHidden'],
      td: [['style', ALIGN_STYLE]],
      th: [['style', ALIGN_STYLE]],
    },
    // Formulas and their drawings only where KaTeX puts them, inside its spans: never taking in what follows an unclosed tag.
    ancestors: {
      ...defaultSchema.ancestors,
      ...Object.fromEntries([...Object.keys(MATHML), 'svg', 'path', 'line'].map((tag) => [tag, ['span']])),
    },
    // Ids are kept as written: headings, footnotes and a writer's own anchors are linked to by them.
    clobber: [],
    protocols: {
      ...defaultSchema.protocols,
      href: [...defaultSchema.protocols!['href']!, 'tel', 'ftp'],
      src: [...defaultSchema.protocols!['src']!, 'data'],
    },
    strip: ['script', 'style'],
  };
}

/**
 * Makes the sanitiser: a function from a rendered HTML fragment to the same fragment with only what
 * the allow-list allows. The fragment is parsed as a browser parses it, so what is checked is what
 * the reader's browser would build; the result ends with a newline, as the renderer's output does.
 * Loads Sätteri (the Rust markdown processor) on first use, as the renderer does.
 */
export async function createHtmlSanitizer(codeThemes: CodeThemes): Promise<(html: string) => string> {
  const [{ htmlToHast }, serialize] = await Promise.all([import('satteri'), createHastSerializer()]);
  const schema = sanitizeSchema(codeThemes);
  return (html) => {
    const parsed = htmlToHast(html, { fragment: true }) as Root;
    const safe = dropEmptyClasses(sanitize(parsed, schema) as Root);
    // Nothing removed: the fragment holds only allowed elements, none of which a browser reads
    // differently where the page puts it, so it is returned as given instead of written again.
    if (isSameTree(parsed, safe)) return html;
    return serialize(safe);
  };
}

/** `tree` without the empty `class` attributes the allow-list leaves where it removed every class. */
function dropEmptyClasses(tree: Root): Root {
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'element' && Array.isArray(node.properties['className']) && node.properties['className'].length === 0) delete node.properties['className'];
    if ('children' in node) stack.push(...node.children);
  }
  return tree;
}

/** Whether two hast trees are the same document: the same nodes, names, properties and text. */
function isSameTree(a: Nodes, b: Nodes): boolean {
  if (a.type !== b.type) return false;
  if ('value' in a && a.value !== (b as typeof a).value) return false;
  if (a.type === 'element' && (a.tagName !== (b as typeof a).tagName || !isSameProperties(a.properties, (b as typeof a).properties))) return false;
  if (!('children' in a)) return true;
  const other = (b as typeof a).children;
  return a.children.length === other.length && a.children.every((child, index) => isSameTree(child, other[index]!));
}

function isSameProperties(a: Properties, b: Properties): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const [x, y] = [a[key], b[key]];
    return Array.isArray(x) && Array.isArray(y) ? x.length === y.length && x.every((item, index) => item === y[index]) : x === y;
  });
}
