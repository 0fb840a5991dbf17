/**
 * The index of subjects of the `<knowledge>` section (content/agents/knowledge-section.md): its
 * order, its one-line summaries, and its text whole, within the budget and at it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { countTokens, countTokensHere, loadTokenizer } from '../../../src/kb/catalog/tokens.ts';
import { oneLineSummary, orderIndexSubjects, renderPromptIndex } from '../../../src/kb/knowledge/prompt-index.ts';

const TOPICS = [
  {
    id: 'guide',
    subjects: [
      { slug: 'concepts/slugs', summary: 'How slugs are made.' },
      { slug: 'deploy', summary: 'Ship it. Then watch the graphs.' },
      { slug: 'welcome', summary: '' },
    ],
  },
  { id: 'ops', subjects: [{ slug: 'runbooks/db', summary: 'Restore the database.' }] },
  { id: 'empty', subjects: [] },
];

/** Counts words, so that budgets in these tests can be read off the text. */
const words = async (text: string): Promise<number> => text.split(/\s+/).filter(Boolean).length;

beforeAll(async () => {
  await loadTokenizer();
});

describe('orderIndexSubjects', () => {
  it('lets topics take turns in config order, each topic’s shallowest subjects first, then in slug order', () => {
    expect(orderIndexSubjects(TOPICS).map((s) => `${s.topic}/${s.slug}`)).toEqual(['guide/deploy', 'ops/runbooks/db', 'guide/welcome', 'guide/concepts/slugs']);
  });
});

describe('oneLineSummary', () => {
  it('keeps the first sentence on one line, and cuts a long one at a space', () => {
    expect(oneLineSummary('Ship it.\nThen   watch the graphs.')).toBe('Ship it.');
    expect(oneLineSummary('v1.2 of the tool: no sentence end')).toBe('v1.2 of the tool: no sentence end');
    const long = `${'word '.repeat(40)}end.`;
    expect(oneLineSummary(long)).toBe(`${'word '.repeat(23).trim()}…`);
  });
});

describe('renderPromptIndex', () => {
  const ordered = orderIndexSubjects(TOPICS);

  it('lists every subject when the budget holds them all', async () => {
    expect(await renderPromptIndex(ordered, 1000, countTokensHere)).toBe(
      [
        'Subjects you can learn, most useful first (topic/slug: summary):',
        '',
        '- guide/deploy: Ship it.',
        '- ops/runbooks/db: Restore the database.',
        '- guide/welcome',
        '- guide/concepts/slugs: How slugs are made.',
      ].join('\n'),
    );
  });

  it('stops where the budget is hit and counts the subjects left out, the whole text within the budget', async () => {
    // Heading 9 words, "… and 2 more: use learn with a topic to list them." 12, the first two lines 4 and 5: 30.
    expect(await renderPromptIndex(ordered, 30, words)).toBe(
      [
        'Subjects you can learn, most useful first (topic/slug: summary):',
        '',
        '- guide/deploy: Ship it.',
        '- ops/runbooks/db: Restore the database.',
        '… and 2 more: use learn with a topic to list them.',
      ].join('\n'),
    );
    expect((await renderPromptIndex(ordered, 29, words)).split('\n')).toHaveLength(4);
    for (const budget of [30, 40, 60, 80]) expect(countTokens(await renderPromptIndex(ordered, budget, countTokensHere))).toBeLessThanOrEqual(budget);
  });

  it('is empty without subjects, or when the budget cannot hold the heading and the count', async () => {
    expect(await renderPromptIndex([], 1000, countTokensHere)).toBe('');
    expect(await renderPromptIndex(ordered, 20, words)).toBe('');
    expect(await renderPromptIndex(ordered, 21, words)).toBe(
      ['Subjects you can learn, most useful first (topic/slug: summary):', '', '… and 4 more: use learn with a topic to list them.'].join('\n'),
    );
  });

  it('counts the lines of a long index in chunks and stops at the same line as one by one', async () => {
    // 200 subjects: "- many/sNNN" is 2 words a line, so a budget of 21 + 2n keeps n lines, inside a chunk or at its edge.
    const many = Array.from({ length: 200 }, (_, n) => ({ topic: 'many', slug: `s${String(n).padStart(3, '0')}`, summary: '' }));
    for (const kept of [0, 1, 63, 64, 65, 130, 199]) {
      const lines = (await renderPromptIndex(many, 21 + 2 * kept, words)).split('\n');
      expect(lines.slice(2, -1)).toEqual(many.slice(0, kept).map((s) => `- many/${s.slug}`));
      expect(lines.at(-1)).toBe(`… and ${200 - kept} more: use learn with a topic to list them.`);
    }
    expect((await renderPromptIndex(many, 21 + 2 * 200, words)).split('\n')).toHaveLength(202);
  });
});
