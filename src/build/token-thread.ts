/**
 * Token counts in a worker thread (content/reference/decisions.md, "Tokens counted in a thread of
 * their own"): the tokenizer takes a third of a second to load and most of a full build's reading
 * time to count, and the build's thread has other work while it does.
 */
import { Worker } from 'node:worker_threads';
import type { TokenCounter } from '../kb/catalog/tokens.ts';

/** Texts sent to the worker in one message. */
export interface TokenBatch {
  texts: string[];
}

/** The worker's answer to a batch: a count per text, in order. */
export interface TokenCounts {
  counts: number[];
}

/** A counter running in its own thread; {@link TokenThread.stop} ends the thread. */
export interface TokenThread {
  count: TokenCounter;
  /** Ends the thread; counts still waiting are refused. */
  stop(): Promise<void>;
}

/** A batch is sent once its texts reach this many characters, else when the asker next waits. */
const BATCH_CHARACTERS = 256 * 1024;

/** This module's own extension: `.ts` run from the sources (tests), `.js` compiled. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const WORKER_URL = new URL(`./token-worker${EXTENSION}`, import.meta.url);

type Waiting = { resolve: (tokens: number) => void; reject: (error: Error) => void };

/** Starts a worker thread that loads the tokenizer at once, so that it is ready when counts are asked for. */
export function startTokenThread(): TokenThread {
  const worker = new Worker(WORKER_URL);
  // The batches sent, oldest first, each with who waits for its counts; the worker answers in order.
  const sent: Waiting[][] = [];
  let texts: string[] = [];
  let waiting: Waiting[] = [];
  let characters = 0;
  let failure: Error | undefined;

  const fail = (error: Error): void => {
    failure ??= error;
    for (const batch of [...sent, waiting]) for (const w of batch) w.reject(failure);
    sent.length = 0;
    waiting = [];
    texts = [];
  };
  worker.on('message', (reply: TokenCounts) => {
    const batch = sent.shift()!;
    reply.counts.forEach((tokens, n) => batch[n]!.resolve(tokens));
  });
  worker.on('error', (error) => fail(new Error(`the token counter's thread failed: ${error.message}`)));
  worker.on('exit', (code) => fail(new Error(`the token counter's thread stopped (exit code ${code})`)));

  const send = (): void => {
    if (texts.length === 0) return;
    const batch: TokenBatch = { texts };
    sent.push(waiting);
    worker.postMessage(batch);
    texts = [];
    waiting = [];
    characters = 0;
  };

  return {
    count(text) {
      if (failure) return Promise.reject(failure);
      return new Promise<number>((resolve, reject) => {
        if (texts.length === 0) queueMicrotask(send);
        texts.push(text);
        waiting.push({ resolve, reject });
        characters += text.length;
        if (characters >= BATCH_CHARACTERS) send();
      });
    },
    async stop() {
      fail(new Error('the token counter was stopped'));
      await worker.terminate();
    },
  };
}

/** Runs `work` with a counter in its own thread, started at once and ended when `work` settles. */
export async function withTokenThread<T>(work: (count: TokenCounter) => Promise<T>): Promise<T> {
  const thread = startTokenThread();
  try {
    return await work(thread.count);
  } finally {
    await thread.stop();
  }
}
