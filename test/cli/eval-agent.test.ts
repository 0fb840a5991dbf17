/**
 * The command side of the agent evaluation (src/cli/eval-agent.ts): the table and totals, the JSON,
 * the exit code under `min_score`, the messages of failed questions, and a config without
 * `[eval.agent]`. The tool loop itself is test/evals/agent-evaluation.test.ts's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalView, loadConfig, openKnowledgeBase } from '../../src/kb/index.ts';
import type { AgentQuestionResult } from '../../src/kb/evals/agent-results.ts';
import { totalAgentResults } from '../../src/kb/evals/agent-results.ts';
import type { EvalQuestion } from '../../src/kb/evals/questions.ts';
import { renderAgentTable, runAgentEvaluation } from '../../src/cli/eval-agent.ts';
import { CliError } from '../../src/cli/errors.ts';
import { startFakeChat, type FakeChat } from '../helpers/fake-chat.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { ROOT, runCliInProcess } from '../helpers/run-cli.ts';

const counts = (calls: number, promptTokens: number, completionTokens: number, ms: number) => ({ calls, promptTokens, completionTokens, estimated: false, ms });

const RESULTS: AgentQuestionResult[] = [
  {
    id: 'install',
    score: 1,
    subjects: [{ topic: 'guide', slug: 'install', loaded: true, preloaded: false, foundFirst: true }],
    answerIncludes: [{ text: 'npm install', found: true }],
    judge: { pass: true, reason: 'ok' },
    answer: 'npm install demo-kb',
    toolCalls: [],
    counts: counts(3, 2400, 120, 1830),
    cached: false,
    error: null,
  },
  {
    id: 'rollback-in-production',
    score: 0.25,
    subjects: [
      { topic: 'ops', slug: 'runbook', loaded: true, preloaded: false, foundFirst: false },
      { topic: 'ops', slug: 'rollback', loaded: false, preloaded: false, foundFirst: false },
    ],
    answerIncludes: [],
    judge: { error: 'the judge did not answer with {"pass": true|false, "reason": "…"}' },
    answer: 'Roll back.',
    toolCalls: [],
    counts: counts(4, 5100, 300, 12_049),
    cached: true,
    error: null,
  },
  {
    id: 'slow',
    score: 0,
    subjects: [{ topic: 'guide', slug: 'deploy', loaded: false, preloaded: false, foundFirst: false }],
    answerIncludes: [{ text: 'demo build', found: false }],
    judge: undefined,
    answer: null,
    toolCalls: [],
    counts: counts(1, 0, 0, 60_000),
    cached: false,
    error: 'no answer from http://127.0.0.1:1/v1/chat/completions within 60 s.',
  },
];

describe('the table', () => {
  it('has a row per question and the totals, numbers aligned right', () => {
    expect(renderAgentTable(RESULTS, totalAgentResults(RESULTS))).toBe(
      [
        'question                score  expected  answer  judge  calls  tokens  seconds  cached',
        'install                  1.00  1/1       1/1     pass       3    2520      1.8  no',
        'rollback-in-production   0.25  1/2       -       error      4    5400     12.0  yes',
        'slow                     0.00  0/1       0/1     -          1       0     60.0  failed',
        'total                    0.42  2/4       1/2     1/2        8    7920     73.9  1/3',
      ].join('\n'),
    );
  });
});

let chat: FakeChat | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

const QUESTION: EvalQuestion = { id: 'install', ask: 'How do I install Demo?', expect: [{ topic: 'guide', slug: 'install' }], answerIncludes: [], rubric: undefined, line: 1 };

function openFixture(extra = '') {
  const root = makeTree({});
  fs.cpSync(path.join(ROOT, 'test/fixtures/eval-agent'), root, { recursive: true });
  const file = path.join(root, 'kb.toml');
  const text = fs.readFileSync(file, 'utf8').replace(/\[eval\.agent\][\s\S]*$/, extra);
  const { config } = loadConfig([{ file, text }]);
  return { root, config: config!, view: createLocalView(openKnowledgeBase(config!)) };
}

describe('runAgentEvaluation', () => {
  it('prints JSON and exits 1 when the mean score is under min_score', async () => {
    chat = await startFakeChat(() => ({ text: 'I do not know.' }));
    const opened = openFixture(`[eval.agent]\nendpoint = "${'http://127.0.0.1:1/v1/chat/completions'}"\nmodel = "m"\nmin_score = 0.5\n`);
    opened.config.eval.agent!.endpoint = chat.url;
    const out: string[] = [];
    const err: string[] = [];
    const code = await runAgentEvaluation({
      config: opened.config,
      questions: [QUESTION],
      view: opened.view,
      io: { cwd: opened.root, env: {}, out: (t) => out.push(t), err: (t) => err.push(t) },
      json: true,
    });
    const printed = JSON.parse(out.join('\n'));
    printed.questions[0].counts.ms = 0;
    printed.totals.ms = 0;
    expect({ code, printed, err }).toEqual({
      code: 1,
      printed: {
        model: 'm',
        judgeModel: 'm',
        questions: [
          {
            id: 'install',
            score: 0,
            subjects: [{ topic: 'guide', slug: 'install', loaded: false, preloaded: false, foundFirst: false }],
            answerIncludes: [],
            answer: 'I do not know.',
            toolCalls: [],
            counts: { calls: 1, promptTokens: 100, completionTokens: 10, estimated: false, ms: 0 },
            cached: false,
            error: null,
          },
        ],
        totals: {
          questions: 1,
          score: 0,
          subjectsLoaded: 0,
          subjectsExpected: 1,
          stringsFound: 0,
          stringsExpected: 0,
          judgePassed: 0,
          judged: 0,
          calls: 1,
          callsMade: 1,
          promptTokens: 100,
          completionTokens: 10,
          estimated: false,
          ms: 0,
          cached: 0,
          failed: 0,
        },
        minScore: 0.5,
        passed: false,
      },
      err: ['The mean score 0.00 is under eval.agent.min_score 0.50.'],
    });
  });

  it('says on stderr why a question failed', async () => {
    chat = await startFakeChat(() => ({ raw: '<html>busy</html>' }));
    const opened = openFixture(`[eval.agent]\nendpoint = "http://127.0.0.1:1/v1/chat/completions"\nmodel = "m"\n`);
    opened.config.eval.agent!.endpoint = chat.url;
    const err: string[] = [];
    const code = await runAgentEvaluation({
      config: opened.config,
      questions: [QUESTION],
      view: opened.view,
      io: { cwd: opened.root, env: {}, out: () => {}, err: (t) => err.push(t) },
      json: false,
    });
    expect({ code, err }).toEqual({
      code: 0,
      err: [
        `install: the answer of ${chat.url} is not JSON (it starts "<html>busy</html>"). Check eval.agent.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions) of a server that supports tools.`,
      ],
    });
  });

  it('needs an [eval.agent] table', async () => {
    const opened = openFixture();
    await expect(
      runAgentEvaluation({ config: opened.config, questions: [QUESTION], view: opened.view, io: { cwd: opened.root, env: {}, out: () => {}, err: () => {} }, json: false }),
    ).rejects.toEqual(
      new CliError(
        'eval --agent needs a model: the config has no [eval.agent] table. Add one with endpoint = "https://…/v1/chat/completions" and model = "<model name>" (reference/evaluations-agent).',
        2,
      ),
    );
  });
});

describe('syllabus eval --agent', () => {
  /** The fixture with a question set and its endpoint at the fake server. */
  function fixtureWithQuestions(url: string): string {
    const root = makeTree({});
    fs.cpSync(path.join(ROOT, 'test/fixtures/eval-agent'), root, { recursive: true });
    const file = path.join(root, 'kb.toml');
    const text = fs.readFileSync(file, 'utf8').replace('endpoint = "http://127.0.0.1:9/v1/chat/completions"', `endpoint = "${url}"`);
    fs.writeFileSync(file, `${text}\n[eval]\nquestions = "evals.toml"\n`);
    fs.writeFileSync(path.join(root, 'evals.toml'), '[[question]]\nid = "install"\nask = "How do I install Demo?"\nexpect = ["guide/install"]\nanswer_includes = ["npm"]\n');
    return file;
  }

  /** `eval --agent --json` in this process, with the times zeroed. */
  async function evaluate(file: string, ...flags: string[]) {
    const run = await runCliInProcess(['eval', '--agent', '--json', '--config', file, ...flags], { cwd: path.dirname(file) });
    const printed = run.code === 0 ? JSON.parse(run.stdout) : undefined;
    return { code: run.code, stderr: run.stderr, calls: printed?.totals.callsMade, cached: printed?.totals.cached, score: printed?.questions[0].score };
  }

  it('asks the model each question of the [eval] question set, then answers again from the cache, unless --no-cache', async () => {
    chat = await startFakeChat((request) =>
      request.turn === 0 ? { calls: [{ name: 'learn', arguments: { topic: 'guide', subjects: ['install'] } }] } : { text: 'Run npm install demo.' },
    );
    const file = fixtureWithQuestions(chat.url);
    expect(await evaluate(file)).toEqual({ code: 0, stderr: '', calls: 2, cached: 0, score: 1 });
    expect(await evaluate(file)).toEqual({ code: 0, stderr: '', calls: 0, cached: 1, score: 1 });
    expect(await evaluate(file, '--no-cache')).toEqual({ code: 0, stderr: '', calls: 2, cached: 0, score: 1 });
    expect(chat.requests).toHaveLength(4);
  });

  it('takes --no-cache only with --agent', async () => {
    const run = await runCliInProcess(['eval', '--no-cache', '--config', path.join(ROOT, 'test/fixtures/eval-agent/kb.toml')]);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('error: --no-cache goes with --agent: the offline evaluation asks no model and caches nothing.');
  });
});
