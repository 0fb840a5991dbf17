/**
 * A scripted chat-completions server on 127.0.0.1 for tests of the agent evaluation: it plays the
 * part of a model that calls tools — one call a turn, several, a wrong topic, malformed arguments,
 * an unknown tool — or answers with an HTTP error, holds its answer past the client's timeout, or
 * judges. It records every request as received, and how many were in flight at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { JUDGE_INSTRUCTION } from '../../src/kb/evals/agent-judge.ts';

/** One request the server received. */
export interface ChatRequest {
  /** The body as sent. */
  raw: string;
  body: { model: string; messages: Record<string, unknown>[]; tools?: unknown[] };
  authorization: string | undefined;
  /** The first user message: the question asked (for a judge's request, its user message). */
  question: string;
  /** How many answers of the model the conversation holds: 0 for the first call of a question. */
  turn: number;
  /** Whether this is a judge's request (its system message is the judge's instruction). */
  judge: boolean;
}

/** A tool call the script makes: the tool, and its arguments as the model writes them (an object is sent as JSON). */
export interface ScriptedCall {
  name: string;
  arguments: string | Record<string, unknown>;
}

/** Token counts an answer reports; `null` leaves `usage` out. */
export type ScriptedUsage = { prompt: number; completion: number } | null;

/**
 * How the model answers a request: tool calls (one or several), a final text, an HTTP error, a
 * body as given, or an answer held until `release` resolves (or forever: the client times out).
 */
export type ScriptedAnswer =
  | { calls: ScriptedCall[]; content?: string; usage?: ScriptedUsage }
  | { text: string; usage?: ScriptedUsage }
  | { status: number }
  | { raw: string }
  | { hold: Promise<unknown> | 'forever'; then?: ScriptedAnswer };

/** A running fake server. */
export interface FakeChat {
  /** The chat completions URL. */
  url: string;
  requests: ChatRequest[];
  /** The most requests in flight at once so far. */
  maxInFlight: () => number;
  close: () => Promise<void>;
}

/** The usage the server reports when the script sets none: 100 prompt tokens a turn (so 100, 101, …) and 10 completion tokens. */
export function defaultUsage(turn: number): { prompt: number; completion: number } {
  return { prompt: 100 + turn, completion: 10 };
}

/** The body of an answer, as an OpenAI-compatible server writes it; tool calls have the ids `call_<turn>_<n>`. */
function completionBody(answer: { calls?: ScriptedCall[]; content?: string | null; usage?: ScriptedUsage | undefined }, turn: number): string {
  const calls = answer.calls?.map((call, index) => ({
    id: `call_${turn}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) },
  }));
  const usage = answer.usage === undefined ? defaultUsage(turn) : answer.usage;
  return JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message: { role: 'assistant', content: answer.content ?? null, ...(calls ? { tool_calls: calls } : {}) }, finish_reason: calls ? 'tool_calls' : 'stop' }],
    ...(usage ? { usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion } } : {}),
  });
}

/** Starts a server on a free port of 127.0.0.1 that answers each request as `script` says. */
export async function startFakeChat(script: (request: ChatRequest) => ScriptedAnswer): Promise<FakeChat> {
  const requests: ChatRequest[] = [];
  let inFlight = 0;
  let most = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inFlight++;
      most = Math.max(most, inFlight);
      res.on('close', () => inFlight--);
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as ChatRequest['body'];
      const content = body.messages.find((m) => m['role'] === 'user')?.['content'];
      const question = typeof content === 'string' ? content : '';
      const request: ChatRequest = {
        raw,
        body,
        authorization: req.headers.authorization,
        question,
        turn: body.messages.filter((m) => m['role'] === 'assistant').length,
        judge: body.messages[0]?.['content'] === JUDGE_INSTRUCTION,
      };
      requests.push(request);
      const send = (answer: ScriptedAnswer): void => {
        if (res.destroyed) return;
        if ('hold' in answer) {
          if (answer.hold !== 'forever') void answer.hold.then(() => send(answer.then ?? { text: '' }));
          return;
        }
        if ('status' in answer) {
          res.writeHead(answer.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `status ${answer.status}` } }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        if ('raw' in answer) res.end(answer.raw);
        else res.end(completionBody('text' in answer ? { content: answer.text, usage: answer.usage } : answer, request.turn));
      };
      send(script(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    requests,
    maxInFlight: () => most,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
