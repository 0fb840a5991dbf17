/**
 * The agent evaluation (content/reference/evaluations-agent.md): every question of the question set
 * asked of a model through the endpoint of `[eval.agent]`, with the knowledge view's `<knowledge>`
 * section, `learn` and `find`; results reused from the cache while nothing they depend on
 * changed; at most `concurrency` questions at once. The core makes the requests, reads the
 * answers and scores (src/kb/evals/); this host makes the calls and keeps the cache.
 */
import { answerDigest, answerToolCall, runAgentLoop, type AgentLoopSettings, type AgentTranscript } from '../kb/evals/agent-loop.ts';
import { agentCacheKey, knowledgeDigest, type AgentCacheSettings } from '../kb/evals/agent-cache-key.ts';
import { chatTools, renderSystemMessage } from '../kb/evals/agent-chat.ts';
import { describeAgentFailure, endsAgentRun, type AgentFailureContext } from '../kb/evals/agent-failures.ts';
import { totalAgentResults, type AgentQuestionResult, type AgentTotals } from '../kb/evals/agent-results.ts';
import { scoreAgentTranscript, type ExpectedSubject } from '../kb/evals/agent-score.ts';
import type { EvalQuestion } from '../kb/evals/questions.ts';
import type { EvalAgentConfig } from '../kb/config/schema.ts';
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import type { TopicIdentity } from '../kb/knowledge/learn.ts';
import { listAgentTools } from '../kb/view/tool-call.ts';
import type { KnowledgeView } from '../kb/view/view.ts';
import { settleBounded } from '../net/bounded-calls.ts';
import { sendChatRequest } from './agent-calls.ts';
import { loadAgentCache, saveAgentCache, type AgentCacheEntry } from './agent-cache.ts';

/** Options of {@link evaluateAgent}. */
export interface AgentEvaluationOptions {
  settings: EvalAgentConfig;
  questions: readonly EvalQuestion[];
  view: KnowledgeView;
  /** Where the API key is read, by `settings.api_key_env`. */
  env: Readonly<Record<string, string | undefined>>;
  /** The cache file (`CacheFolder.agentEvals`). */
  cacheFile: string;
  /** false: no result is taken from the cache (`--no-cache`); this run's results are still kept for the next. */
  useCache?: boolean;
  /** Called each time a question is done (from the cache or not): how many are done, of how many. */
  onProgress?: (done: number, total: number) => void;
  /** Posts a request body to the endpoint (default: {@link sendChatRequest} with the settings and the key). */
  send?: AgentLoopSettings['send'];
}

/** What a run gives. */
export interface AgentEvaluation {
  results: AgentQuestionResult[];
  totals: AgentTotals;
  model: string;
  judgeModel: string;
  /**
   * The failure that ended the run (what happened, how to fix it): a call that every other call
   * would repeat (no such endpoint or model, a refused key). The questions not run then are
   * failed with it.
   */
  stopped: string | undefined;
  /** Problems that did not change the results (a cache that could not be written). */
  warnings: string[];
}

/** Evaluates every question, in the order given. Rejects only when the view cannot be read at all. */
export async function evaluateAgent(options: AgentEvaluationOptions): Promise<AgentEvaluation> {
  const { settings, questions, view } = options;
  const key = options.env[settings.api_key_env] || undefined;
  const judgeModel = settings.judge_model ?? settings.model;
  const [section, learn, index] = await Promise.all([view.prompt(), view.tool(), view.index()]);
  const tools = chatTools(listAgentTools(learn));
  const system = renderSystemMessage(section);
  const cacheSettings: AgentCacheSettings = { endpoint: settings.endpoint, model: settings.model, judgeModel, maxTurns: settings.max_turns, system, tools };
  const digest = knowledgeDigest(index);
  const topics: TopicIdentity[] = index.topics.map((topic) => ({ id: topic.id, title: topic.title ?? undefined }));
  const preloaded = new Set(index.topics.flatMap((topic) => topic.subjects.filter((s) => s.learned).map((s) => `${topic.id}/${s.slug}`)));
  const contents = new Map<string, Promise<string | undefined>>();
  const expectedOf = (question: EvalQuestion): Promise<ExpectedSubject[]> =>
    Promise.all(
      question.expect.map(async ({ topic, slug }) => {
        const id = `${topic}/${slug}`;
        let content = contents.get(id);
        if (!content) contents.set(id, (content = view.learn({ topic, subjects: slug }).then((outcome) => (outcome.ok ? outcome.text : undefined))));
        return { topic, slug, content: await content, preloaded: preloaded.has(id) };
      }),
    );

  await loadTokenizer();
  const loop: AgentLoopSettings = {
    model: settings.model,
    judgeModel,
    maxTurns: settings.max_turns,
    system,
    tools,
    view,
    send: options.send ?? ((body) => sendChatRequest({ url: settings.endpoint, key, timeoutSeconds: settings.timeout_seconds }, body)),
    countTokens,
  };
  const context = (model: string): AgentFailureContext => ({
    endpoint: settings.endpoint,
    model,
    apiKeyEnv: settings.api_key_env,
    keySent: key !== undefined,
    timeoutSeconds: settings.timeout_seconds,
  });

  const known = options.useCache === false ? new Map<string, AgentCacheEntry>() : loadAgentCache(options.cacheFile);
  const kept = new Map<string, AgentCacheEntry>();
  let done = 0;
  const progress = <T>(value: T): T => {
    options.onProgress?.(++done, questions.length);
    return value;
  };
  interface Run {
    id: string;
    result: AgentQuestionResult;
    fatal: string | undefined;
  }
  const runs = await settleBounded(
    questions,
    settings.concurrency,
    async (question): Promise<Run> => {
      const cacheKey = agentCacheKey(question, cacheSettings, digest);
      const entry = known.get(cacheKey);
      if (entry && (await answersAgain(view, entry))) {
        kept.set(cacheKey, entry);
        return progress({ id: question.id, result: { id: question.id, ...entry.result, cached: true }, fatal: undefined });
      }
      const transcript = await runAgentLoop(question, loop);
      const result = resultOf(question, transcript, await expectedOf(question), topics, context);
      if (transcript.failure) {
        const { failure, model } = transcript.failure;
        return progress({ id: question.id, result, fatal: endsAgentRun(failure) ? describeAgentFailure(failure, context(model)) : undefined });
      }
      const { id: _id, cached: _cached, ...stored } = result;
      kept.set(cacheKey, { result: stored, answers: transcript.toolCalls.map((call) => answerDigest(call.text)) });
      return progress({ id: question.id, result, fatal: undefined });
    },
    (run) => run.fatal !== undefined,
  );

  const stopped = runs.find((run) => run.fatal !== undefined)?.fatal;
  const results = runs.map((run, index) => {
    const question = questions[index]!;
    // settleBounded gives the questions it did not start the run that stopped it.
    if (run.id === question.id) return run.result;
    return notRun(question, `not asked: the run stopped (${stopped ?? 'a call failed'})`);
  });
  const warnings: string[] = [];
  try {
    saveAgentCache(options.cacheFile, kept);
  } catch (error) {
    warnings.push(`The results could not be cached in ${options.cacheFile} (${error instanceof Error ? error.message : String(error)}): the next run asks the model again.`);
  }
  return { results, totals: totalAgentResults(results), model: settings.model, judgeModel, stopped, warnings };
}

/** Whether every tool call of a cached result answers the same today: the subjects it read are unchanged. */
async function answersAgain(view: KnowledgeView, entry: AgentCacheEntry): Promise<boolean> {
  for (const [index, call] of entry.result.toolCalls.entries()) {
    const answered = await answerToolCall(view, { id: `call_${index}`, type: 'function', function: { name: call.name, arguments: call.arguments } });
    if (answerDigest(answered.text) !== entry.answers[index]) return false;
  }
  return true;
}

function resultOf(
  question: EvalQuestion,
  transcript: AgentTranscript,
  expected: readonly ExpectedSubject[],
  topics: readonly TopicIdentity[],
  context: (model: string) => AgentFailureContext,
): AgentQuestionResult {
  return {
    id: question.id,
    ...scoreAgentTranscript(question, transcript, expected, topics),
    answer: transcript.answer,
    toolCalls: transcript.toolCalls.map(({ name, arguments: args, ok }) => ({ name, arguments: args, ok })),
    counts: transcript.counts,
    cached: false,
    error: transcript.failure ? describeAgentFailure(transcript.failure.failure, context(transcript.failure.model)) : null,
  };
}

/** The result of a question the run did not ask. */
function notRun(question: EvalQuestion, error: string): AgentQuestionResult {
  return {
    id: question.id,
    score: 0,
    subjects: question.expect.map(({ topic, slug }) => ({ topic, slug, loaded: false, preloaded: false, foundFirst: false })),
    answerIncludes: question.answerIncludes.map((text) => ({ text, found: false })),
    judge: question.rubric === undefined ? undefined : { error: 'not asked' },
    answer: null,
    toolCalls: [],
    counts: { calls: 0, promptTokens: 0, completionTokens: 0, estimated: false, ms: 0 },
    cached: false,
    error,
  };
}
