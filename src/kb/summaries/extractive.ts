/**
 * Extractive summaries (content/agents/endpoints.md, "Summaries"): one paragraph per subject for
 * the index, `index.txt` and `llms.txt` — front matter `description`, else the first paragraph of
 * text (a code file's docstring or leading comment, a `package.json`'s `description`), markdown
 * syntax and rule lines removed, cut at a sentence end near {@link SUMMARY_LENGTH} characters.
 */
import type { Root } from 'mdast';
import type { SubjectFormat } from '../subjects/format.ts';
import { markdownBlocks } from '../markdown/fences.ts';
import { markdownText, parseMarkdown } from '../markdown/parser.ts';
import { readPlainParagraph } from '../markdown/plain-paragraph.ts';
import { extractLeadingComment } from './leading-comment.ts';
import { dropRuleLines } from './rule-lines.ts';

/** The length a summary is cut near. */
export const SUMMARY_LENGTH = 300;

/** How far past {@link SUMMARY_LENGTH} a sentence may end and still be kept whole. */
const SLACK = 60;

/** What a summary is made from. */
export interface SummaryInput {
  format: SubjectFormat;
  /** The file's text (front matter included for markdown; not fenced for code). */
  text: string;
  /** Lines of front matter at the top of a markdown text. */
  frontMatterLines: number;
  /** The front matter `description`, if any. */
  description: unknown;
  /** The file's name, extension included (`package.json` is summarised by its `description`); default: none. */
  fileName?: string | undefined;
  /** Whether a markdown text is MDX: its `import`/`export` lines and lone `{…}` expressions are not text. */
  mdx?: boolean | undefined;
}

/** A subject's summary; `''` when it has no text to summarise. */
export function summarize(input: SummaryInput): string {
  const description = collapse(dropRuleLines(typeof input.description === 'string' ? input.description : ''));
  if (description !== '') return cutSummary(description);
  if (input.format === 'markdown') return cutSummary(firstMarkdownParagraph(stripLines(input.text, input.frontMatterLines), input.mdx === true));
  if (input.format === 'text') return cutSummary(collapse(firstTextParagraph(input.text)));
  if (input.fileName === 'package.json') return cutSummary(collapse(packageDescription(input.text)));
  return cutSummary(collapse(extractLeadingComment(input.text)));
}

/** The `description` of a `package.json` text, or `''`. */
function packageDescription(text: string): string {
  try {
    const manifest = JSON.parse(text) as unknown;
    const description = manifest !== null && typeof manifest === 'object' ? (manifest as Record<string, unknown>)['description'] : undefined;
    return typeof description === 'string' ? dropRuleLines(description) : '';
  } catch {
    return '';
  }
}

/** Cuts a one-line text at a sentence end near {@link SUMMARY_LENGTH}, else at a word, with `…`. */
export function cutSummary(text: string): string {
  if (text.length <= SUMMARY_LENGTH) return text;
  let best = -1;
  for (const match of text.matchAll(/[.!?](?=\s)/g)) {
    const end = match.index + 1;
    if (end > SUMMARY_LENGTH + SLACK) break;
    best = end;
  }
  if (best >= SUMMARY_LENGTH / 3) return text.slice(0, best);
  const space = text.lastIndexOf(' ', SUMMARY_LENGTH);
  return `${text.slice(0, space > 0 ? space : SUMMARY_LENGTH).replace(/[\s,;:]+$/, '')}…`;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function stripLines(text: string, lines: number): string {
  return lines === 0 ? text : text.split('\n').slice(lines).join('\n');
}

/**
 * The first paragraph anywhere in the document (a blockquote's or a list item's included).
 * Blocks separated by blank lines (fenced code kept whole) are parsed one at a time until one
 * holds a paragraph: parsing a whole page to read its first lines cost most of a build's reading.
 * A block of plain lines is read without the parser ({@link readPlainParagraph}).
 */
function firstMarkdownParagraph(text: string, mdx: boolean): string {
  for (const block of markdownBlocks(text)) {
    // A lone ATX heading line holds no paragraph (most pages start with one).
    if (!block.includes('\n') && /^ {0,3}#{1,6}(?:[ \t]|$)/.test(block)) continue;
    if (mdx && (/^(?:import|export)\s/.test(block) || /^\s*\{[\s\S]*\}\s*$/.test(block))) continue;
    const plain = mdx ? undefined : readPlainParagraph(block);
    if (plain !== undefined) {
      const text = collapse(dropRuleLines(plain));
      if (text !== '') return text;
      continue;
    }
    const found = mdx ? collapse(withoutExpressions(findParagraph(parseMarkdown(withoutDirectiveFences(block))))) : findParagraph(parseMarkdown(block));
    if (found !== '') return found;
  }
  return '';
}

/** An MDX block without the `:::name` lines that open and close a directive. */
function withoutDirectiveFences(block: string): string {
  return block.replace(/^ {0,3}:{3,}.*$/gm, '');
}

/** MDX text with its `{…}` expressions as the site shows them: a string literal's text, anything else nothing. */
function withoutExpressions(text: string): string {
  return text.replace(/\{\s*(?:"([^"\\]*)"|'([^'\\]*)'|[^{}]*)\s*\}/g, (_all, double?: string, single?: string) => double ?? single ?? '');
}

function findParagraph(root: Root): string {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.shift() as { type: string; children?: unknown[] };
    if (node.type === 'paragraph') {
      const text = collapse(dropRuleLines(markdownText(node)));
      if (text !== '') return text;
      continue;
    }
    if (node.type === 'heading' || node.type === 'html' || node.type === 'code' || node.type === 'table') continue;
    if (node.children) stack.unshift(...node.children);
  }
  return '';
}

/** The first block of a text that is not only rule lines. */
function firstTextParagraph(text: string): string {
  for (const block of text.split(/\n[ \t]*\n/)) {
    const kept = dropRuleLines(block);
    if (kept.trim() !== '') return kept;
  }
  return '';
}
