/**
 * The chat-completions exchange of the agent evaluation (content/reference/evaluations-agent.md,
 * "What is sent"): the system message, the tools in the OpenAI format, the body of a request and
 * the reading of an answer. Pure: the host makes the calls.
 */
import type { AgentToolDefinition } from '../view/tool-call.ts';

/** What the system message says before the `<knowledge>` section. */
export const AGENT_INSTRUCTION =
  "You answer questions from a team's knowledge base. Before you answer, load the subjects that hold the answer with the learn tool (find finds them by words); answer from what they say, briefly, and say so when they do not hold the answer.";

/** A tool call as the model wrote it: `arguments` is the raw JSON text (or what the server sent instead). */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A message of the conversation, as the chat-completions API takes it. */
export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A tool as the chat-completions API takes it. */
export interface ChatTool {
  type: 'function';
  function: AgentToolDefinition;
}

/** The system message: the instruction, then the `<knowledge>` section when there is one. */
export function renderSystemMessage(section: string | null): string {
  return section === null ? AGENT_INSTRUCTION : `${AGENT_INSTRUCTION}\n\n${section}`;
}

/** The tools in the chat-completions format, each definition as the agent server lists it. */
export function chatTools(tools: readonly AgentToolDefinition[]): ChatTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

/** The body of one request: the model, the conversation so far and, when given, the tools. */
export function buildChatRequest(model: string, messages: readonly ChatMessage[], tools?: readonly ChatTool[]): string {
  return JSON.stringify({ model, messages, ...(tools && tools.length > 0 ? { tools } : {}) });
}

/** The token counts of an answer's `usage`. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A successful answer read: the model's text and tool calls, and its usage when the server gave one. */
export interface ChatReply {
  content: string | null;
  toolCalls: ChatToolCall[];
  usage: ChatUsage | undefined;
}

/** Why an answer could not be read. */
export type ChatReplyFailure = { reason: 'not-json'; start: string } | { reason: 'no-message' };

/**
 * Reads the body of a successful chat-completions answer: `choices[0].message`, its `content`
 * and `tool_calls`, and `usage`. A tool call without an id gets `call_<n>` (its place in the
 * answer), so that its answer can name it; arguments that are not a string (some local servers
 * send an object) are kept as their JSON text.
 */
export function parseChatReply(body: string): { ok: true; reply: ChatReply } | { ok: false; failure: ChatReplyFailure } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, failure: { reason: 'not-json', start: body.replace(/\s+/g, ' ').trim().slice(0, 40) } };
  }
  const root = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as { choices?: unknown; usage?: unknown };
  const message = (Array.isArray(root.choices) ? (root.choices[0] as { message?: unknown } | undefined)?.message : undefined) as
    { content?: unknown; tool_calls?: unknown } | undefined;
  if (typeof message !== 'object' || message === null) return { ok: false, failure: { reason: 'no-message' } };
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as unknown[]) : [];
  const toolCalls = calls.map((raw, index): ChatToolCall => {
    const call = (typeof raw === 'object' && raw !== null ? raw : {}) as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    const args = call.function?.arguments;
    return {
      id: typeof call.id === 'string' && call.id !== '' ? call.id : `call_${index}`,
      type: 'function',
      function: { name: typeof call.function?.name === 'string' ? call.function.name : '', arguments: typeof args === 'string' ? args : JSON.stringify(args ?? null) },
    };
  });
  const usage = root.usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
  const counted = typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number';
  return {
    ok: true,
    reply: {
      content: typeof message.content === 'string' ? message.content : null,
      toolCalls,
      usage: counted ? { promptTokens: usage.prompt_tokens as number, completionTokens: usage.completion_tokens as number } : undefined,
    },
  };
}

/** A model's final text without a leading `<think>…</think>` block (reasoning models on local servers), trimmed. */
export function finalAnswer(content: string | null): string {
  return (content ?? '').replace(/^\s*<think>[\s\S]*?<\/think>/, '').trim();
}
