/**
 * What the checks of `syllabus check` read in a markdown subject: its links, images, inline code
 * and headings, each with the line and column it starts at. Parsed once per subject with
 * remark-parse (CommonMark), front matter left out.
 */
import type { Nodes } from 'mdast';
import type { CatalogSubject } from '../catalog/catalog.ts';
import { parseMarkdown } from '../markdown/parser.ts';

/** A link destination written in a subject: `[text](url)`, `![alt](url)` or `[label]: url`. */
export interface MarkdownLink {
  kind: 'link' | 'image' | 'definition';
  url: string;
  line: number;
  column: number;
}

/** An inline code span (`` `value` ``), its value as CommonMark reads it. */
export interface MarkdownCode {
  value: string;
  line: number;
  column: number;
}

/** A heading at the top level of the document (not inside a list or quote). */
export interface MarkdownHeading {
  depth: number;
  line: number;
  column: number;
}

/** The parts of a markdown document the checks read, in document order. */
export interface MarkdownOutline {
  links: MarkdownLink[];
  codes: MarkdownCode[];
  headings: MarkdownHeading[];
}

/**
 * Lines the leading front matter block takes, fences included (0 when there is none): the block
 * `readFrontMatter` reads, found without parsing its YAML.
 */
export function frontMatterLineCount(text: string): number {
  if (!text.startsWith('---\n')) return 0;
  const end = text.indexOf('\n---', 3);
  if (end === -1) return 0;
  const after = text.slice(end + 4);
  if (after !== '' && !after.startsWith('\n')) return 0;
  return text.slice(4, end + 1).split('\n').length + 1;
}

/** The outline of a markdown text; front matter lines are blanked, so lines are the file's. */
export function readMarkdownOutline(text: string): MarkdownOutline {
  const skip = frontMatterLineCount(text);
  const body = skip === 0 ? text : '\n'.repeat(skip) + text.split('\n').slice(skip).join('\n');
  const outline: MarkdownOutline = { links: [], codes: [], headings: [] };
  const root = parseMarkdown(body);
  for (const child of root.children) {
    if (child.type === 'heading') outline.headings.push({ depth: child.depth, ...startOf(child) });
  }
  visit(root, outline);
  return outline;
}

/**
 * Outlines kept between runs by a host (the build keeps them in its cache), by their content's
 * sha256; each one used is set, taken from it or not.
 */
export interface OutlineMemo {
  get(sha256: string): MarkdownOutline | undefined;
  set(sha256: string, outline: MarkdownOutline): void;
}

const outlines = new WeakMap<CatalogSubject, MarkdownOutline>();

/** The outline of a markdown subject's content, parsed on first use unless `memo` holds it. */
export function outlineOf(subject: CatalogSubject, memo?: OutlineMemo): MarkdownOutline {
  let outline = outlines.get(subject);
  if (!outline) {
    outline = memo?.get(subject.sha256) ?? readMarkdownOutline(subject.content);
    outlines.set(subject, outline);
    memo?.set(subject.sha256, outline);
  }
  return outline;
}

/** Whether `value` has the shape of a {@link MarkdownOutline} (one read back from a cache file). */
export function isMarkdownOutline(value: unknown): value is MarkdownOutline {
  if (typeof value !== 'object' || value === null) return false;
  const { links, codes, headings } = value as Record<string, unknown>;
  const at = (item: Record<string, unknown>): boolean => Number.isInteger(item['line']) && Number.isInteger(item['column']);
  const every = (list: unknown, ok: (item: Record<string, unknown>) => boolean): boolean =>
    Array.isArray(list) && list.every((item) => typeof item === 'object' && item !== null && at(item as Record<string, unknown>) && ok(item as Record<string, unknown>));
  return (
    every(links, (l) => (l['kind'] === 'link' || l['kind'] === 'image' || l['kind'] === 'definition') && typeof l['url'] === 'string') &&
    every(codes, (c) => typeof c['value'] === 'string') &&
    every(headings, (h) => Number.isInteger(h['depth']))
  );
}

/**
 * Whether a subject's content is markdown text the checks read: not a skipped file's message, and
 * not a URL source (its links, code and headings are its site's to fix, not the knowledge base's).
 */
export function isCheckedMarkdown(subject: CatalogSubject): boolean {
  return subject.format === 'markdown' && subject.skipped === null && subject.source === null;
}

/**
 * Where a diagnostic about a position in a subject's content points: that line and column of its
 * file, or for a learning (whose content is rendered, not stored) the line of its entry in the store.
 */
export function placeIn(subject: CatalogSubject, position: { line: number; column: number }): { line: number; column?: number } {
  return subject.learning ? { line: subject.learning.line } : { line: position.line, column: position.column };
}

function startOf(node: Nodes): { line: number; column: number } {
  return { line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1 };
}

function visit(node: Nodes, outline: MarkdownOutline): void {
  switch (node.type) {
    case 'link':
    case 'image':
    case 'definition':
      outline.links.push({ kind: node.type, url: node.url, ...startOf(node) });
      break;
    case 'inlineCode':
      outline.codes.push({ value: node.value, ...startOf(node) });
      break;
    default:
      break;
  }
  if ('children' in node) for (const child of node.children) visit(child, outline);
}
