/** demoteHeadings (src/kb/markdown/demote-headings.ts), as `/llms-full.txt` uses it. */
import { describe, expect, it } from 'vitest';
import { demoteHeadings } from '../../../src/kb/markdown/demote-headings.ts';

describe('demoteHeadings', () => {
  it('moves ATX headings down, capped at level 6, and leaves code fences alone', () => {
    expect(demoteHeadings('# One\n\ntext\n\n## Two ##\n\n```sh\n# a comment\n```\n\n##### Five\n###### Six\n#no heading', 2)).toBe(
      '### One\n\ntext\n\n#### Two ##\n\n```sh\n# a comment\n```\n\n###### Five\n###### Six\n#no heading',
    );
  });

  it('writes setext headings as ATX ones, a paragraph of several lines on one line', () => {
    expect(demoteHeadings('Title\n=====\n\nPart one\ncontinued\n---\n\ntext', 2)).toBe('### Title\n\n#### Part one continued\n\ntext');
  });

  it('keeps a thematic break after a blank line or a list, which is not a heading', () => {
    expect(demoteHeadings('text\n\n---\n\n- item\n---\n', 2)).toBe('text\n\n---\n\n- item\n---\n');
  });
});
