/**
 * Token counts in a worker thread (content/reference/decisions.md, "Tokens counted in a thread of
 * their own"): the tokenizer takes a third of a second to load and most of a full build's reading
 * time to count, and the build's thread has other work while it does.
 */
import type { TokenCounter } from '../kb/catalog/tokens.ts';
import { startBatchedThread } from './batched-thread.ts';
import { moduleUrl } from './module-url.ts';

/** A counter running in its own thread; {@link TokenThread.stop} ends the thread. */
export interface TokenThread {
  count: TokenCounter;
  /** Ends the thread; counts still waiting are refused. */
  stop(): Promise<void>;
}

/** A batch is sent once its texts reach this many characters, else when the asker next waits. */
const BATCH_CHARACTERS = 256 * 1024;

const WORKER_URL = moduleUrl('./token-worker', import.meta.url);

/** Starts a worker thread that loads the tokenizer at once, so that it is ready when counts are asked for. */
export function startTokenThread(): TokenThread {
  const thread = startBatchedThread<string, number>({ url: WORKER_URL, name: 'the token counter', batchSize: BATCH_CHARACTERS, sizeOf: (text) => text.length });
  return { count: (text) => thread.ask(text), stop: () => thread.stop() };
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
