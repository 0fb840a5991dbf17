/**
 * The offline evaluation (content/reference/evaluations.md): ranks in find, how the section and
 * the listing lead to each expected subject, the tokens read to reach it, the totals; and the
 * table `syllabus eval` prints.
 */
import { describe, expect, it } from 'vitest';
import { countTokens, loadTokenizer } from '../../../src/kb/catalog/tokens.ts';
import { topicTitlesOf } from '../../../src/kb/evals/checked-questions.ts';
import { evaluateQuestions, totalsOf } from '../../../src/kb/evals/evaluate.ts';
import { parseQuestionSet } from '../../../src/kb/evals/questions.ts';
import { renderReport, unmetThresholds } from '../../../src/kb/evals/render-report.ts';
import { createLocalView } from '../../../src/kb/view/local-view.ts';
import { openTree } from '../../helpers/open-tree.ts';

const TREE = {
  'ops/deploy.md': '# Deploying\n\nRun `make deploy` to ship a release to production.\n',
  'ops/rollback.md': '# Rolling back\n\nRoll back a release with `make rollback`.\n',
  'ops/.keys.md': '# Keys\n\nThe deploy key lives in the vault.\n',
  'team/on-call.md': '# On call\n\nDana is on call this week.\n',
  'team/reviews.md': '# Reviews\n\nTwo approvals for every pull request.\n',
};
const TOML = `[kb.topic.ops]
title = "Operations"
subjects = "ops"

[kb.topic.team]
subjects = "team"
learned = ["on-call"]
`;
const QUESTIONS = parseQuestionSet(
  `[[question]]
id = "ship"
ask = "How do I ship a release to production?"
expect = ["ops/deploy"]

[[question]]
id = "keys"
ask = "Where is the deploy key?"
expect = ["ops/keys", "ops/deploy"]

[[question]]
id = "on-call"
ask = "Who is on call?"
expect = ["team/on-call"]

[[question]]
id = "approvals"
ask = "How many approvals does a change need?"
expect = ["team/reviews"]
`,
  '/evals.toml',
).questions;

async function evaluate(toml: string) {
  const { kb } = openTree(toml, TREE);
  return evaluateQuestions(createLocalView(kb), QUESTIONS, topicTitlesOf(kb));
}

describe('evaluateQuestions', () => {
  it('ranks, reaches and counts each expected subject through find, the section, the listing and learn', async () => {
    const { kb } = openTree(TOML, TREE);
    const view = createLocalView(kb);
    const report = await evaluateQuestions(view, QUESTIONS, topicTitlesOf(kb));
    await loadTokenizer();
    const section = countTokens((await view.prompt())!);
    const listing = async (topic: string) => {
      const outcome = await view.listing(topic);
      return countTokens(outcome.ok ? outcome.text : '');
    };
    const subject = async (topic: string, slug: string) => {
      const outcome = await view.learn({ topic, subjects: slug });
      return countTokens(outcome.ok ? outcome.text : '');
    };
    const [ops, team, deploy, keys, reviews] = await Promise.all([listing('ops'), listing('team'), subject('ops', 'deploy'), subject('ops', 'keys'), subject('team', 'reviews')]);
    const found = await view.find({ query: 'Where is the deploy key?', limit: 10 });
    const keysRank = found.ok ? found.results.findIndex((r) => r.slug === 'deploy') + 1 : 0;
    expect(keysRank).toBeGreaterThan(0);

    expect(report).toEqual({
      version: 1,
      findLimit: 10,
      sectionTokens: section,
      questions: [
        {
          id: 'ship',
          ask: 'How do I ship a release to production?',
          rank: 1,
          hitAt1: true,
          hitAt3: true,
          reciprocalRank: 1,
          section: 'topic',
          listed: true,
          tokens: section + ops + deploy,
          expect: [{ topic: 'ops', slug: 'deploy', rank: 1, section: 'topic', listed: true, tokens: deploy }],
        },
        {
          id: 'keys',
          ask: 'Where is the deploy key?',
          rank: keysRank,
          hitAt1: keysRank === 1,
          hitAt3: keysRank <= 3,
          reciprocalRank: Math.round(10000 / keysRank) / 10000,
          section: 'topic',
          // The hidden subject is loadable by name but listed nowhere and never found.
          listed: false,
          tokens: section + ops + keys + deploy,
          expect: [
            { topic: 'ops', slug: 'keys', rank: null, section: 'topic', listed: false, tokens: keys },
            { topic: 'ops', slug: 'deploy', rank: keysRank, section: 'topic', listed: true, tokens: deploy },
          ],
        },
        {
          id: 'on-call',
          ask: 'Who is on call?',
          rank: 1,
          hitAt1: true,
          hitAt3: true,
          reciprocalRank: 1,
          section: 'preloaded',
          listed: true,
          // Already in the prompt: nothing more to read.
          tokens: section,
          expect: [{ topic: 'team', slug: 'on-call', rank: 1, section: 'preloaded', listed: true, tokens: expect.any(Number) }],
        },
        {
          id: 'approvals',
          ask: 'How many approvals does a change need?',
          rank: 1,
          hitAt1: true,
          hitAt3: true,
          reciprocalRank: 1,
          section: 'topic',
          listed: true,
          tokens: section + team + reviews,
          expect: [{ topic: 'team', slug: 'reviews', rank: 1, section: 'topic', listed: true, tokens: reviews }],
        },
      ],
      totals: totalsOf(report.questions),
    });
  });

  it('says "index" for a subject the section\'s index of subjects lists, and "none" for a topic the section does not name', async () => {
    const indexed = await evaluate(`${TOML}\n[kb.prompt]\nindex = true\n`);
    expect(indexed.questions.map((q) => [q.id, q.expect.map((e) => e.section)])).toEqual([
      ['ship', ['index']],
      // Hidden subjects are never in the index.
      ['keys', ['topic', 'index']],
      ['on-call', ['preloaded']],
      ['approvals', ['index']],
    ]);
    const everythingLearned = await evaluate(
      TOML.replace('learned = ["on-call"]', 'learned = ["*"]').replace('subjects = "ops"', 'subjects = "ops"\nlearned = ["deploy", "rollback"]'),
    );
    // Every visible subject pre-loaded: no topic is listed; the hidden subject's topic is named only by its pre-loaded block.
    expect(everythingLearned.questions.map((q) => [q.id, q.section])).toEqual([
      ['ship', 'preloaded'],
      ['keys', 'topic'],
      ['on-call', 'preloaded'],
      ['approvals', 'preloaded'],
    ]);
  });

  it('is deterministic', async () => {
    expect(await evaluate(TOML)).toEqual(await evaluate(TOML));
  });
});

describe('totalsOf', () => {
  it('averages hits, reciprocal ranks and tokens, rounded; zeros without questions', () => {
    const question = (rank: number | null, tokens: number, section: 'topic' | 'none' = 'topic') => ({
      id: 'q',
      ask: 'q',
      rank,
      hitAt1: rank === 1,
      hitAt3: rank !== null && rank <= 3,
      reciprocalRank: rank === null ? 0 : Math.round(10000 / rank) / 10000,
      section,
      listed: true,
      tokens,
      expect: [],
    });
    expect(totalsOf([question(1, 100), question(3, 201), question(null, 300, 'none')])).toEqual({
      questions: 3,
      hitAt1: 0.3333,
      hitAt3: 0.6667,
      mrr: 0.4444,
      meanTokens: 200,
      led: 0.6667,
    });
    expect(totalsOf([])).toEqual({ questions: 0, hitAt1: 0, hitAt3: 0, mrr: 0, meanTokens: 0, led: 0 });
  });
});

describe('renderReport', () => {
  it('prints an aligned table, numbers to the right, then the totals', async () => {
    const report = await evaluate(TOML);
    const keys = report.questions[1]!;
    const rows = report.questions.map((q) => [q.id, q.rank === null ? '-' : String(q.rank), q.section, q.listed ? 'yes' : 'no', String(q.tokens)]);
    const width = Math.max(...rows.map((r) => r[4]!.length), 'tokens'.length);
    const line = (id: string, rank: string, section: string, listed: string, tokens: string) =>
      `${id.padEnd(9)}  ${rank.padStart(4)}  ${section.padEnd(9)}  ${listed.padEnd(6)}  ${tokens.padStart(width)}`;
    expect(renderReport(report)).toBe(
      [
        line('question', 'rank', 'section', 'listed', 'tokens'),
        ...rows.map((r) => line(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!)),
        '',
        `4 questions: hit@1 ${(keys.rank === 1 ? 1 : 0.75).toFixed(2)}, hit@3 ${(keys.hitAt3 ? 1 : 0.75).toFixed(2)}, MRR ${report.totals.mrr.toFixed(2)}, mean tokens ${report.totals.meanTokens}`,
      ].join('\n'),
    );
  });
});

describe('unmetThresholds', () => {
  const totals = { questions: 4, hitAt1: 0.5, hitAt3: 0.75, mrr: 0.625, meanTokens: 100, led: 1 };
  it('names each total under its threshold, and nothing when none is set or all are met', () => {
    expect(unmetThresholds(totals, { min_hit_at_3: 0.8, min_mrr: 0.7 })).toEqual([
      'hit@3 is 0.75, under [eval] min_hit_at_3 = 0.8. Improve the subjects or their titles and summaries so that find ranks them higher (reference/evaluations, "Reading the figures"), or lower the threshold in [eval].',
      'MRR is 0.625, under [eval] min_mrr = 0.7. Improve the subjects or their titles and summaries so that find ranks them higher (reference/evaluations, "Reading the figures"), or lower the threshold in [eval].',
    ]);
    expect(unmetThresholds(totals, { min_hit_at_3: 0.75, min_mrr: undefined })).toEqual([]);
    expect(unmetThresholds(totals, { min_hit_at_3: undefined, min_mrr: undefined })).toEqual([]);
  });
});
