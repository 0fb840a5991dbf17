/**
 * Keywords (content/reference/cli/find.md): the words of title, then summary, then headings, under
 * the one tokenizer `check` also uses for near-duplicates; the headings of a markdown subject; and the keywords and
 * confidence the catalog gives each subject.
 */
import fc from 'fast-check';
import { toString } from 'mdast-util-to-string';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, loadMarkdownParser } from '../../../src/kb/index.ts';
import { KEYWORD_LIMIT, keywordsOf, subjectKeywords } from '../../../src/kb/summaries/keywords.ts';
import { markdownHeadings } from '../../../src/kb/markdown/headings.ts';
import { openTree } from '../../helpers/open-tree.ts';

beforeAll(loadMarkdownParser);

describe('subjectKeywords', () => {
  it('takes the words of the title, then the summary, then the headings, each once', () => {
    expect(
      subjectKeywords({ title: 'Deploying the API', summary: 'How we deploy: build, then ship the API.', headings: ['Deploying the API', 'Rollback', 'Build cache'] }),
    ).toEqual(['deploying', 'api', 'deploy', 'build', 'ship', 'rollback', 'cache']);
  });

  it('lower-cases with toLowerCase(), deletes punctuation, drops stop words and words of 2 characters or fewer', () => {
    expect(subjectKeywords({ title: "Don't Use `ast-grep` On It", summary: 'ÉCOLE, Über and go/no-go: A to of is.', headings: ['C++ & Rust'] })).toEqual([
      'use',
      'astgrep',
      'école',
      'über',
      'gonogo',
      'rust',
    ]);
  });

  it('keeps the first 20', () => {
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`);
    expect(KEYWORD_LIMIT).toBe(20);
    expect(subjectKeywords({ title: words.slice(0, 5).join(' '), summary: words.slice(5, 15).join(' '), headings: words.slice(15) })).toEqual(words.slice(0, 20));
  });

  it('has none for a subject with no word', () => {
    expect(subjectKeywords({ title: 'a', summary: '', headings: ['--', 'of the'] })).toEqual([]);
  });
});

describe('keywordsOf (a query)', () => {
  it('extracts the same way, the first 20', () => {
    expect(keywordsOf('How do I roll back a deploy of the API?')).toEqual(['roll', 'back', 'deploy', 'api']);
    expect(keywordsOf(Array.from({ length: 25 }, (_, i) => `w${i}x`).join(' '))).toHaveLength(20);
  });
});

describe('markdownHeadings', () => {
  it('reads ATX and setext headings in document order, as plain text', () => {
    const text = [
      '# Title #',
      '',
      'Intro with a # in it.',
      '',
      'Setext one',
      '==========',
      '',
      '## The [learn](learn-tool.md) *tool* ##',
      '',
      'Two lines of',
      'setext heading',
      '---',
      '',
      '###### Six',
      '#######  Seven is a paragraph',
      '#nospace is a paragraph',
      '#',
    ].join('\n');
    expect(markdownHeadings(text)).toEqual(['Title', 'Setext one', 'The learn tool', 'Two lines of setext heading', 'Six']);
  });

  it('finds headings in lists and quotes, and none in code blocks or after the front matter lines it is told to skip', () => {
    const text = [
      '---',
      'title: X',
      '---',
      '# After front matter',
      '',
      '> ## Quoted',
      '',
      '- # Listed',
      '',
      '```md',
      '# fenced',
      '',
      '# still fenced',
      '```',
      '',
      '    # indented code',
    ].join('\n');
    expect(markdownHeadings(text, 3)).toEqual(['After front matter', 'Quoted', 'Listed']);
  });

  it('equals the headings of the whole document parsed at once, for documents made of headings, paragraphs, quotes, lists and fences', () => {
    const processor = unified().use(remarkParse);
    const wholeParse = (text: string): string[] => {
      const out: string[] = [];
      const visit = (node: { type: string; children?: unknown[] }): void => {
        if (node.type === 'heading') {
          const heading = toString(node).replace(/\s+/g, ' ').trim();
          if (heading !== '') out.push(heading);
          return;
        }
        for (const child of node.children ?? []) visit(child as { type: string; children?: unknown[] });
      };
      visit(processor.parse(text));
      return out;
    };
    const word = fc.constantFrom('deploy', 'the', '[link](x.md)', '*em*', '`code`', '&amp;', 'Über', '#', '==', '--');
    const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const block = fc.oneof(
      fc.tuple(fc.integer({ min: 1, max: 6 }), words, fc.boolean()).map(([depth, text, closed]) => `${'#'.repeat(depth)} ${text}${closed ? ' ##' : ''}`),
      fc.tuple(words, fc.constantFrom('===', '---')).map(([text, line]) => `${text}\n${line}`),
      words,
      fc.tuple(words, words).map(([a, b]) => `${a}\n${b}`),
      words.map((text) => `> ## ${text}`),
      words.map((text) => `- ${text}\n- # ${text}`),
      words.map((text) => `\`\`\`\n# ${text}\n\n${text}\n===\n\`\`\``),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 8 }), (blocks) => {
        const text = blocks.join('\n\n');
        expect(markdownHeadings(text)).toEqual(wholeParse(text));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the catalog', () => {
  it('gives each subject its keywords (headings of markdown only) and a confidence of 1', async () => {
    const { kb } = openTree('[kb.topic.notes]\nsubjects = "notes"\n', {
      'notes/deploy.md': '---\ntitle: Deploying\ndescription: Ship daily.\n---\n# Ignored title heading\n\nBody text.\n\n## Rollback steps\n',
      'notes/plain.txt': 'Plain text paragraph.\n\n# not a heading here\n',
      'notes/tool.py': '# Cleans caches.\n# Run nightly.\nprint("x")\n',
      'notes/.hidden.md': '# Hidden words\n',
    });
    const { catalog } = await buildCatalog(kb);
    expect(catalog.topics[0]!.subjects.map((s) => [s.slug, s.keywords, s.confidence])).toEqual([
      ['deploy', ['deploying', 'ship', 'daily', 'ignored', 'title', 'heading', 'rollback', 'steps'], 1],
      ['hidden', ['hidden', 'words'], 1],
      ['plain', ['plain', 'text', 'paragraph'], 1],
      ['tool', ['tool', 'cleans', 'caches', 'run', 'nightly'], 1],
    ]);
  });
});
