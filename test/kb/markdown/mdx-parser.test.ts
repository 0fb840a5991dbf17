/**
 * The MDX parser (src/kb/markdown/mdx-parser.ts): the parser's reason and the file's line for
 * what does not parse, and large texts read in parts with the same result as in one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Nodes } from 'mdast';
import { mdxToMdast } from 'satteri';
import { loadMdxParser, MDX_PART_CHARACTERS, parseMdx } from '../../../src/kb/markdown/mdx-parser.ts';

beforeAll(loadMdxParser);

/** A tree without positions, for comparing trees of the same text parsed two ways. */
function withoutPositions(node: Nodes): unknown {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === 'position' ? undefined : value)));
}

describe('parseMdx', () => {
  it("reports the parser's reason at the text's line and column", () => {
    expect(parseMdx('# Title\n\n<Note>\n\ntext\n')).toEqual({ ok: false, error: { reason: 'Expected a closing tag for `<Note>` (3:1)', line: 3, column: 1 } });
    expect(parseMdx('a\n\n<!-- comment -->\n')).toEqual({
      ok: false,
      error: {
        reason:
          'Unexpected character `!` (U+0021) before name, expected a character that can start a name, such as a letter, `$`, or `_` (note: to create a comment in MDX, use `{/* text */}`)',
        line: 3,
        column: 1,
      },
    });
  });

  it('reads a large text in parts, joined as one tree, with the positions of the whole text', () => {
    const section = (i: number) => `## Section ${i}\n\n<div className="item"><span>Item ${i}</span></div>\n\nSome *text* for item ${i}.\n`;
    // One component spans many parts: it is read with the parts after it.
    const text = [...Array.from({ length: 400 }, (_, i) => section(i)), '<Note>\n', ...Array.from({ length: 400 }, (_, i) => section(400 + i)), '</Note>\n', section(800)].join(
      '\n',
    );
    expect(text.length).toBeGreaterThan(3 * MDX_PART_CHARACTERS);
    const parsed = parseMdx(text);
    if (!parsed.ok) throw new Error(parsed.error.reason);
    expect(withoutPositions(parsed.tree)).toEqual(withoutPositions(whole(text)));
    const last = parsed.tree.children.at(-1)!;
    expect(last.position?.start.line).toBe(text.split('\n').indexOf('Some *text* for item 800.') + 1);
    expect(text.slice(last.position!.start.offset, last.position!.end.offset)).toBe('Some *text* for item 800.');
  });

  it('reports an error of a later part at the line of the whole text', () => {
    const filler = Array.from({ length: 800 }, (_, i) => `## Section ${i}\n\nText ${i}.\n`).join('\n');
    const text = `${filler}\n## Broken\n\nA { here\n`;
    const line = text.split('\n').indexOf('A { here') + 1;
    expect(parseMdx(text)).toEqual({ ok: false, error: { reason: 'Unexpected end of file in expression, expected a corresponding closing brace for `{`', line, column: 3 } });
  });
});

/** `text` parsed in one piece, with Sätteri directly. */
function whole(text: string): Nodes {
  return mdxToMdast(text, { features: { directive: true, frontmatter: false } });
}
