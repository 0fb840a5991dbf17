/**
 * The agent evaluation against a scripted fake chat server (test/helpers/fake-chat.ts) that calls
 * tools the way models do: the exact requests it receives (the system message with the
 * `<knowledge>` section, the tools, each tool answer), the exact scores and counts, failures that
 * fail a question or stop the run, and the cache (content/reference/evaluations-agent.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalView, loadConfig, openKnowledgeBase } from '../../src/kb/index.ts';
import type { SyllabusConfig } from '../../src/kb/config/merge.ts';
import type { EvalAgentConfig } from '../../src/kb/config/schema.ts';
import { countTokens, loadTokenizer } from '../../src/kb/catalog/tokens.ts';
import { AGENT_INSTRUCTION } from '../../src/kb/evals/agent-chat.ts';
import { JUDGE_INSTRUCTION } from '../../src/kb/evals/agent-judge.ts';
import type { EvalQuestion } from '../../src/kb/evals/questions.ts';
import { LEARN_USAGE } from '../../src/kb/knowledge/learn.ts';
import { FIND_DEFINITION, renderFindResults } from '../../src/kb/view/find.ts';
import type { KnowledgeView } from '../../src/kb/view/view.ts';
import { evaluateAgent, type AgentEvaluation } from '../../src/evals/agent-evaluation.ts';
import { runAgentEvaluation } from '../../src/cli/eval-agent.ts';
import { CliError } from '../../src/cli/errors.ts';
import { startFakeChat, type ChatRequest, type FakeChat, type ScriptedAnswer } from '../helpers/fake-chat.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { ROOT } from '../helpers/run-cli.ts';

const FIXTURE = path.join(ROOT, 'test/fixtures/eval-agent');

/** A copy of the fixture, with its config and view. */
interface Opened {
  root: string;
  config: SyllabusConfig;
  view: KnowledgeView;
}

function copyFixture(): string {
  const root = makeTree({});
  fs.cpSync(FIXTURE, root, { recursive: true });
  return root;
}

/** Opens the knowledge base in `root` afresh (after a change of its files), its endpoint set to `url`. */
function open(root: string, url: string, agent: Partial<EvalAgentConfig> = {}): Opened {
  const file = path.join(root, 'kb.toml');
  const { config, diagnostics } = loadConfig([{ file, text: fs.readFileSync(file, 'utf8') }]);
  if (!config) throw new Error(JSON.stringify(diagnostics));
  config.eval.agent = { ...config.eval.agent!, endpoint: url, ...agent };
  return { root, config, view: createLocalView(openKnowledgeBase(config)) };
}

function question(id: string, ask: string, expect: string[], more: Partial<EvalQuestion> = {}): EvalQuestion {
  return {
    id,
    ask,
    expect: expect.map((e) => ({ topic: e.slice(0, e.indexOf('/')), slug: e.slice(e.indexOf('/') + 1) })),
    answerIncludes: [],
    rubric: undefined,
    line: 1,
    ...more,
  };
}

/** A script by question: the answers of turn 0, 1, …; and the judge's answer. */
function play(turns: Record<string, ScriptedAnswer[]>, judge?: ScriptedAnswer): (request: ChatRequest) => ScriptedAnswer {
  return (request) => {
    if (request.judge) return judge ?? { status: 500 };
    return turns[request.question]?.[request.turn] ?? { status: 500 };
  };
}

const learn = (args: Record<string, unknown>) => ({ name: 'learn', arguments: args });
const find = (args: Record<string, unknown>) => ({ name: 'find', arguments: args });
/** A subject's file as learn loads it: without its last line break. */
const read = (root: string, file: string) => fs.readFileSync(path.join(root, file), 'utf8').trimEnd();

/** A result's time, which tests never assert, set to 0. */
function timeless(evaluation: AgentEvaluation): AgentEvaluation {
  return {
    ...evaluation,
    results: evaluation.results.map((r) => ({ ...r, counts: { ...r.counts, ms: 0 } })),
    totals: { ...evaluation.totals, ms: 0 },
  };
}

let chat: FakeChat | undefined;
afterEach(async () => {
  await chat?.close();
  chat = undefined;
});

async function evaluate(opened: Opened, questions: EvalQuestion[], options: { env?: Record<string, string>; useCache?: boolean } = {}): Promise<AgentEvaluation> {
  return timeless(
    await evaluateAgent({
      settings: opened.config.eval.agent!,
      questions,
      view: opened.view,
      env: options.env ?? {},
      cacheFile: path.join(opened.root, '.syllabus-cache', 'agent-evals.json'),
      ...(options.useCache === undefined ? {} : { useCache: options.useCache }),
    }),
  );
}

const INSTALL = question('install', 'How do I install Demo?', ['guide/install'], { answerIncludes: ['NPM install demo-kb'] });

describe('the tool loop', () => {
  it('sends the <knowledge> section and the tools, answers one tool call a turn with learn, and scores the answer', async () => {
    chat = await startFakeChat(play({ [INSTALL.ask]: [{ calls: [learn({ topic: 'guide', subjects: 'install' })] }, { text: 'Run `npm install demo-kb`.' }] }));
    const opened = open(copyFixture(), chat.url);
    const evaluation = await evaluate(opened, [INSTALL]);

    const section = await opened.view.prompt();
    expect(section).toMatch(/^<knowledge>\n/);
    const system = { role: 'system', content: `${AGENT_INSTRUCTION}\n\n${section}` };
    const user = { role: 'user', content: 'How do I install Demo?' };
    const tools = [
      { type: 'function', function: await opened.view.tool() },
      { type: 'function', function: FIND_DEFINITION },
    ];
    const call = { id: 'call_0_0', type: 'function', function: { name: 'learn', arguments: '{"topic":"guide","subjects":"install"}' } };
    expect(chat.requests.map((r) => r.body)).toEqual([
      { model: 'fake-model', messages: [system, user], tools },
      {
        model: 'fake-model',
        messages: [
          system,
          user,
          { role: 'assistant', content: null, tool_calls: [call] },
          { role: 'tool', tool_call_id: 'call_0_0', content: read(opened.root, 'guide/install.md') },
        ],
        tools,
      },
    ]);
    expect((await opened.view.learn({ topic: 'guide', subjects: 'install' })).ok).toBe(true);

    expect(evaluation).toEqual({
      results: [
        {
          id: 'install',
          score: 1,
          subjects: [{ topic: 'guide', slug: 'install', loaded: true, preloaded: false, foundFirst: false }],
          answerIncludes: [{ text: 'NPM install demo-kb', found: true }],
          judge: undefined,
          answer: 'Run `npm install demo-kb`.',
          toolCalls: [{ name: 'learn', arguments: '{"topic":"guide","subjects":"install"}', ok: true }],
          counts: { calls: 2, promptTokens: 201, completionTokens: 20, estimated: false, ms: 0 },
          cached: false,
          error: null,
        },
      ],
      totals: {
        questions: 1,
        score: 1,
        subjectsLoaded: 1,
        subjectsExpected: 1,
        stringsFound: 1,
        stringsExpected: 1,
        judgePassed: 0,
        judged: 0,
        calls: 2,
        callsMade: 2,
        promptTokens: 201,
        completionTokens: 20,
        estimated: false,
        ms: 0,
        cached: 0,
        failed: 0,
      },
      model: 'fake-model',
      judgeModel: 'fake-judge',
      stopped: undefined,
      warnings: [],
    });
  });

  it('answers several tool calls of one turn in order, each with its id, as the agent server would', async () => {
    const deploy = question('deploy', 'How do I deploy Demo, and roll it back?', ['guide/deploy', 'ops/runbook'], { answerIncludes: ['demo build', 'demo rollback'] });
    chat = await startFakeChat(
      play({
        [deploy.ask]: [
          { calls: [find({ query: 'deploy' }), find({ query: 'roll back', topic: 'ops' })] },
          { calls: [learn({ topic: 'guide', subjects: ['deploy', 'install'] }), learn({ topic: 'Operations', subjects: 'runbook' })] },
          { text: 'Run demo build; roll back with demo rollback.' },
        ],
      }),
    );
    const opened = open(copyFixture(), chat.url);
    const evaluation = await evaluate(opened, [deploy]);

    const findText = async (args: Record<string, unknown>) => {
      const found = await opened.view.find(args);
      return found.ok ? renderFindResults(found.results) : found.message;
    };
    expect(await findText({ query: 'deploy' })).toBe(
      '- guide/deploy (**Deploy**): Run demo build, then copy dist/ to any static host.\n- guide/welcome (**Welcome**): Demo is a small tool. Ask the Guide topic how to install and deploy it.',
    );
    const toolMessages = (request: ChatRequest) => request.body.messages.filter((m) => m['role'] === 'tool');
    expect(toolMessages(chat.requests[1]!)).toEqual([
      { role: 'tool', tool_call_id: 'call_0_0', content: await findText({ query: 'deploy' }) },
      { role: 'tool', tool_call_id: 'call_0_1', content: await findText({ query: 'roll back', topic: 'ops' }) },
    ]);
    expect(toolMessages(chat.requests[2]!).slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_1_0',
        content: `<subject "deploy">\n${read(opened.root, 'guide/deploy.md')}\n</subject>\n\n<subject "install">\n${read(opened.root, 'guide/install.md')}\n</subject>`,
      },
      { role: 'tool', tool_call_id: 'call_1_1', content: read(opened.root, 'ops/runbook.md') },
    ]);
    const [result] = evaluation.results;
    expect(result!.subjects).toEqual([
      { topic: 'guide', slug: 'deploy', loaded: true, preloaded: false, foundFirst: true },
      { topic: 'ops', slug: 'runbook', loaded: true, preloaded: false, foundFirst: true },
    ]);
    expect([result!.score, result!.answerIncludes, result!.counts]).toEqual([
      1,
      [
        { text: 'demo build', found: true },
        { text: 'demo rollback', found: true },
      ],
      { calls: 3, promptTokens: 303, completionTokens: 30, estimated: false, ms: 0 },
    ]);
  });

  it('answers a wrong topic and a wrong subject with learn’s own messages, and the model recovers', async () => {
    const rollback = question('rollback', 'How do I roll back?', ['ops/runbook']);
    chat = await startFakeChat(
      play({
        [rollback.ask]: [
          { calls: [learn({ topic: 'operations-team', subjects: 'runbook' })] },
          { calls: [learn({ topic: 'ops', subjects: 'rollback' })] },
          { calls: [learn({ topic: 'ops', subjects: 'runbook' })] },
          { text: 'Use demo rollback.' },
        ],
      }),
    );
    const opened = open(copyFixture(), chat.url);
    const evaluation = await evaluate(opened, [rollback]);
    const lastTool = (request: ChatRequest) => request.body.messages.at(-1);
    expect(chat.requests.slice(1).map(lastTool)).toEqual([
      { role: 'tool', tool_call_id: 'call_0_0', content: 'Unknown topic "operations-team". Valid topics: guide (Guide), ops (Operations).' },
      { role: 'tool', tool_call_id: 'call_1_0', content: 'No subjects in topic "ops" match "rollback". Call learn with only the topic to list its subjects.' },
      { role: 'tool', tool_call_id: 'call_2_0', content: read(opened.root, 'ops/runbook.md') },
    ]);
    expect(evaluation.results.map((r) => [r.score, r.toolCalls.map((c) => c.ok), r.subjects[0]!.loaded, r.answer])).toEqual([
      [1, [false, false, true], true, 'Use demo rollback.'],
    ]);
  });

  it('answers arguments that are not JSON and an unknown tool with an error message, and goes on', async () => {
    const runbook = question('runbook', 'Where is the runbook?', ['ops/runbook']);
    chat = await startFakeChat(
      play({
        [runbook.ask]: [
          {
            calls: [
              { name: 'learn', arguments: '{"topic": ops' },
              { name: 'search', arguments: { query: 'runbook' } },
            ],
          },
          { calls: [learn({ topic: 'ops', subjects: 'runbook' })] },
          { text: 'In ops/runbook.' },
        ],
      }),
    );
    const opened = open(copyFixture(), chat.url);
    const evaluation = await evaluate(opened, [runbook]);
    let parseError = '';
    try {
      JSON.parse('{"topic": ops');
    } catch (error) {
      parseError = (error as Error).message;
    }
    expect(chat.requests[1]!.body.messages.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_0_0', content: `Invalid arguments: not JSON (${parseError}). ${LEARN_USAGE}` },
      { role: 'tool', tool_call_id: 'call_0_1', content: 'Unknown tool "search". The tools are "learn" and "find".' },
    ]);
    expect(evaluation.results.map((r) => [r.score, r.toolCalls, r.error])).toEqual([
      [
        1,
        [
          { name: 'learn', arguments: '{"topic": ops', ok: false },
          { name: 'search', arguments: '{"query":"runbook"}', ok: false },
          { name: 'learn', arguments: '{"topic":"ops","subjects":"runbook"}', ok: true },
        ],
        null,
      ],
    ]);
  });

  it('stops a question after max_turns calls: unanswered, its strings not found', async () => {
    const endless = question('endless', 'What is Demo?', ['guide/install'], { answerIncludes: ['tool'] });
    chat = await startFakeChat(() => ({ calls: [learn({ topic: 'guide' })] }));
    const evaluation = await evaluate(open(copyFixture(), chat.url, { max_turns: 3 }), [endless]);
    expect(chat.requests).toHaveLength(3);
    expect(evaluation.results.map((r) => [r.score, r.answer, r.answerIncludes, r.subjects[0]!.loaded, r.counts.calls, r.error])).toEqual([
      [0, null, [{ text: 'tool', found: false }], false, 3, null],
    ]);
  });

  it('counts pre-loaded expected subjects as loaded without a call', async () => {
    const welcome = question('welcome', 'What is Demo?', ['guide/welcome']);
    chat = await startFakeChat(play({ [welcome.ask]: [{ text: 'A small tool.' }] }));
    const evaluation = await evaluate(open(copyFixture(), chat.url), [welcome]);
    expect(evaluation.results.map((r) => [r.score, r.subjects])).toEqual([[1, [{ topic: 'guide', slug: 'welcome', loaded: true, preloaded: true, foundFirst: false }]]]);
  });

  it('counts tokens with o200k_base when the endpoint gives no usage', async () => {
    chat = await startFakeChat(
      play({
        [INSTALL.ask]: [
          { calls: [learn({ topic: 'guide', subjects: 'install' })], usage: null },
          { text: 'npm install demo-kb', usage: null },
        ],
      }),
    );
    const evaluation = await evaluate(open(copyFixture(), chat.url), [INSTALL]);
    await loadTokenizer();
    const prompt = countTokens(chat.requests[0]!.raw) + countTokens(chat.requests[1]!.raw);
    const completion = countTokens('learn{"topic":"guide","subjects":"install"}') + countTokens('npm install demo-kb');
    expect(evaluation.results[0]!.counts).toEqual({ calls: 2, promptTokens: prompt, completionTokens: completion, estimated: true, ms: 0 });
    expect(evaluation.totals.estimated).toBe(true);
  });
});

describe('the judge', () => {
  const NODE = question('node', 'Which Node does Demo need?', ['guide/install'], { rubric: 'Says Node 22.' });
  const script = (judge: ScriptedAnswer) => play({ [NODE.ask]: [{ calls: [learn({ topic: 'guide', subjects: 'install' })] }, { text: 'Node 22.' }] }, judge);

  it('asks the judge model with the question, the rubric and the answer, and scores its verdict', async () => {
    chat = await startFakeChat(script({ text: '```json\n{"pass": true, "reason": "It says Node 22."}\n```' }));
    const evaluation = await evaluate(open(copyFixture(), chat.url), [NODE]);
    expect(chat.requests.filter((r) => r.judge).map((r) => r.body)).toEqual([
      {
        model: 'fake-judge',
        messages: [
          { role: 'system', content: JUDGE_INSTRUCTION },
          { role: 'user', content: 'Question: Which Node does Demo need?\n\nRubric: Says Node 22.\n\nAnswer:\nNode 22.' },
        ],
      },
    ]);
    expect(evaluation.results.map((r) => [r.score, r.judge, r.counts.calls])).toEqual([[1, { pass: true, reason: 'It says Node 22.' }, 3]]);
    expect([evaluation.totals.judgePassed, evaluation.totals.judged]).toEqual([1, 1]);
  });

  it('scores a failing verdict 0 and a reply that is no verdict as an error', async () => {
    chat = await startFakeChat(script({ text: '{"pass": false, "reason": "No version."}' }));
    const failing = await evaluate(open(copyFixture(), chat.url), [NODE]);
    expect(failing.results.map((r) => [r.score, r.judge])).toEqual([[0.5, { pass: false, reason: 'No version.' }]]);
    await chat.close();

    chat = await startFakeChat(script({ text: 'Yes, it passes.' }));
    const garbled = await evaluate(open(copyFixture(), chat.url), [NODE]);
    expect(garbled.results.map((r) => [r.score, r.judge])).toEqual([
      [0.5, { error: 'the judge did not answer with {"pass": true|false, "reason": "…"} (it answered "Yes, it passes.")' }],
    ]);
  });
});

describe('failures', () => {
  it('fails a question whose call times out, and goes on with the others', async () => {
    const slow = question('slow', 'Slow?', ['guide/install']);
    chat = await startFakeChat(play({ [slow.ask]: [{ hold: 'forever' }], [INSTALL.ask]: [{ text: 'npm install demo-kb' }] }));
    const evaluation = await evaluate(open(copyFixture(), chat.url, { timeout_seconds: 0.2 }), [slow, INSTALL]);
    expect(evaluation.results.map((r) => [r.id, r.score, r.error, r.answer])).toEqual([
      ['slow', 0, `no answer from ${chat.url} within 0.2 s. Raise eval.agent.timeout_seconds, or lower eval.agent.concurrency.`, null],
      ['install', 0.5, null, 'npm install demo-kb'],
    ]);
    expect([evaluation.stopped, evaluation.totals.failed]).toEqual([undefined, 1]);
  });

  it('stops the run at a 401, with what happened and how to fix it, and never shows or keeps the key', async () => {
    const questions = [INSTALL, question('b', 'B?', ['guide/install']), question('c', 'C?', ['guide/install'])];
    chat = await startFakeChat(() => ({ status: 401 }));
    const opened = open(copyFixture(), chat.url);
    const lines: string[] = [];
    const io = { cwd: opened.root, env: {}, out: (t: string) => lines.push(t), err: (t: string) => lines.push(t) };
    await expect(runAgentEvaluation({ config: opened.config, questions, view: opened.view, io, json: false })).rejects.toEqual(
      new CliError(
        `The agent evaluation stopped: HTTP 401 from ${chat.url}: no key was sent, SYLLABUS_LLM_KEY is not set. Set SYLLABUS_LLM_KEY to the endpoint's API key (eval.agent.api_key_env names the variable).`,
        1,
      ),
    );
    // Two questions were in flight (concurrency 2); the third was never asked.
    expect(chat.requests.map((r) => r.authorization)).toEqual([undefined, undefined]);

    const keyed = { ...io, env: { SYLLABUS_LLM_KEY: 'sk-secret-1' } };
    await expect(runAgentEvaluation({ config: opened.config, questions, view: opened.view, io: keyed, json: true })).rejects.toEqual(
      new CliError(
        `The agent evaluation stopped: HTTP 401 from ${chat.url}: the key was refused. Check the key in SYLLABUS_LLM_KEY (the variable eval.agent.api_key_env names).`,
        1,
      ),
    );
    expect(chat.requests.slice(2).map((r) => r.authorization)).toEqual(['Bearer sk-secret-1', 'Bearer sk-secret-1']);
    expect(lines).toEqual([]);
    expect(fs.readFileSync(path.join(opened.root, '.syllabus-cache/agent-evals.json'), 'utf8')).not.toContain('sk-secret');
  });

  it('stops the run at a 404: no such URL or model', async () => {
    chat = await startFakeChat(() => ({ status: 404 }));
    const evaluation = await evaluate(open(copyFixture(), chat.url, { concurrency: 1 }), [INSTALL, question('b', 'B?', ['guide/install'])]);
    const stopped = `HTTP 404 from ${chat.url}: no such URL, or no model "fake-model" there. Check eval.agent.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions) of a server that supports tools. Check eval.agent.model (and judge_model) too.`;
    expect([evaluation.stopped, evaluation.results.map((r) => r.error), chat.requests.length]).toEqual([stopped, [stopped, `not asked: the run stopped (${stopped})`], 1]);
  });

  it('fails a question whose answer is over 4 MiB', async () => {
    chat = await startFakeChat(() => ({ raw: `{"choices": [{"message": {"content": "${'a'.repeat(4 * 1024 * 1024)}"}}]}` }));
    const evaluation = await evaluate(open(copyFixture(), chat.url), [INSTALL]);
    expect(evaluation.results.map((r) => [r.score, r.error])).toEqual([
      [
        0,
        `the answer of ${chat.url} is larger than 4194304 bytes. Check eval.agent.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions) of a server that supports tools.`,
      ],
    ]);
  });

  it('stops the run when the endpoint cannot be reached', async () => {
    const closed = await startFakeChat(() => ({ status: 500 }));
    await closed.close();
    const evaluation = await evaluate(open(copyFixture(), closed.url, { concurrency: 1 }), [INSTALL, question('b', 'B?', ['guide/install'])]);
    const stopped = `cannot reach ${closed.url} (connection refused). Check eval.agent.endpoint and that the server is running.`;
    expect([evaluation.stopped, evaluation.results.map((r) => r.error)]).toEqual([stopped, [stopped, `not asked: the run stopped (${stopped})`]]);
  });

  it('keeps at most concurrency questions in flight', async () => {
    const questions = ['a', 'b', 'c', 'd', 'e'].map((id) => question(id, `${id}?`, ['guide/install']));
    const opened = open(copyFixture(), 'http://127.0.0.1:1/v1/chat/completions');
    let inFlight = 0;
    let most = 0;
    // Each answer comes a turn of the event loop later: every question the run lets start by then has sent its request.
    const send = async (body: string) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const ask = (JSON.parse(body) as { messages: { content: string }[] }).messages[1]!.content;
      return { ok: true as const, body: JSON.stringify({ choices: [{ message: { content: `${ask} done` } }] }), ms: 0 };
    };
    const evaluation = await evaluateAgent({ settings: opened.config.eval.agent!, questions, view: opened.view, env: {}, cacheFile: path.join(opened.root, 'cache.json'), send });
    expect([most, evaluation.results.map((r) => r.answer)]).toEqual([2, ['a? done', 'b? done', 'c? done', 'd? done', 'e? done']]);
  });
});

describe('the cache', () => {
  it('reuses an unchanged result without a call, and asks again when a subject, the question or --no-cache changes that', async () => {
    chat = await startFakeChat((request) => (request.turn === 0 ? { calls: [learn({ topic: 'guide', subjects: 'install' })] } : { text: 'npm install demo-kb' }));
    const root = copyFixture();
    const first = await evaluate(open(root, chat.url), [INSTALL]);
    expect([first.results[0]!.cached, chat.requests.length]).toEqual([false, 2]);

    const second = await evaluate(open(root, chat.url), [INSTALL]);
    expect(second.results).toEqual(first.results.map((r) => ({ ...r, cached: true })));
    expect([chat.requests.length, second.totals.cached, second.totals.callsMade, second.totals.calls]).toEqual([2, 1, 0, 2]);

    fs.appendFileSync(path.join(root, 'guide/install.md'), '\nOr use pnpm.\n');
    const changedSubject = await evaluate(open(root, chat.url), [INSTALL]);
    expect([changedSubject.results[0]!.cached, chat.requests.length]).toEqual([false, 4]);

    const changedQuestion = await evaluate(open(root, chat.url), [{ ...INSTALL, ask: 'How do I install it?' }]);
    expect([changedQuestion.results[0]!.cached, chat.requests.length]).toEqual([false, 6]);

    const bypassed = await evaluate(open(root, chat.url), [INSTALL], { useCache: false });
    expect([bypassed.results[0]!.cached, chat.requests.length]).toEqual([false, 8]);
    const again = await evaluate(open(root, chat.url), [INSTALL]);
    expect([again.results[0]!.cached, chat.requests.length]).toEqual([true, 8]);
  });

  it('asks again when a hidden subject the model loaded by name changed, which no listing shows', async () => {
    const onCall = question('on-call', 'Who is on call?', ['ops/runbook']);
    chat = await startFakeChat((request) => (request.turn === 0 ? { calls: [learn({ topic: 'ops', subjects: '.on-call' })] } : { text: 'Ada.' }));
    const root = copyFixture();
    await evaluate(open(root, chat.url), [onCall]);
    expect((await evaluate(open(root, chat.url), [onCall])).results[0]!.cached).toBe(true);
    fs.writeFileSync(path.join(root, 'ops/.on-call.md'), '# On call\n\nGrace, this week.\n');
    expect((await evaluate(open(root, chat.url), [onCall])).results[0]!.cached).toBe(false);
    expect(chat.requests).toHaveLength(4);
  });

  it('says how many answers came from the cache, and shows its progress on the status line', async () => {
    chat = await startFakeChat(() => ({ text: 'npm install demo-kb' }));
    const opened = open(copyFixture(), chat.url);
    const run = async () => {
      const out: string[] = [];
      const status: (string | null)[] = [];
      const code = await runAgentEvaluation({
        config: opened.config,
        questions: [INSTALL],
        view: opened.view,
        io: { cwd: opened.root, env: {}, out: (t) => out.push(t), err: (t) => out.push(t), status: (line) => status.push(line) },
        json: false,
      });
      return { code, summary: out[1], status };
    };
    const status = ['eval --agent: asking fake-model 0/1…', 'eval --agent: asking fake-model 1/1…', null];
    expect(await run()).toEqual({
      code: 0,
      status,
      summary: 'Mean score 0.50 (min_score 0.50) over 1 question.\nfake-model, judged by fake-judge: 1 call made, 0 answers from the cache; 100 prompt and 10 completion tokens.',
    });
    expect(await run()).toEqual({
      code: 0,
      status,
      summary: 'Mean score 0.50 (min_score 0.50) over 1 question.\nfake-model, judged by fake-judge: 0 calls made, 1 answer from the cache; 100 prompt and 10 completion tokens.',
    });
  });
});
