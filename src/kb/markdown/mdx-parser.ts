/**
 * The one MDX parser (content/reference/subject-formats.md, "MDX"): Sätteri's, the MDX syntax of
 * markdown-rs (the rules and messages of micromark-extension-mdxjs), with `:::` directives. It
 * only reads: no expression or component is ever evaluated. `check` reports what it cannot read,
 * and the site renders what it reads, so both agree on which files are valid MDX.
 */
import type { Nodes, Root } from 'mdast';

type MdxToMdast = typeof import('satteri').mdxToMdast;
let mdxToMdast: MdxToMdast | undefined;

/** Loads the parser; call once before {@link parseMdx}. */
export async function loadMdxParser(): Promise<void> {
  mdxToMdast ??= (await import('satteri')).mdxToMdast;
}

/** Why a text is not valid MDX: the parser's reason, at a 1-based line and column of the text. */
export interface MdxSyntaxError {
  reason: string;
  line: number;
  column: number;
}

/** A parsed MDX text (an mdast tree with MDX's nodes), or why it is not valid MDX. */
export type MdxParse = { ok: true; tree: Root } | { ok: false; error: MdxSyntaxError };

/**
 * Texts longer than this are read in parts of about this size, cut before top-level headings:
 * the parser's time grows with the square of a part's length when it holds many inline tags
 * (a 460 kB page of them took 12 s in one part), and stays linear over parts of this size.
 */
export const MDX_PART_CHARACTERS = 24_000;

/**
 * Parses `text` as MDX. Front matter is expected to be blanked out by the caller (line numbers
 * stay the file's). A text over {@link MDX_PART_CHARACTERS} is parsed part by part, each part
 * extended over the next ones while it ends inside a tag or an expression; the parts' trees are
 * joined. A link reference defined in one part is then not seen by the others.
 */
export function parseMdx(text: string): MdxParse {
  const parts = splitParts(text);
  const children: Root['children'] = [];
  let index = 0;
  while (index < parts.length) {
    let take = 1;
    for (;;) {
      const end = Math.min(parts.length, index + take);
      const start = parts[index]!;
      const source = text.slice(start.offset, end === parts.length ? text.length : parts[end]!.offset);
      const parsed = parseOne(source);
      if (parsed.ok) {
        children.push(...shift(parsed.tree, start).children);
        index = end;
        break;
      }
      // A part that ends inside an open tag or expression is read again with the parts after it, doubling each time.
      if (end < parts.length && isUnfinished(parsed.error.reason)) {
        take *= 2;
        continue;
      }
      const lines = start.line - 1;
      const reason = parsed.error.reason.replace(/\((\d+):(\d+)\)/g, (_all, line: string, column: string) => `(${Number(line) + lines}:${column})`);
      return { ok: false, error: { reason, line: parsed.error.line + lines, column: parsed.error.column } };
    }
  }
  return { ok: true, tree: { type: 'root', children } };
}

/** Where a part starts in the whole text: its offset and 1-based line. */
interface PartStart {
  offset: number;
  line: number;
}

/** The starts of the parts of `text`: after blank lines before top-level `#` headings outside fenced code, about {@link MDX_PART_CHARACTERS} apart. */
function splitParts(text: string): PartStart[] {
  const starts: PartStart[] = [{ offset: 0, line: 1 }];
  if (text.length <= MDX_PART_CHARACTERS) return starts;
  let fence: string | null = null;
  let offset = 0;
  let line = 1;
  let previousBlank = false;
  for (const content of text.split('\n')) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(content)?.[1];
    if (fence === null && marker) fence = marker;
    else if (fence !== null && marker && marker[0] === fence[0] && marker.length >= fence.length && content.trim() === marker) fence = null;
    else if (fence === null && previousBlank && /^#{1,6}[ \t]/.test(content) && offset - starts.at(-1)!.offset >= MDX_PART_CHARACTERS) starts.push({ offset, line });
    previousBlank = fence === null && content.trim() === '';
    offset += content.length + 1;
    line++;
  }
  return starts;
}

/** Whether a parser's reason says the text ended inside a tag or an expression that a later part may close. */
function isUnfinished(reason: string): boolean {
  return /^Expected a closing tag for `[^`]*` \(\d+:\d+\)$|^Unexpected end of file/.test(reason);
}

function parseOne(source: string): MdxParse {
  if (!mdxToMdast) throw new Error('parseMdx called before loadMdxParser');
  try {
    return { ok: true, tree: mdxToMdast(source, { features: { directive: true, frontmatter: false } }) as Root };
  } catch (error) {
    return { ok: false, error: readError(error) };
  }
}

/** The place and reason of a parser error: `3:1: Expected a closing tag for `<Note>` (3:1) (mdx-jsx:…)`. */
function readError(error: unknown): MdxSyntaxError {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^(\d+):(\d+): ([\s\S]*?)(?: \([\w-]+:[\w-]+\))?$/.exec(message);
  if (!match) return { reason: message, line: 1, column: 1 };
  return { reason: match[3]!, line: Number(match[1]), column: Number(match[2]) };
}

/** A part's tree with positions made the whole text's. */
function shift(tree: Root, start: PartStart): Root {
  if (start.offset === 0) return tree;
  const stack: Nodes[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.position) {
      for (const point of [node.position.start, node.position.end]) {
        point.line += start.line - 1;
        if (point.offset !== undefined) point.offset += start.offset;
      }
    }
    if ('children' in node) stack.push(...node.children);
  }
  return tree;
}
