/**
 * Learnings as subjects (content/reference/cli/learnings.md, "As a topic"): slugs
 * `<category>/<id>` that stay valid and distinct for any id, the markdown each learning becomes
 * (what `learn` returns), and collisions.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressOf, formatConfidence, learningSlug, slugOf, type Learning, type LearningsStore } from '../../../src/kb/index.ts';
import { parseLearningsStore } from '../../../src/kb/learnings/store.ts';
import { learningSlugSegment, learningSubjects, renderLearning } from '../../../src/kb/learnings/subjects.ts';
import { SAMPLE_LEARNING } from '../../helpers/sample-learning.ts';

function learning(fields: Partial<Learning> = {}): Learning {
  return { ...SAMPLE_LEARNING, ...fields };
}

function store(entries: unknown[]): LearningsStore {
  const text = `{\n  "learnings": [\n${entries.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}\n  ]\n}\n`;
  const reading = parseLearningsStore(text);
  if (!reading.ok) throw new Error(reading.problem);
  return reading.store;
}

describe('learningSlug', () => {
  it.each([
    ['learn-lx2abc-def123', 'pattern/learn-lx2abc-def123'],
    ['a/b', 'pattern/a~2Fb'],
    ['a\\b', 'pattern/a~5Cb'],
    ['.hidden', 'pattern/~2Ehidden'],
    ['.', 'pattern/~2E'],
    ['..', 'pattern/~2E.'],
    ['a.b.md', 'pattern/a.b.md'],
    ['~2F', 'pattern/~7E2F'],
    ['line\nbreak\ttab', 'pattern/line~0Abreak~09tab'],
    ['del\u007f\u0085', 'pattern/del~7F~C2~85'],
    ['café *?[x]', 'pattern/café *?[x]'],
  ])('id %j → %j', (id, slug) => {
    expect(learningSlug({ category: 'pattern', id })).toBe(slug);
  });

  it('gives every id one segment that is not hidden, never "." or "..", and distinct ids distinct segments', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, unit: 'grapheme-composite' }), fc.string({ minLength: 1, unit: 'grapheme-composite' }), (a, b) => {
        const sa = learningSlugSegment(a);
        expect(sa).not.toContain('/');
        expect(sa.startsWith('.')).toBe(false);
        expect(sa).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        const slug = learningSlug({ category: 'fact', id: a });
        expect(slugOf(`${slug}.md`)).toMatchObject({ slug, hidden: false });
        expect(addressOf(slug).split('/')).toHaveLength(2);
        if (a !== b) expect(sa).not.toBe(learningSlugSegment(b));
      }),
    );
  });
});

describe('renderLearning (the content learn returns)', () => {
  it('renders the example learning of content/reference/cli/learnings.md', () => {
    expect(renderLearning(learning())).toBe(`# This project uses Zod schemas for all API validation

- Confidence: 0.75
- Used: 5 times, 4 successful
- Last used: 2024-01-14T15:30:00.000Z
- Created: 2024-01-10T08:00:00.000Z
- Keywords: zod, schema, validation, api`);
  });

  it('renders a new learning: never used, no keywords, no last use', () => {
    expect(renderLearning(learning({ confidence: 0.5, usedCount: 0, successCount: 0, keywords: [], lastUsedAt: undefined })))
      .toBe(`# This project uses Zod schemas for all API validation

- Confidence: 0.5
- Used: never
- Created: 2024-01-10T08:00:00.000Z`);
  });

  it('keeps the rest of a multi-line content below the title, and shows structured details', () => {
    const content = '\n## Releases need a changeset  \r\n\r\nRun `npx changeset` before you open the PR.\n\n- one per package\n\n';
    const rendered = renderLearning(
      learning({ content, usedCount: 1, successCount: 1, confidence: 0.30000000000000004, structured: { file: 'src/release.ts', pattern: 'x `y` z', approach: 'Automate\n  it' } }),
    );
    expect(rendered).toBe(`# Releases need a changeset

Run \`npx changeset\` before you open the PR.

- one per package

- Confidence: 0.3
- Used: 1 time, 1 successful
- Last used: 2024-01-14T15:30:00.000Z
- Created: 2024-01-10T08:00:00.000Z
- Keywords: zod, schema, validation, api
- File: \`src/release.ts\`
- Pattern: \`\`x \`y\` z\`\`
- Approach: Automate it`);
  });

  it('titles a learning by its id when its first line opens a code fence', () => {
    expect(renderLearning(learning({ content: '```sh\nnpm ci\n```', keywords: [], lastUsedAt: undefined, usedCount: 0, successCount: 0 }))).toBe(`# learn-lx2abc-def123

\`\`\`sh
npm ci
\`\`\`

- Confidence: 0.75
- Used: never
- Created: 2024-01-10T08:00:00.000Z`);
  });

  it('pads inline code that starts or ends with a backtick, and drops empty structured values and keywords', () => {
    expect(renderLearning(learning({ content: 'x', keywords: [' ', 'a\nb'], structured: { file: '`a`', pattern: ' ', approach: '' }, lastUsedAt: undefined }))).toBe(`# x

- Confidence: 0.75
- Used: 5 times, 4 successful
- Created: 2024-01-10T08:00:00.000Z
- Keywords: a b
- File: \`\` \`a\` \`\``);
  });

  it('rounds confidence to two decimals', () => {
    expect([0, 1, 0.5, 0.95, 0.123, 0.30000000000000004, 0.999].map(formatConfidence)).toEqual(['0', '1', '0.5', '0.95', '0.12', '0.3', '1']);
  });
});

describe('learningSubjects', () => {
  it('makes one markdown subject per valid learning, sorted by slug, carrying the learning and its line', () => {
    const result = learningSubjects(store([learning({ id: 'b', category: 'gotcha' }), learning({ id: 'a' })]), '/kb/learnings/knowledge.json', 'team');
    expect(result.diagnostics).toEqual([]);
    expect(result.subjects).toEqual([
      {
        slug: 'gotcha/b',
        path: 'knowledge.json#b',
        file: '/kb/learnings/knowledge.json',
        hidden: false,
        extension: 'md',
        format: 'markdown',
        learning: { entry: learning({ id: 'b', category: 'gotcha' }), line: 3 },
      },
      {
        slug: 'pattern/a',
        path: 'knowledge.json#a',
        file: '/kb/learnings/knowledge.json',
        hidden: false,
        extension: 'md',
        format: 'markdown',
        learning: { entry: learning({ id: 'a' }), line: 4 },
      },
    ]);
    expect([...result.bySlug.keys()]).toEqual(['gotcha/b', 'pattern/a']);
  });

  it('leaves out invalid entries with a warning each, at their line', () => {
    const result = learningSubjects(store([learning({ id: 'ok' }), learning({ id: 'bad', confidence: -1 }), 'x']), '/kb/k.json', 'team');
    expect(result.subjects.map((s) => s.slug)).toEqual(['pattern/ok']);
    expect(result.diagnostics).toEqual([
      {
        kind: 'warning',
        code: 'invalid-learning',
        message: 'learnings[1] (id "bad") is not a valid learning: confidence is -1, expected a number from 0 to 1. It is left out of topic "team" until the entry is fixed.',
        file: '/kb/k.json',
        line: 4,
      },
      {
        kind: 'warning',
        code: 'invalid-learning',
        message: 'learnings[2] is not a valid learning: it is "x", not an object. It is left out of topic "team" until the entry is fixed.',
        file: '/kb/k.json',
        line: 5,
      },
    ]);
  });

  it('keeps the first of entries with one category and id, and reports the collision as a duplicate slug naming each', () => {
    const first = learning({ id: 'x', content: 'first' });
    const result = learningSubjects(
      store([first, learning({ id: 'x', category: 'fact' }), learning({ id: 'x', content: 'second' }), learning({ id: 'x', content: 'third' })]),
      '/kb/k.json',
      'team',
    );
    expect(result.subjects.map((s) => [s.slug, s.learning?.entry.content])).toEqual([
      ['fact/x', 'This project uses Zod schemas for all API validation'],
      ['pattern/x', 'first'],
    ]);
    expect(result.diagnostics).toEqual([
      {
        kind: 'content-error',
        code: 'duplicate-slug',
        message:
          'Duplicate slug "pattern/x" in topic "team": learnings[0] (line 3), learnings[2] (line 5), learnings[3] (line 6) all have this category and id; learnings[0] (line 3) is used. Give each learning its own id, or remove the copies.',
        file: '/kb/k.json',
        line: 5,
      },
    ]);
  });
});
