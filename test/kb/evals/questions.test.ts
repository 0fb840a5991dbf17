/**
 * The question set (content/reference/evaluations.md, "The question set"): parsing, with every
 * problem at its line and question; checking the expected subjects against a knowledge base.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkExpectations, expectableTopicsOf } from '../../../src/kb/evals/check-questions.ts';
import { parseQuestionSet, readQuestionSet } from '../../../src/kb/evals/questions.ts';
import { openTree } from '../../helpers/open-tree.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const FILE = '/kb/evals.toml';

describe('parseQuestionSet', () => {
  it('reads each [[question]] with its line, trimmed texts and expected subjects split at the first "/"', () => {
    const text = `# The team's questions.

[[question]]
id = "install"
ask = "  How do I install it?  "
expect = ["guide/getting-started", "reference/cli/init"]
answer_includes = ["npm install"]
rubric = "Mentions Node 22."

[[question]]
id = "roll-back"
ask = "How do I roll back?"
expect = ["ops/runbooks/rollback"]
`;
    expect(parseQuestionSet(text, FILE)).toEqual({
      questions: [
        {
          id: 'install',
          ask: 'How do I install it?',
          expect: [
            { topic: 'guide', slug: 'getting-started' },
            { topic: 'reference', slug: 'cli/init' },
          ],
          answerIncludes: ['npm install'],
          rubric: 'Mentions Node 22.',
          line: 3,
        },
        { id: 'roll-back', ask: 'How do I roll back?', expect: [{ topic: 'ops', slug: 'runbooks/rollback' }], answerIncludes: [], rubric: undefined, line: 10 },
      ],
      diagnostics: [],
    });
  });

  it('reports TOML syntax errors at their line and column', () => {
    expect(parseQuestionSet('[[question]]\nid = "a\n', FILE).diagnostics).toEqual([
      {
        kind: 'config-error',
        code: 'bad-questions',
        message: expect.stringMatching(/^TOML syntax error in the question set: .+\. Fix the TOML at line 2, column \d+\.$/),
        file: FILE,
        line: 2,
        column: expect.any(Number),
      },
    ]);
  });

  it('reports a file without questions, and "question" that is not an array of tables', () => {
    expect(parseQuestionSet('# nothing yet\n', FILE).diagnostics.map((d) => d.message)).toEqual([
      'The question set has no question. Add [[question]] tables with id, ask and expect (reference/evaluations).',
    ]);
    expect(parseQuestionSet('question = "how?"\n', FILE).diagnostics.map((d) => [d.line, d.message])).toEqual([
      [1, '"question" must be an array of tables: write each question under its own [[question]] header.'],
    ]);
  });

  it('names the key, the question and the line of each problem, and leaves such a question out', () => {
    const text = `[[question]]
ask = "No id?"
expect = ["a/b"]

[[question]]
id = "types"
ask = 42
expect = "a/b"
answer_includes = [""]

[[question]]
id = "long"
ask = "${'why '.repeat(300)}"
expect = ["a/b", "a/b"]
rubrik = "typo"
`;
    const { questions, diagnostics } = parseQuestionSet(text, FILE);
    expect(questions).toEqual([]);
    expect(diagnostics.map((d) => `${d.line}: ${d.message}`)).toEqual([
      '1: question 1: id is missing. Add id = "<name>": lower-case letters, digits and "-", unique in the file.',
      '7: question "types": ask must be a string (got the number 42).',
      '8: question "types": expect must be an array of strings, like ["guide/getting-started"] (got the string "a/b").',
      '9: question "types": answer_includes must be an array of non-empty strings, like ["npm install syllabus-kb"] (got an array).',
      '15: question "long": rubrik is not a key of a question. Did you mean rubric? The keys are id, ask, expect, answer_includes, rubric.',
      '13: question "long": ask is 1200 characters long, over the limit of 1000. Shorten it.',
      '14: question "long": expect names "a/b" twice. Remove one.',
    ]);
  });

  it('keeps the first of two questions with one id or one question, and reports the later as a content error', () => {
    const text = `[[question]]
id = "a"
ask = "How do I deploy?"
expect = ["t/deploy"]

[[question]]
id = "a"
ask = "Something else"
expect = ["t/x"]

[[question]]
id = "b"
ask = "how do i   DEPLOY"
expect = ["t/y"]
`;
    const { questions, diagnostics } = parseQuestionSet(text, FILE);
    expect(questions.map((q) => q.id)).toEqual(['a']);
    expect(diagnostics).toEqual([
      {
        kind: 'content-error',
        code: 'duplicate-question',
        message: 'question "a": the id is already used by the question at line 1. Give each question its own id.',
        file: FILE,
        line: 6,
      },
      {
        kind: 'content-error',
        code: 'duplicate-question',
        message: 'question "b": asks what question "a" (line 1) asks. Remove one, or merge their expected subjects.',
        file: FILE,
        line: 11,
      },
    ]);
  });
});

describe('readQuestionSet', () => {
  it('reports a missing file as a configuration error, with how to fix it', () => {
    const file = path.join(makeTree({}), 'evals.toml');
    expect(readQuestionSet(file)).toEqual({
      file,
      questions: [],
      diagnostics: [
        {
          kind: 'config-error',
          code: 'bad-questions',
          message: 'The question set does not exist. Create it with [[question]] tables (reference/evaluations), or correct [eval] questions in kb.toml.',
          file,
        },
      ],
    });
  });
});

describe('checkExpectations', () => {
  const { kb } = openTree(
    `[kb.topic.ops]
subjects = "ops"
disabled = ["drafts/**"]

[kb.topic.old]
subjects = "old"
enable = false
`,
    { 'ops/deploy.md': '# Deploy\n', 'ops/.secret.md': '# Secret\n', 'ops/drafts/next.md': '# Next\n', 'old/a.md': '# A\n' },
  );
  const questions = parseQuestionSet(
    `[[question]]
id = "q"
ask = "How?"
expect = ["ops/deploy", "ops/secret", "ops/deplyo", "ops/drafts/next", "old/a", "opps/deploy"]
`,
    FILE,
  ).questions;

  it('accepts visible and hidden subjects, and names each unknown or disabled one with a suggestion', () => {
    expect(checkExpectations(questions, FILE, expectableTopicsOf(kb)).map((d) => `${d.code}: ${d.message}`)).toEqual([
      'unknown-expected: question "q": expect "ops/deplyo" names no subject of topic "ops". Did you mean "ops/deploy"? Use a slug that "syllabus learn ops" lists, or a hidden subject\'s exact slug.',
      'disabled-expected: question "q": expect "ops/drafts/next" is a disabled subject: no agent can ever load it. Expect the subject that replaced it, or remove it from kb.topic.ops.disabled.',
      'unknown-expected: question "q": expect "old/a" names the topic "old", which is disabled (enable = false): no agent can learn from it. Expect a subject of an enabled topic, or enable it.',
      'unknown-expected: question "q": expect "opps/deploy" names no topic "opps". Did you mean "ops"? Use a topic of [kb.topic.*]: ops.',
    ]);
  });

  it("places each problem at the question's header, in the question set", () => {
    expect(checkExpectations(questions, FILE, expectableTopicsOf(kb)).map((d) => [d.kind, d.file, d.line])).toEqual(Array(4).fill(['content-error', FILE, 1]));
  });
});
