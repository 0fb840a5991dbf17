/**
 * The site's own elements for what docs sites write as components (content/reference/subject-formats.md,
 * "MDX"): callouts, tabs, steps, cards, figures, accordions, code groups and fields. Each is made
 * as an mdast node that names the HTML element it becomes (`data.hName`), so that the markdown
 * renderer turns it into HTML with everything else, escaping text and attributes itself; the
 * allow-list (sanitize-html.ts) keeps exactly the classes made here, {@link SITE_CLASSES}.
 */

/** An mdast node, as the renderer reads it: the standard ones and the site's elements. */
export interface MarkdownNode {
  type: string;
  children?: MarkdownNode[];
  value?: string;
  data?: { hName?: string; hProperties?: Record<string, string | string[]> } & Record<string, unknown>;
  [key: string]: unknown;
}

/** The kinds of callout, GitHub's alert kinds: each has its colour and default title. */
export type CalloutKind = 'note' | 'tip' | 'important' | 'warning' | 'caution';

/** The classes the site's elements carry, by element: what the allow-list lets through. */
export const SITE_CLASSES = {
  div: ['callout', 'callout-note', 'callout-tip', 'callout-important', 'callout-warning', 'callout-caution', 'tabs', 'cards', 'card', 'code-group', 'accordion-group', 'file-tree'],
  p: ['callout-title', 'tab-label', 'step-title', 'card-title', 'code-title'],
  section: ['tab'],
  ol: ['steps'],
  figure: ['frame', 'diagram'],
  details: ['accordion'],
  dl: ['field'],
  span: ['field-meta', 'badge'],
} as const;

/** An element `tag` with `className` (none when empty) and `children`. */
export function siteElement(tag: string, className: string, children: MarkdownNode[], properties: Record<string, string> = {}): MarkdownNode {
  const hProperties: Record<string, string | string[]> = { ...properties };
  if (className !== '') hProperties['className'] = className.split(' ');
  return { type: 'siteElement', data: { hName: tag, hProperties }, children };
}

/** A text node. */
export function textNode(value: string): MarkdownNode {
  return { type: 'text', value };
}

/** A callout: `<div class="callout callout-<kind>"><p class="callout-title">title</p>…</div>`. */
export function calloutElement(kind: CalloutKind, title: MarkdownNode[], children: MarkdownNode[]): MarkdownNode {
  return siteElement('div', `callout callout-${kind}`, [siteElement('p', 'callout-title', title), ...children]);
}

/** Tabs, readable without a script: each tab a section that starts with its label. */
export function tabsElement(tabs: { label: string; children: MarkdownNode[] }[]): MarkdownNode {
  return siteElement(
    'div',
    'tabs',
    tabs.map((tab) => siteElement('section', 'tab', [siteElement('p', 'tab-label', [textNode(tab.label)]), ...tab.children])),
  );
}

/** Steps: an ordered list, each item with its title (when it has one) then its content. */
export function stepsElement(steps: { title: MarkdownNode[] | undefined; children: MarkdownNode[] }[]): MarkdownNode {
  return siteElement(
    'ol',
    'steps',
    steps.map((step) => siteElement('li', '', step.title ? [siteElement('p', 'step-title', step.title), ...step.children] : step.children)),
  );
}

/** A grid of cards. */
export function cardsElement(cards: MarkdownNode[]): MarkdownNode {
  return siteElement('div', 'cards', cards);
}

/** A card: its title (a link when it has an address), then its content. */
export function cardElement(title: string | undefined, href: string | undefined, children: MarkdownNode[]): MarkdownNode {
  const heading = title === undefined ? [] : [siteElement('p', 'card-title', [href === undefined ? textNode(title) : siteElement('a', '', [textNode(title)], { href })])];
  const link = title === undefined && href !== undefined ? [siteElement('p', '', [siteElement('a', '', [textNode(href)], { href })])] : [];
  return siteElement('div', 'card', [...heading, ...children, ...link]);
}

/** A figure: its content, then its caption when it has one. */
export function figureElement(children: MarkdownNode[], caption: string | undefined): MarkdownNode {
  return siteElement('figure', 'frame', caption === undefined ? children : [...children, siteElement('figcaption', '', [textNode(caption)])]);
}

/** An accordion: a `details` element whose summary is the title. */
export function accordionElement(title: MarkdownNode[], children: MarkdownNode[]): MarkdownNode {
  return siteElement('details', 'accordion', [siteElement('summary', '', title), ...children]);
}

/** Code blocks shown together, each after its title. */
export function codeGroupElement(blocks: { title: string | undefined; node: MarkdownNode }[]): MarkdownNode {
  return siteElement(
    'div',
    'code-group',
    blocks.flatMap((block) => (block.title === undefined ? [block.node] : [siteElement('p', 'code-title', [textNode(block.title)]), block.node])),
  );
}

/** A field of an API (a parameter, a response field): its name and facts, then its description. */
export function fieldElement(name: string, facts: string[], children: MarkdownNode[]): MarkdownNode {
  const term = [siteElement('code', '', [textNode(name)])];
  if (facts.length > 0) term.push(textNode(' '), siteElement('span', 'field-meta', [textNode(facts.join(' · '))]));
  return siteElement('dl', 'field', [siteElement('dt', '', term), siteElement('dd', '', children)]);
}
