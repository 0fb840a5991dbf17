/**
 * The text of a markdown block that is one plain paragraph, read without the markdown parser.
 *
 * Summaries read the first paragraph of every subject, and most first paragraphs are plain prose
 * (tldr's are a blockquote of two or three such lines). Parsing each of them cost a large part of a
 * build's reading, most of it the parser setting itself up per call. This reader knows only plain
 * lines, a blockquote of them, and URL autolinks (`<https://…>`); anything else it answers with
 * `undefined`, and the caller parses the block as before. Where it answers, the text is the one
 * the parser's paragraph gives (test/kb/markdown/plain-paragraph.test.ts compares the two).
 */

/** Characters that may start or change markdown syntax inside a line; `` ` `` and `<` are read where they open a code span or an autolink. */
const INLINE_SYNTAX = /[\\`*_[\]<>&~\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFEFF]/;

/**
 * A CommonMark URI autolink at the reader's place: `<`, a scheme, `:`, then no space, control
 * character, `<` or `>` (nor, to stay on the safe side, a backslash, a backtick or an `&`).
 */
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>\\`&\u0000-\u001F\u007F]*)>/y;

/** Line starts that open a block other than a paragraph (or continue one in a way this reader does not follow). */
const BLOCK_START = /^(?:[\s#<>+=-]|\d{1,9}[.)](?:[ \t]|$))/;

/**
 * The text of `block` (lines of markdown with no blank line among them) as the markdown parser's
 * paragraph holds it (soft line breaks kept as `\n`, code spans and autolinks as their text), when
 * the block is one plain paragraph or a blockquote holding one; `undefined` when it has any other
 * syntax.
 */
export function readPlainParagraph(block: string): string | undefined {
  let lines = block.split('\n');
  if (lines[0]!.startsWith('>')) {
    const inner: string[] = [];
    for (const line of lines) {
      // `>` and at most one space; a tab after `>` counts as columns, which this reader leaves to the parser.
      if (!line.startsWith('>') || line[1] === '\t') return undefined;
      inner.push(line.slice(line[1] === ' ' ? 2 : 1));
    }
    lines = inner;
  }
  const texts: string[] = [];
  for (const line of lines) {
    if (line === '' || BLOCK_START.test(line) || /[ \t]$/.test(line)) return undefined;
    const text = readPlainLine(line);
    if (text === undefined) return undefined;
    texts.push(text);
  }
  return texts.join('\n');
}

/** The text of one line of a plain paragraph: plain characters, code spans and autolinks; `undefined` for anything else. */
function readPlainLine(line: string): string | undefined {
  let text = '';
  let at = 0;
  while (at < line.length) {
    const next = line.slice(at).search(INLINE_SYNTAX);
    if (next === -1) return text + line.slice(at);
    text += line.slice(at, at + next);
    at += next;
    if (line[at] === '`') {
      const span = readCodeSpan(line, at);
      if (!span) return undefined;
      text += span.text;
      at = span.end;
    } else if (line[at] === '<') {
      AUTOLINK.lastIndex = at;
      const link = AUTOLINK.exec(line);
      if (!link) return undefined;
      text += link[1];
      at = AUTOLINK.lastIndex;
    } else {
      return undefined;
    }
  }
  return text;
}

/**
 * The code span opening at `from` (a run of backticks closed by a run of the same length on the
 * same line), as CommonMark gives its text: one space stripped from each end when both ends have
 * one and the content is not only spaces.
 */
function readCodeSpan(line: string, from: number): { text: string; end: number } | undefined {
  let open = from;
  while (line[open] === '`') open++;
  const fence = line.slice(from, open);
  let at = open;
  while (at < line.length) {
    const close = line.indexOf(fence, at);
    if (close === -1) return undefined;
    let end = close + fence.length;
    if (line[end] !== '`') {
      const content = line.slice(open, close);
      const strip = content.length >= 2 && content.startsWith(' ') && content.endsWith(' ') && content.trim() !== '';
      return { text: strip ? content.slice(1, -1) : content, end };
    }
    while (line[end] === '`') end++;
    at = end;
  }
  return undefined;
}
