/**
 * A worker thread asked in batches: the build's thread queues its asks, sends them in one message
 * once they reach a size or when it next yields, and the worker answers every batch, in order,
 * with an answer or a failure for each ask. The token counter (token-thread.ts) and the file
 * writer (file-writer.ts) are such threads; their workers answer with {@link answerBatches}.
 */
import { parentPort, Worker } from 'node:worker_threads';

/** Asks sent to the worker in one message. */
export interface Batch<Ask> {
  asks: Ask[];
}

/** The worker's answer to a batch: for each ask in order, its answer or why it failed. */
export interface BatchAnswers<Answer> {
  answers: ({ ok: Answer } | { error: string })[];
}

/** Options of {@link startBatchedThread}. */
export interface BatchedThreadOptions<Ask> {
  /** The worker's module. */
  url: URL;
  /** What the thread does, for messages: `the token counter`. */
  name: string;
  /** A batch is sent once the sizes of its asks add up to this, else when the asker yields. */
  batchSize: number;
  sizeOf(ask: Ask): number;
  /**
   * When the asker yields: at its next microtask (the default), or once the event loop turns
   * (`immediate`), which gathers the asks of several tasks into one message.
   */
  yields?: 'microtask' | 'immediate' | undefined;
  /** The thread keeps the process alive only while asks wait for answers (default: always, until stopped). */
  idleUnref?: boolean | undefined;
}

/** A worker asked in batches; {@link BatchedThread.stop} ends it. */
export interface BatchedThread<Ask, Answer> {
  ask(ask: Ask): Promise<Answer>;
  /** Whether the thread has failed or been stopped: it then refuses every ask. */
  readonly failed: boolean;
  /** Ends the thread; asks still waiting are refused. */
  stop(): Promise<void>;
}

type Waiting<Answer> = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

/** Starts the worker of `options.url`, to be asked in batches. */
export function startBatchedThread<Ask, Answer>(options: BatchedThreadOptions<Ask>): BatchedThread<Ask, Answer> {
  const worker = new Worker(options.url);
  if (options.idleUnref) worker.unref();
  // The batches sent, oldest first, each with who waits for its answers; the worker answers in order.
  const sent: Waiting<Answer>[][] = [];
  let asks: Ask[] = [];
  let waiting: Waiting<Answer>[] = [];
  let size = 0;
  let pending = 0;
  let failure: Error | undefined;
  const settled = (count: number): void => {
    pending -= count;
    if (pending === 0 && options.idleUnref) worker.unref();
  };
  const fail = (error: Error): void => {
    failure ??= error;
    const all = [...sent.flat(), ...waiting];
    sent.length = 0;
    waiting = [];
    asks = [];
    for (const w of all) w.reject(failure);
    settled(all.length);
  };
  worker.on('message', (reply: BatchAnswers<Answer>) => {
    const batch = sent.shift()!;
    reply.answers.forEach((answer, n) => ('ok' in answer ? batch[n]!.resolve(answer.ok) : batch[n]!.reject(new Error(answer.error))));
    settled(batch.length);
  });
  worker.on('error', (error) => fail(new Error(`${options.name}'s thread failed: ${error.message || String(error)}`)));
  worker.on('exit', (code) => fail(new Error(`${options.name}'s thread stopped (exit code ${code})`)));
  const send = (): void => {
    if (asks.length === 0) return;
    const batch: Batch<Ask> = { asks };
    sent.push(waiting);
    worker.postMessage(batch);
    asks = [];
    waiting = [];
    size = 0;
  };
  return {
    ask(ask) {
      if (failure) return Promise.reject(failure);
      return new Promise<Answer>((resolve, reject) => {
        if (pending++ === 0 && options.idleUnref) worker.ref();
        if (asks.length === 0) {
          if (options.yields === 'immediate') setImmediate(send);
          else queueMicrotask(send);
        }
        asks.push(ask);
        waiting.push({ resolve, reject });
        size += options.sizeOf(ask);
        if (size >= options.batchSize) send();
      });
    },
    get failed() {
      return failure !== undefined;
    },
    async stop() {
      fail(new Error(`${options.name} was stopped`));
      await worker.terminate();
    },
  };
}

/**
 * In a worker started by {@link startBatchedThread}: answers each batch with `answer` of each ask,
 * in order; an ask that throws fails alone, with `failed`'s message for it.
 */
export function answerBatches<Ask, Answer>(answer: (ask: Ask) => Answer, failed: (ask: Ask, error: Error) => string = (_, error) => error.message): void {
  const port = parentPort!;
  port.on('message', ({ asks }: Batch<Ask>) => {
    const reply: BatchAnswers<Answer> = {
      answers: asks.map((ask) => {
        try {
          return { ok: answer(ask) };
        } catch (error) {
          return { error: failed(ask, error as Error) };
        }
      }),
    };
    port.postMessage(reply);
  });
}
