/**
 * A worker thread asked in batches: the build's thread queues its asks, sends them in one message
 * once they reach a size or when it next yields, and the worker answers every batch, in order,
 * with an answer or a failure for each ask. The file writer (file-writer.ts) is such a thread,
 * and the token counter is one through a port of the catalog's thread (catalog-thread.ts); their
 * workers answer with {@link answerBatches}.
 */
import { type MessagePort, parentPort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { startThread } from './start-thread.ts';

/** Asks sent to the worker in one message. */
export interface Batch<Ask> {
  asks: Ask[];
}

/** The worker's answer to a batch: for each ask in order, its answer or why it failed. */
export interface BatchAnswers<Answer> {
  answers: ({ ok: Answer } | { error: string })[];
}

/** How a batched asker sends: the sizes of its batches, and when it yields. */
export interface BatchingOptions<Ask> {
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

/** Options of {@link startBatchedThread}. */
export interface BatchedThreadOptions<Ask> extends BatchingOptions<Ask> {
  /** The worker's module. */
  url: URL;
}

/** A worker asked in batches; {@link BatchedThread.stop} ends it. */
export interface BatchedThread<Ask, Answer> {
  ask(ask: Ask): Promise<Answer>;
  /** Whether the thread has failed or been stopped: it then refuses every ask. */
  readonly failed: boolean;
  /** Ends the thread; asks still waiting are refused. */
  stop(): Promise<void>;
}

/** Batches asked through a port of a worker that does other work too; {@link PortAsker.fail} is its owner's to call. */
export interface PortAsker<Ask, Answer> {
  ask(ask: Ask): Promise<Answer>;
  /** Refuses the asks still waiting and every later one with `error`, and closes the port. */
  fail(error: Error): void;
}

type Waiting<Answer> = { resolve: (answer: Answer) => void; reject: (error: Error) => void };

/** What a batched asker talks through: a worker, or a port whose other end a worker holds. */
type Endpoint = Worker | MessagePort;

/** Asks `endpoint` in batches; `fail` refuses what waits, and whatever is asked later. */
function askInBatches<Ask, Answer>(endpoint: Endpoint, options: BatchingOptions<Ask>): { ask(ask: Ask): Promise<Answer>; fail(error: Error): void; readonly failed: boolean } {
  if (options.idleUnref) endpoint.unref();
  // The batches sent, oldest first, each with who waits for its answers; the worker answers in order.
  const sent: Waiting<Answer>[][] = [];
  let asks: Ask[] = [];
  let waiting: Waiting<Answer>[] = [];
  let size = 0;
  let pending = 0;
  let failure: Error | undefined;
  const settled = (count: number): void => {
    pending -= count;
    if (pending === 0 && options.idleUnref) endpoint.unref();
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
  const answered = (reply: BatchAnswers<Answer>): void => {
    const batch = sent.shift();
    if (!batch) return;
    reply.answers.forEach((answer, n) => ('ok' in answer ? batch[n]!.resolve(answer.ok) : batch[n]!.reject(new Error(answer.error))));
    settled(batch.length);
  };
  // Two calls: TypeScript cannot call the overloads of a union's `on`.
  if (endpoint instanceof Worker) endpoint.on('message', answered);
  else endpoint.on('message', answered);
  const send = (): void => {
    if (asks.length === 0) return;
    const batch: Batch<Ask> = { asks };
    sent.push(waiting);
    endpoint.postMessage(batch);
    asks = [];
    waiting = [];
    size = 0;
  };
  return {
    ask(ask) {
      if (failure) return Promise.reject(failure);
      return new Promise<Answer>((resolve, reject) => {
        if (pending++ === 0 && options.idleUnref) endpoint.ref();
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
    fail,
    get failed() {
      return failure !== undefined;
    },
  };
}

/** Starts the worker of `options.url`, to be asked in batches. */
export function startBatchedThread<Ask, Answer>(options: BatchedThreadOptions<Ask>): BatchedThread<Ask, Answer> {
  const worker = startThread(options.url);
  const asker = askInBatches<Ask, Answer>(worker, options);
  worker.on('error', (error) => asker.fail(new Error(`${options.name}'s thread failed: ${error.message || String(error)}`)));
  worker.on('exit', (code) => asker.fail(new Error(`${options.name}'s thread stopped (exit code ${code})`)));
  return {
    ask: (ask) => asker.ask(ask),
    get failed() {
      return asker.failed;
    },
    async stop() {
      asker.fail(new Error(`${options.name} was stopped`));
      await worker.terminate();
    },
  };
}

/**
 * Asks, in batches, the worker that holds the other end of `port` and answers there with
 * {@link answerBatches}; the worker's owner fails the asker when the worker ends.
 */
export function askThroughPort<Ask, Answer>(port: MessagePort, options: BatchingOptions<Ask>): PortAsker<Ask, Answer> {
  const asker = askInBatches<Ask, Answer>(port, options);
  return {
    ask: (ask) => asker.ask(ask),
    fail(error) {
      asker.fail(error);
      port.close();
    },
  };
}

/**
 * In a worker asked by {@link startBatchedThread} or {@link askThroughPort}: answers each batch that
 * comes through `port` (default: the worker's `parentPort`) with `answer` of each ask, in order; an
 * ask that throws fails alone, with `failed`'s message for it. The batches already waiting are
 * answered before this returns: work the thread starts next (loading modules) does not hold them.
 */
export function answerBatches<Ask, Answer>(
  answer: (ask: Ask) => Answer,
  failed: (ask: Ask, error: Error) => string = (_, error) => error.message,
  port: MessagePort = parentPort!,
): void {
  const answerBatch = ({ asks }: Batch<Ask>): void => {
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
  };
  for (let waiting = receiveMessageOnPort(port); waiting; waiting = receiveMessageOnPort(port)) answerBatch(waiting.message as Batch<Ask>);
  port.on('message', answerBatch);
}
