/**
 * MDX to the site's markdown (content/reference/subject-formats.md, "MDX"): an MDX tree becomes a
 * plain mdast tree the markdown renderer renders like any other. `import`/`export` are dropped;
 * the components of Mintlify, Starlight and Docusaurus become the site's own elements
 * (site-elements.ts); HTML elements stay elements; any other component becomes its children. An
 * expression is never run: a string literal (`{'<'}`) becomes its text, any other expression
 * nothing. Attributes are read as text only, and the sanitiser checks what they become.
 */
import {
  accordionElement,
  calloutElement,
  cardElement,
  cardsElement,
  codeGroupElement,
  fieldElement,
  figureElement,
  siteElement,
  stepsElement,
  tabsElement,
  textNode,
  type CalloutKind,
  type MarkdownNode,
} from './site-elements.ts';

/** An MDX JSX attribute as the parser gives it. */
interface JsxAttribute {
  type: string;
  name?: string;
  value?: string | null | { type: string; value: string };
}

/** An MDX JSX element as the parser gives it (`name` is null for a fragment `<>`). */
interface JsxElement extends MarkdownNode {
  name: string | null;
  attributes: JsxAttribute[];
  children: MarkdownNode[];
}

/** Callout components by name: their kind and default title. */
const CALLOUTS: Readonly<Record<string, { kind: CalloutKind; title: string }>> = {
  Note: { kind: 'note', title: 'Note' },
  Info: { kind: 'note', title: 'Info' },
  Tip: { kind: 'tip', title: 'Tip' },
  Check: { kind: 'tip', title: 'Check' },
  Important: { kind: 'important', title: 'Important' },
  Warning: { kind: 'warning', title: 'Warning' },
  Caution: { kind: 'warning', title: 'Caution' },
  Danger: { kind: 'caution', title: 'Danger' },
};

/**
 * Admonition types (Starlight's `<Aside type>`, Docusaurus's `<Admonition type>` and `:::type`):
 * the callouts' names in lower case, `Check` aside.
 */
const ADMONITIONS: Readonly<Record<string, { kind: CalloutKind; title: string }>> = Object.fromEntries(
  ['Note', 'Info', 'Tip', 'Important', 'Warning', 'Caution', 'Danger'].map((name) => [name.toLowerCase(), CALLOUTS[name]!]),
);

/** Components that make a block of their own: alone in a paragraph, they are read as a block. */
const BLOCK_COMPONENTS = new Set([
  ...Object.keys(CALLOUTS),
  'Aside',
  'Admonition',
  'Tabs',
  'Tab',
  'TabItem',
  'Steps',
  'Step',
  'Card',
  'LinkCard',
  'CardGroup',
  'CardGrid',
  'Columns',
  'Frame',
  'Accordion',
  'AccordionGroup',
  'Expandable',
  'CodeGroup',
  'CodeBlock',
  'ParamField',
  'ResponseField',
  'FileTree',
]);

/** HTML elements that run code or embed other pages: dropped from MDX, trusted or not. */
const ACTIVE_ELEMENTS = new Set(['script', 'iframe', 'object', 'embed', 'frame', 'frameset', 'applet', 'base', 'meta', 'link']);

/** HTML elements that are phrasing (inline) content. */
const PHRASING_HTML = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'i',
  'img',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'wbr',
]);

/** HTML blocks whose content is text, even when written on lines of their own. */
const TEXT_BLOCKS_HTML = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'summary', 'dt', 'figcaption', 'caption', 'th', 'td', 'pre']);

/** mdast nodes that are phrasing (inline) content. */
const PHRASING = new Set([
  'text',
  'emphasis',
  'strong',
  'delete',
  'inlineCode',
  'break',
  'link',
  'linkReference',
  'image',
  'imageReference',
  'footnoteReference',
  'html',
  'inlineMath',
  'mdxJsxTextElement',
  'mdxTextExpression',
  'textDirective',
]);

/** mdast nodes whose children are phrasing (inline) content. */
const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'emphasis', 'strong', 'delete', 'link', 'linkReference', 'tableCell', 'siteInline']);

/** The plain mdast tree of an MDX tree; `source` is the text it was parsed from (directives written as text are kept as written). */
export function mapMdxTree(tree: MarkdownNode, source: string): MarkdownNode {
  return { type: 'root', children: mapNodes(tree.children ?? [], false, source) };
}

function mapNodes(nodes: readonly MarkdownNode[], inline: boolean, source: string): MarkdownNode[] {
  return (inline ? nodes : inParagraphs(liftLoneComponents(nodes))).flatMap((node) => mapNode(node, inline, source));
}

/** Text written directly in a block component (`<Note>Short.</Note>`) as the paragraph it reads as. */
function inParagraphs(nodes: readonly MarkdownNode[]): MarkdownNode[] {
  const out: MarkdownNode[] = [];
  let run: MarkdownNode[] = [];
  const flush = () => {
    if (run.some((node) => node.type !== 'text' || (node.value ?? '').trim() !== '')) out.push({ type: 'paragraph', children: run });
    run = [];
  };
  for (const node of nodes) {
    if (PHRASING.has(node.type)) run.push(node);
    else {
      flush();
      out.push(node);
    }
  }
  flush();
  return out;
}

function mapNode(node: MarkdownNode, inline: boolean, source: string): MarkdownNode[] {
  switch (node.type) {
    case 'mdxjsEsm':
    case 'yaml':
    case 'toml':
      return [];
    case 'mdxFlowExpression':
    case 'mdxTextExpression': {
      const text = stringLiteral(node.value ?? '');
      if (text === undefined) return [];
      return inline ? [textNode(text)] : [{ type: 'paragraph', children: [textNode(text)] }];
    }
    case 'textDirective':
    case 'leafDirective': {
      // `localhost:8080`, `a:b`: a directive nobody meant is text as written.
      const text = textNode(sourceOf(node, source));
      return node.type === 'leafDirective' ? [{ type: 'paragraph', children: [text] }] : [text];
    }
    case 'containerDirective':
      return mapContainerDirective(node, source);
    case 'mdxJsxFlowElement':
    case 'mdxJsxTextElement':
      return mapElement(node as JsxElement, inline || node.type === 'mdxJsxTextElement', source);
    case 'paragraph': {
      const children = mapNodes(node.children ?? [], true, source);
      return children.length === 0 ? [] : [{ ...node, children }];
    }
    default:
      if (!node.children) return [node];
      return [{ ...node, children: mapNodes(node.children, inline || PHRASING_PARENTS.has(node.type), source) }];
  }
}

/** `:::note[Title]` / `:::tip Title` (Docusaurus): a callout; any other container its content. */
function mapContainerDirective(node: MarkdownNode, source: string): MarkdownNode[] {
  const children = node.children ?? [];
  const labelled = children[0]?.data?.['directiveLabel'] === true;
  const body = mapNodes(labelled ? children.slice(1) : children, false, source);
  const admonition = ADMONITIONS[String(node['name'])];
  if (!admonition) return body;
  let title = labelled ? mapNodes(children[0]!.children ?? [], true, source) : [];
  if (!labelled) {
    const firstLine = sourceOf(node, source).split('\n', 1)[0]!;
    const written = /^\s*:{3,}\s*[\w-]+[ \t]+([^[{\s].*?)\s*$/.exec(firstLine)?.[1];
    if (written) title = [textNode(written)];
  }
  return [calloutElement(admonition.kind, title.length > 0 ? title : [textNode(admonition.title)], body)];
}

function mapElement(element: JsxElement, inline: boolean, source: string): MarkdownNode[] {
  const { name } = element;
  const children = () => mapNodes(element.children, inline, source);
  if (name === null) return children();
  if (/^[a-z]/.test(name) && !name.includes('.')) return mapHtmlElement(element, inline, source);
  if (name === 'Icon') return [];
  if (name === 'Badge')
    return [siteElement('span', 'badge', attribute(element, 'text') !== undefined ? [textNode(attribute(element, 'text')!)] : mapNodes(element.children, true, source))];
  // A block component in running text keeps only its content: a block cannot sit inside a paragraph.
  if (inline) return children();
  const callout = CALLOUTS[name] ?? (name === 'Aside' || name === 'Admonition' ? ADMONITIONS[attribute(element, 'type') ?? 'note'] : undefined);
  if (callout) return [calloutElement(callout.kind, [textNode(attribute(element, 'title') ?? callout.title)], children())];
  switch (name) {
    case 'Tabs':
      return mapTabs(element, source);
    case 'Tab':
    case 'TabItem':
      return [tabsElement([tabOf(element, 1, source)])];
    case 'Steps':
      return mapSteps(element, source);
    case 'Step':
      return [stepsElement([stepOf(element, source)])];
    case 'CardGroup':
    case 'CardGrid':
    case 'Columns':
      return [
        cardsElement(liftLoneComponents(element.children).flatMap((child) => (isElement(child, ['Card', 'LinkCard']) ? [cardOf(child, source)] : mapNode(child, false, source)))),
      ];
    case 'Card':
    case 'LinkCard':
      return [cardsElement([cardOf(element, source)])];
    case 'Frame':
      return [figureElement(children(), attribute(element, 'caption'))];
    case 'Accordion':
    case 'Expandable':
      return [accordionElement([textNode(attribute(element, 'title') ?? (name === 'Expandable' ? 'Properties' : 'Details'))], children())];
    case 'AccordionGroup':
      return [siteElement('div', 'accordion-group', children())];
    case 'CodeGroup':
      return [codeGroupElement(liftLoneComponents(element.children).flatMap((child) => codeBlocksOf(child, source)))];
    case 'CodeBlock':
      return [codeBlockOf(element)];
    case 'ParamField':
    case 'ResponseField':
      return [fieldOf(element, children())];
    case 'FileTree':
      return [siteElement('div', 'file-tree', children())];
    default:
      return children();
  }
}

/** An HTML element written in MDX (`<details>`, `<img>`, `<br />`): itself, with its attributes written as text. */
function mapHtmlElement(element: JsxElement, inline: boolean, source: string): MarkdownNode[] {
  const name = element.name!;
  if (ACTIVE_ELEMENTS.has(name.toLowerCase())) return [];
  const properties: Record<string, string> = {};
  for (const attr of element.attributes) {
    if (attr.type !== 'mdxJsxAttribute' || !attr.name || /^on/i.test(attr.name)) continue;
    const value = attributeValue(attr);
    if (value === undefined) continue;
    properties[attr.name === 'class' ? 'className' : attr.name] = value;
  }
  const phrasing = PHRASING_HTML.has(name);
  const mapped = siteElement(name, '', mapNodes(element.children, inline || phrasing || TEXT_BLOCKS_HTML.has(name), source), properties);
  // An inline element on a line of its own (`<a href="…">link</a>`) is a paragraph, as in HTML.
  return [phrasing && !inline ? { type: 'paragraph', children: [mapped] } : mapped];
}

function mapTabs(element: JsxElement, source: string): MarkdownNode[] {
  const tabs: { label: string; children: MarkdownNode[] }[] = [];
  const rest: MarkdownNode[] = [];
  for (const child of liftLoneComponents(element.children)) {
    if (isElement(child, ['Tab', 'TabItem'])) tabs.push(tabOf(child, tabs.length + 1, source));
    else rest.push(...mapNode(child, false, source));
  }
  return tabs.length === 0 ? rest : [tabsElement(tabs), ...rest];
}

function tabOf(element: JsxElement, index: number, source: string): { label: string; children: MarkdownNode[] } {
  const label = attribute(element, 'title') ?? attribute(element, 'label') ?? attribute(element, 'value') ?? `Tab ${index}`;
  return { label, children: mapNodes(element.children, false, source) };
}

/** Mintlify's `<Step>`s, or Starlight's ordered list inside `<Steps>`. */
function mapSteps(element: JsxElement, source: string): MarkdownNode[] {
  const children = liftLoneComponents(element.children);
  if (children.some((child) => isElement(child, ['Step']))) {
    const steps = children.filter((child): child is JsxElement => isElement(child, ['Step'])).map((step) => stepOf(step, source));
    return [stepsElement(steps)];
  }
  return mapNodes(children, false, source).map((node) =>
    node.type === 'list' && node['ordered'] === true ? { ...node, data: { ...node.data, hProperties: { className: ['steps'] } } } : node,
  );
}

function stepOf(element: JsxElement, source: string): { title: MarkdownNode[] | undefined; children: MarkdownNode[] } {
  const title = attribute(element, 'title');
  return { title: title === undefined ? undefined : [textNode(title)], children: mapNodes(element.children, false, source) };
}

function cardOf(element: JsxElement, source: string): MarkdownNode {
  const description = attribute(element, 'description');
  const children = mapNodes(element.children, false, source);
  if (description !== undefined) children.unshift({ type: 'paragraph', children: [textNode(description)] });
  return cardElement(attribute(element, 'title'), attribute(element, 'href'), children);
}

/** The blocks of a code group: its fenced blocks, each titled by its info string (`title="a.js"`, or Mintlify's words after the language). */
function codeBlocksOf(node: MarkdownNode, source: string): { title: string | undefined; node: MarkdownNode }[] {
  if (node.type === 'code') return [{ title: codeTitle(typeof node['meta'] === 'string' ? node['meta'] : ''), node }];
  if (isElement(node, ['CodeBlock'])) return [{ title: attribute(node, 'title'), node: codeBlockOf(node) }];
  return mapNode(node, false, source).map((mapped) => ({ title: undefined, node: mapped }));
}

function codeTitle(meta: string): string | undefined {
  const written = /(?:^|\s)title=(?:"([^"]*)"|'([^']*)')/.exec(meta);
  if (written) return written[1] ?? written[2];
  const words = meta
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\S+=(?:"[^"]*"|'[^']*'|\S*)/g, ' ')
    .trim()
    .replace(/\s+/g, ' ');
  return words === '' ? undefined : words;
}

/** Docusaurus's `<CodeBlock language title>`: its text (or string expression) as a fenced block. */
function codeBlockOf(element: JsxElement): MarkdownNode {
  const title = attribute(element, 'title');
  return { type: 'code', lang: attribute(element, 'language') ?? null, meta: title === undefined ? null : `title=${JSON.stringify(title)}`, value: plainText(element.children) };
}

function plainText(nodes: readonly MarkdownNode[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text') return node.value ?? '';
      if (node.type === 'mdxFlowExpression' || node.type === 'mdxTextExpression') return stringLiteral(node.value ?? '') ?? '';
      return plainText(node.children ?? []);
    })
    .join(nodes.some((node) => node.type === 'paragraph') ? '\n\n' : '');
}

/** Mintlify's `<ParamField query="limit" type="number" required default="10">`: the name, then its facts. */
function fieldOf(element: JsxElement, children: MarkdownNode[]): MarkdownNode {
  const location = ['path', 'query', 'body', 'header'].find((key) => attribute(element, key) !== undefined);
  const name = attribute(element, 'name') ?? (location ? attribute(element, location) : undefined) ?? '';
  const facts: string[] = [];
  if (location) facts.push(location);
  const type = attribute(element, 'type');
  if (type) facts.push(type);
  if (attribute(element, 'required') !== undefined) facts.push('required');
  const fallback = attribute(element, 'default');
  if (fallback !== undefined) facts.push(`default: ${fallback}`);
  if (attribute(element, 'deprecated') !== undefined) facts.push('deprecated');
  return fieldElement(name, facts, children);
}

/**
 * Children where a paragraph holds nothing but one block component (`<Note>Short.</Note>` on a
 * line of its own, which MDX reads as text) with that component as a block holding a paragraph.
 */
function liftLoneComponents(nodes: readonly MarkdownNode[]): MarkdownNode[] {
  return nodes.map((node) => {
    if (node.type !== 'paragraph') return node;
    const children = (node.children ?? []).filter((child) => !(child.type === 'text' && (child.value ?? '').trim() === ''));
    const only = children[0];
    if (children.length !== 1 || only?.type !== 'mdxJsxTextElement' || !BLOCK_COMPONENTS.has(String(only['name']))) return node;
    const inner = only.children ?? [];
    return { ...only, type: 'mdxJsxFlowElement', children: inner.length === 0 ? [] : [{ type: 'paragraph', children: inner }] };
  });
}

function isElement(node: MarkdownNode, names: readonly string[]): node is JsxElement {
  return (node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && names.includes(String(node['name']));
}

/** An attribute's text: its string value, `''` for a bare name, a string literal's text; undefined when absent or any other expression. */
function attribute(element: JsxElement, name: string): string | undefined {
  const found = element.attributes.find((attr) => attr.type === 'mdxJsxAttribute' && attr.name === name);
  return found ? attributeValue(found) : undefined;
}

function attributeValue(attr: JsxAttribute): string | undefined {
  if (attr.value === null || attr.value === undefined) return '';
  if (typeof attr.value === 'string') return attr.value;
  return stringLiteral(attr.value.value);
}

/** The text of `node` as written in `source`. */
function sourceOf(node: MarkdownNode, source: string): string {
  const position = node['position'] as { start: { offset?: number }; end: { offset?: number } } | undefined;
  if (position?.start.offset === undefined || position.end.offset === undefined) return '';
  return source.slice(position.start.offset, position.end.offset);
}

/**
 * The value of a JavaScript expression that is one string literal (`'<'`, `"a"`, a template
 * literal without `${`), read without running anything; undefined for any other expression.
 */
export function stringLiteral(expression: string): string | undefined {
  const match = /^\s*(?:"((?:[^"\\\n]|\\[\s\S])*)"|'((?:[^'\\\n]|\\[\s\S])*)'|`((?:[^`\\$]|\\[\s\S]|\$(?!\{))*)`)\s*$/.exec(expression);
  if (!match) return undefined;
  const body = match[1] ?? match[2] ?? match[3]!;
  return body.replace(/\\(u\{([0-9a-fA-F]+)\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|\r?\n|[\s\S])/g, (_all, escape: string, point?: string, unit?: string, byte?: string) => {
    const code = point ?? unit ?? byte;
    if (code !== undefined) {
      const value = parseInt(code, 16);
      return value <= 0x10ffff ? String.fromCodePoint(value) : '';
    }
    if (escape.startsWith('\n') || escape.startsWith('\r')) return '';
    return ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' } as Record<string, string>)[escape] ?? escape;
  });
}
