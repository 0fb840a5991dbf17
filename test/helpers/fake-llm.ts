/**
 * A chat-completions server on 127.0.0.1 for tests of LLM summaries: it answers each request as
 * the test says (a summary, an HTTP error, garbage, a slow answer), and records what it was asked
 * and how many requests were in flight at once.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received. */
export interface LlmRequest {
  /** The `Subject: <topic>/<slug>` of the user message. */
  subject: string;
  body: { model: string; messages: { role: string; content: string }[] };
  authorization: string | undefined;
}

/**
 * How to answer a request: a summary text (a 200 in the chat-completions format), a raw answer
 * (sent `delayMs` after `after` resolves, if given), `{ drop: true }`: close the connection without
 * answering, or `{ hang: true }`: never answer (the server drops the connection when it closes).
 */
export type LlmAnswer = string | { drop: true } | { hang: true } | { status?: number; body: string; delayMs?: number; after?: Promise<unknown> };

/** A running fake server. */
export interface FakeLlm {
  /** The chat completions URL. */
  url: string;
  requests: LlmRequest[];
  /** The most requests in flight at once so far. */
  maxInFlight: () => number;
  /** Replaces how requests are answered. */
  answer: (answer: (request: LlmRequest) => LlmAnswer) => void;
  close: () => Promise<void>;
}

/** The body of a chat-completions answer whose text is `content`. */
export function completion(content: unknown): string {
  return JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
}

/** Starts a server on a free port of 127.0.0.1; by default it answers `Summary of <subject>.` */
export async function startFakeLlm(): Promise<FakeLlm> {
  const requests: LlmRequest[] = [];
  let inFlight = 0;
  let most = 0;
  let answerOf: (request: LlmRequest) => LlmAnswer = (request) => `Summary of ${request.subject}.`;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      inFlight++;
      most = Math.max(most, inFlight);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as LlmRequest['body'];
      const subject = /^Subject: (.*)$/m.exec(body.messages[1]?.content ?? '')?.[1] ?? '';
      const request = { subject, body, authorization: req.headers.authorization };
      requests.push(request);
      const answer = answerOf(request);
      if (typeof answer === 'object' && 'drop' in answer) {
        inFlight--;
        req.socket.destroy();
        return;
      }
      if (typeof answer === 'object' && 'hang' in answer) {
        res.on('close', () => inFlight--);
        return;
      }
      const { status = 200, body: text, delayMs = 20, after } = typeof answer === 'string' ? { body: completion(answer) } : answer;
      void Promise.resolve(after).then(() =>
        setTimeout(() => {
          inFlight--;
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': text.startsWith('<') ? 'text/html' : 'application/json' });
          res.end(text);
        }, delayMs),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    requests,
    maxInFlight: () => most,
    answer(next) {
      answerOf = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
