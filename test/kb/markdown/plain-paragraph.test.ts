import fs from 'node:fs';
import path from 'node:path';
import type { Root } from 'mdast';
import { beforeAll, describe, expect, it } from 'vitest';
import { markdownBlocks } from '../../../src/kb/markdown/fences.ts';
import { loadMarkdownParser, markdownText, parseMarkdown } from '../../../src/kb/markdown/parser.ts';
import { readPlainParagraph } from '../../../src/kb/markdown/plain-paragraph.ts';

beforeAll(loadMarkdownParser);

const repo = path.resolve(import.meta.dirname, '../../..');

/** The text of the paragraph the parser finds when `block` is one paragraph (or a blockquote of one); `undefined` otherwise. */
function parsedParagraph(block: string): string | undefined {
  const tree: Root = parseMarkdown(block);
  if (tree.children.length !== 1) return undefined;
  let node = tree.children[0]!;
  if (node.type === 'blockquote') {
    if (node.children.length !== 1) return undefined;
    node = node.children[0]!;
  }
  return node.type === 'paragraph' ? markdownText(node) : undefined;
}

function* markdownFiles(folder: string): Generator<string> {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const file = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* markdownFiles(file);
    else if (/\.mdx?$/.test(entry.name)) yield file;
  }
}

describe('readPlainParagraph', () => {
  it('reads a tldr description: a blockquote of plain lines, code spans and an autolink', () => {
    const block = '> Install queued packages.\n> See also: `pm install-create`, `` a`b ``.\n> More information: <https://developer.android.com/tools/adb#pm_x>.';
    expect(readPlainParagraph(block)).toBe('Install queued packages.\nSee also: pm install-create, a`b.\nMore information: https://developer.android.com/tools/adb#pm_x.');
    expect(readPlainParagraph(block)).toBe(parsedParagraph(block));
  });

  it('gives what the parser gives wherever it reads a block, and leaves other syntax to the parser', () => {
    const read = ['Plain prose,\nover two lines.', 'Text: 10 % off (really)! Or 50$ | {x}.', '`  `', '` a `', '``x``` y ``', '> a\n>b', 'C# and F#.'];
    const left = [
      '1. item',
      '10) item',
      '- item',
      '+ item',
      '* item',
      'Title\n===',
      'Title\n---',
      'hard  \nbreak',
      'hard\\\nbreak',
      'trailing ',
      '`unclosed',
      '``a`',
      '<div>x</div>',
      'a <b> c',
      'mail <a@b.example>',
      '<https://a.example> first',
      'a &amp; b',
      'fish & chips',
      '> a\n>> b',
      '> a\nlazy',
      '>\ta',
      '>',
      '    code',
      '\ttab',
      '***',
      'snake_case',
      '*emphasis*',
      '~~~',
      '# heading',
      '[link](target)',
      '![image](source)',
      '[ref]: /target',
      '<https://a.example/a&b>',
      '\uFEFFbom',
      'crlf\r\nline',
    ];
    for (const block of read) expect({ block, text: readPlainParagraph(block) }).toEqual({ block, text: parsedParagraph(block) });
    for (const block of left) expect({ block, text: readPlainParagraph(block) }).toEqual({ block, text: undefined });
  });

  it('agrees with the parser on every block of this repository’s markdown, and reads most first paragraphs', () => {
    let compared = 0;
    for (const folder of ['content', 'test/fixtures']) {
      for (const file of markdownFiles(path.join(repo, folder))) {
        for (const block of markdownBlocks(fs.readFileSync(file, 'utf8'))) {
          const text = readPlainParagraph(block);
          if (text === undefined) continue;
          compared += 1;
          expect({ file, block, text }).toEqual({ file, block, text: parsedParagraph(block) });
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });
});
