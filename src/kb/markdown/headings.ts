/**
 * The headings of a markdown subject (for its keywords, content/reference/cli/find.md): ATX
 * (`## Title`) and setext (a line underlined with `===` or `---`) headings, in document order, as
 * plain text (markdown syntax removed). Blocks between blank lines are looked at one at a time,
 * as for summaries, and only those that may hold a heading are parsed: most lines of a page are
 * not headings.
 */
import { markdownText, parseMarkdown } from './parser.ts';
import { markdownBlocks } from './fences.ts';

/** One line that is an ATX heading: up to 3 spaces, 1–6 `#`, then its text (with any closing run of `#`). */
const ATX_LINE = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/;

/** A line that may start or underline a heading anywhere in a block (after quote and list markers). */
const HEADING_CANDIDATE = /^[ \t]*(?:>[ \t]?)*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|-+[ \t]*$)/m;

/** Heading text with no character that markdown could read as syntax: it is its own plain text. */
const PLAIN = /^[^`*_[\]<>&\\!~]*$/;

/**
 * The headings of a markdown text (front matter's `frontMatterLines` lines skipped), in order.
 * A heading with no text (`#` alone) is left out.
 */
export function markdownHeadings(text: string, frontMatterLines = 0): string[] {
  const body = frontMatterLines === 0 ? text : text.split('\n').slice(frontMatterLines).join('\n');
  const headings: string[] = [];
  for (const block of markdownBlocks(body)) {
    if (!block.includes('\n')) {
      const atx = ATX_LINE.exec(block);
      const heading = atx ? (atx[1] ?? '').replace(/(?:^|[ \t]+)#+[ \t]*$/, '').trim() : undefined;
      if (heading !== undefined && PLAIN.test(heading)) {
        if (heading !== '') headings.push(heading);
        continue;
      }
    }
    if (!HEADING_CANDIDATE.test(block)) continue;
    const stack: unknown[] = [parseMarkdown(block)];
    while (stack.length > 0) {
      const node = stack.shift() as { type: string; children?: unknown[] };
      if (node.type === 'heading') {
        const heading = markdownText(node).replace(/\s+/g, ' ').trim();
        if (heading !== '') headings.push(heading);
        continue;
      }
      if (node.children) stack.unshift(...node.children);
    }
  }
  return headings;
}
