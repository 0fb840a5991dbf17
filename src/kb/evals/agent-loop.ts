/**
 * The tool loop of one question (content/reference/evaluations-agent.md, "What is sent"): the
 * model is asked, its tool calls are answered by the knowledge view as the agent server answers
 * them, until it answers in text or `max_turns` calls were made; then a judge call for a rubric.
 * The calls go through the host's `send`, so that this stays free of the network and the clock.
 */
import { createHash } from 'node:crypto';
import type { EvalQuestion } from './questions.ts';
import { type ChatMessage, type ChatTool, type ChatToolCall, buildChatRequest, finalAnswer, parseChatReply } from './agent-chat.ts';
import type { AgentCallFailure } from './agent-failures.ts';
import { buildJudgeRequest, parseVerdict, type Verdict } from './agent-judge.ts';
import { callAgentTool, unparsedArgumentsOutcome } from '../view/tool-call.ts';
import type { KnowledgeAnswers } from '../view/view.ts';

/** What the host's `send` gives: the body of a successful answer, or why there is none; and how long it took. */
export type SendOutcome = { ok: true; body: string; ms: number } | { ok: false; failure: AgentCallFailure; ms: number };

/** What every question of a run shares. */
export interface AgentLoopSettings {
  model: string;
  judgeModel: string;
  maxTurns: number;
  /** The system message ({@link renderSystemMessage}). */
  system: string;
  tools: readonly ChatTool[];
  view: Pick<KnowledgeAnswers, 'learn' | 'find'>;
  /** Posts a request body to the endpoint. Never rejects. */
  send: (body: string) => Promise<SendOutcome>;
  /** o200k_base tokens of a text, for an answer without `usage`. */
  countTokens: (text: string) => number;
}

/** One tool call the model made, and how it was answered. */
export interface AnsweredToolCall {
  name: string;
  /** The arguments as the model wrote them. */
  arguments: string;
  ok: boolean;
  /** The text sent back as the tool message. */
  text: string;
  /** For a `learn` call that loaded subjects: the topic it named, as written. */
  learnTopic?: string;
  /** For a `find` call that succeeded: the subjects found, best first. */
  found?: { topic: string; slug: string }[];
}

/** The calls, tokens and time of a question. */
export interface AgentCounts {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  /** Whether some tokens were counted here (o200k_base) because an answer had no `usage`. */
  estimated: boolean;
  ms: number;
}

/** How a judge's call ended: a verdict, or why there is none. */
export type JudgeOutcome = { ok: true; verdict: Verdict } | { ok: false; message: string };

/** What happened to one question. */
export interface AgentTranscript {
  /** The model's final text; null when it made `max_turns` calls without one, or a call failed. */
  answer: string | null;
  toolCalls: AnsweredToolCall[];
  counts: AgentCounts;
  /** The judge's outcome, for a question with a rubric that was answered. */
  judge: JudgeOutcome | undefined;
  /** The call that failed the question, and which model it asked. */
  failure: { failure: AgentCallFailure; model: string } | undefined;
}

/** Runs the tool loop of `question`, then its judge call. Never rejects unless the view does. */
export async function runAgentLoop(question: EvalQuestion, settings: AgentLoopSettings): Promise<AgentTranscript> {
  const messages: ChatMessage[] = [
    { role: 'system', content: settings.system },
    { role: 'user', content: question.ask },
  ];
  const counts: AgentCounts = { calls: 0, promptTokens: 0, completionTokens: 0, estimated: false, ms: 0 };
  const toolCalls: AnsweredToolCall[] = [];
  const ask = async (body: string) => {
    const sent = await settings.send(body);
    counts.calls++;
    counts.ms += sent.ms;
    if (!sent.ok) return sent;
    const read = parseChatReply(sent.body);
    if (!read.ok) return { ok: false as const, failure: read.failure };
    const { reply } = read;
    if (reply.usage) {
      counts.promptTokens += reply.usage.promptTokens;
      counts.completionTokens += reply.usage.completionTokens;
    } else {
      counts.estimated = true;
      counts.promptTokens += settings.countTokens(body);
      counts.completionTokens += settings.countTokens((reply.content ?? '') + reply.toolCalls.map((call) => call.function.name + call.function.arguments).join(''));
    }
    return { ok: true as const, reply };
  };

  let answer: string | null = null;
  for (let turn = 0; turn < settings.maxTurns && answer === null; turn++) {
    const asked = await ask(buildChatRequest(settings.model, messages, settings.tools));
    if (!asked.ok) return { answer: null, toolCalls, counts, judge: undefined, failure: { failure: asked.failure, model: settings.model } };
    const { reply } = asked;
    if (reply.toolCalls.length === 0) {
      answer = finalAnswer(reply.content);
      break;
    }
    messages.push({ role: 'assistant', content: reply.content, tool_calls: reply.toolCalls });
    for (const call of reply.toolCalls) {
      const answered = await answerToolCall(settings.view, call);
      toolCalls.push(answered);
      messages.push({ role: 'tool', tool_call_id: call.id, content: answered.text });
    }
  }

  if (answer === null || question.rubric === undefined) return { answer, toolCalls, counts, judge: undefined, failure: undefined };
  const judged = await ask(buildJudgeRequest(settings.judgeModel, question.ask, question.rubric, answer));
  if (!judged.ok) return { answer, toolCalls, counts, judge: undefined, failure: { failure: judged.failure, model: settings.judgeModel } };
  return { answer, toolCalls, counts, judge: parseVerdict(judged.reply.content), failure: undefined };
}

/**
 * Answers one tool call of the model as the agent server answers it: the tool's text, or its
 * error message. Arguments that are not JSON, and an unknown tool, are error answers too: the
 * model reads them and may call again.
 */
export async function answerToolCall(view: Pick<KnowledgeAnswers, 'learn' | 'find'>, call: ChatToolCall): Promise<AnsweredToolCall> {
  const { name, arguments: raw } = call.function;
  const recorded = { name, arguments: raw };
  let args: unknown;
  if (name === 'learn' || name === 'find') {
    try {
      // An empty string is how some servers send a call without arguments.
      args = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch (error) {
      const outcome = unparsedArgumentsOutcome(name, error instanceof Error ? error.message : String(error));
      return { ...recorded, ok: false, text: outcome.ok ? outcome.text : outcome.message };
    }
  }
  const { outcome, found } = await callAgentTool(view, name, args);
  if (!outcome.ok) return { ...recorded, ok: false, text: outcome.message };
  const learnTopic = name === 'learn' ? (args as { topic: string }).topic : undefined;
  return {
    ...recorded,
    ok: true,
    text: outcome.text,
    ...(learnTopic !== undefined ? { learnTopic } : {}),
    ...(found ? { found: found.map((r) => ({ topic: r.topic, slug: r.slug })) } : {}),
  };
}

/** The sha256 (hex) of a tool call's answer: what a cached result keeps to check that the answer is still the same. */
export function answerDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
