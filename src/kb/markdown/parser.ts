/**
 * The core's markdown parser (remark-parse), loaded once by whichever step needs it first:
 * summaries, headings, the content checks and the links of fetched pages all read one parse.
 */
import type { Root } from 'mdast';

let parse: ((text: string) => Root) | undefined;
let toText: ((node: unknown) => string) | undefined;

/** Loads the parser; call once before {@link parseMarkdown} or {@link markdownText}. */
export async function loadMarkdownParser(): Promise<void> {
  if (parse) return;
  const [{ unified }, { default: remarkParse }, { toString }] = await Promise.all([import('unified'), import('remark-parse'), import('mdast-util-to-string')]);
  const processor = unified().use(remarkParse);
  toText = (node) => toString(node);
  parse = (text) => processor.parse(text);
}

/** The syntax tree of a markdown text. */
export function parseMarkdown(text: string): Root {
  if (!parse) throw new Error('parseMarkdown called before loadMarkdownParser');
  return parse(text);
}

/** The plain text of a node of a tree {@link parseMarkdown} made (markdown syntax removed). */
export function markdownText(node: unknown): string {
  if (!toText) throw new Error('markdownText called before loadMarkdownParser');
  return toText(node);
}
