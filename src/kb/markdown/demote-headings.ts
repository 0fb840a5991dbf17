/**
 * Heading demotion for text that is placed below a heading of its own (`/llms-full.txt`,
 * content/agents/endpoints.md): every heading of a markdown text moved down some levels, so that
 * the outline of the whole file stays a tree.
 */
import { createFenceReader } from './fences.ts';

/** An ATX heading line: its indent, its run of `#` and the rest (text and closing run). */
const ATX = /^( {0,3})(#{1,6})((?:[ \t].*)?)$/;
/** A setext underline: `===` (level 1) or `---` (level 2) alone on its line. */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A line that a setext underline cannot turn into a heading: blank, or a block of its own kind. */
const NOT_PARAGRAPH = /^\s*$|^ {0,3}(?:#{1,6}(?:[ \t]|$)|>|[-*+][ \t]|\d{1,9}[.)][ \t]|(?:[-*_][ \t]*){3,}$|```|~~~|<)/;

/**
 * `text` with each heading `by` levels lower (ATX `#` runs made longer, setext headings written
 * as ATX ones), capped at level 6; lines inside code fences are left alone. A setext underline
 * counts only under a line of paragraph text, as in CommonMark (a `---` after a blank line is a
 * thematic break).
 */
export function demoteHeadings(text: string, by: number): string {
  const lines = text.split('\n');
  const inCode = createFenceReader();
  const out: string[] = [];
  // Where the paragraph the current line continues starts in `out`; -1 outside a paragraph.
  let paragraph = -1;
  for (const line of lines) {
    if (inCode(line)) {
      out.push(line);
      paragraph = -1;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      out.push(`${atx[1]}${'#'.repeat(Math.min(6, atx[2]!.length + by))}${atx[3]}`);
      paragraph = -1;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext && paragraph !== -1) {
      const level = setext[1]!.startsWith('=') ? 1 : 2;
      const heading = out
        .splice(paragraph)
        .map((l) => l.trim())
        .join(' ');
      out.push(`${'#'.repeat(Math.min(6, level + by))} ${heading}`);
      paragraph = -1;
      continue;
    }
    if (line.trim() === '') paragraph = -1;
    else if (paragraph === -1 && !NOT_PARAGRAPH.test(line)) paragraph = out.length;
    out.push(line);
  }
  return out.join('\n');
}
