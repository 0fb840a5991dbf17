import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdownParser } from '../../../src/kb/index.ts';
import { cutSummary, summarize, type SummaryInput } from '../../../src/kb/summaries/extractive.ts';

beforeAll(loadMarkdownParser);

const markdown = (text: string, extra: Partial<SummaryInput> = {}): string => summarize({ format: 'markdown', text, frontMatterLines: 0, description: undefined, ...extra });

describe('summarize', () => {
  it('takes the front matter description first, on one line', () => {
    const text = '---\ndescription: |\n  Two lines\n  of description.\n---\n# Title\n\nA paragraph.';
    expect(markdown(text, { frontMatterLines: 5, description: 'Two lines\nof description.\n' })).toBe('Two lines of description.');
  });

  it('else takes the first paragraph, markdown syntax removed', () => {
    expect(markdown('# Deploying\n\nShip **every** day with `make deploy`; see [the runbook](runbook.md).\nSecond line.\n\nNext paragraph.')).toBe(
      'Ship every day with make deploy; see the runbook. Second line.',
    );
  });

  it('skips front matter, headings, code blocks and HTML to reach the first paragraph', () => {
    const text = '---\ntitle: T\n---\n# T\n\n```sh\nnot this\n```\n\n<div>nor this</div>\n\n## Sub\n\nThis one.';
    expect(markdown(text, { frontMatterLines: 3 })).toBe('This one.');
  });

  it('finds a paragraph inside a blockquote (tldr pages have no other)', () => {
    expect(markdown('# tar\n\n> Archiving utility.\n> More information: <https://www.gnu.org/software/tar>.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file1}}`')).toBe(
      'Archiving utility. More information: https://www.gnu.org/software/tar.',
    );
  });

  it('finds a first paragraph that comes after a long opening', () => {
    const opening = `\`\`\`text\n${'x\n'.repeat(5000)}\`\`\`\n\n`;
    expect(markdown(`${opening}Found after the code.`)).toBe('Found after the code.');
  });

  it('never takes a line from inside a fenced block, blank lines and all', () => {
    expect(markdown('# T\n\n```md\nnot\n\nthis paragraph\n```\n\n~~~\n\nnor this\n~~~\n\nBut this.')).toBe('But this.');
  });

  it('gives "" for markdown without a paragraph', () => {
    expect(markdown('# Only a heading\n\n```\ncode\n```')).toBe('');
  });

  it('takes the first block of a text subject', () => {
    expect(summarize({ format: 'text', text: '\n\nPlain notes.\nSecond line.\n\nLater.', frontMatterLines: 0, description: undefined })).toBe('Plain notes. Second line.');
  });

  it('takes the leading comment of a code subject, else ""', () => {
    const code = (text: string): string => summarize({ format: 'code', text, frontMatterLines: 0, description: undefined });
    expect(code('#!/usr/bin/env python3\n# Deploys the service.\n# Run it from CI.\nimport os\n# not this')).toBe('Deploys the service. Run it from CI.');
    expect(code('// Shared settings.\n\n// Not this block.\nexport {};')).toBe('Shared settings.');
    expect(code('{"name": "api"}')).toBe('');
  });
});

describe('cutSummary', () => {
  it('keeps a text of up to 300 characters whole', () => {
    const text = 'a'.repeat(300);
    expect(cutSummary(text)).toBe(text);
  });

  it('cuts at the last sentence end near 300 characters', () => {
    const first = `${'Word '.repeat(50).trim()}.`;
    const second = `${'More '.repeat(20).trim()}.`;
    const third = `${'Tail '.repeat(40).trim()}.`;
    expect(cutSummary(`${first} ${second} ${third}`)).toBe(`${first} ${second}`);
  });

  it('cuts at a word with an ellipsis when no sentence ends near the length', () => {
    const text = 'word '.repeat(100).trim();
    expect(cutSummary(text)).toBe(`${'word '.repeat(60).trim()}…`);
  });
});
