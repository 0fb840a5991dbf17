/**
 * The work on the whole catalog that the build's thread need not wait for at once, in a worker
 * thread of its own (content/reference/decisions.md, "The catalog's work in a thread of its own"):
 * the content checks, then the site's texts that grow with the knowledge base (its indexes,
 * llms.txt, llms-full.txt). Together they took half of a one-subject rebuild's time in the
 * build's thread, which meanwhile keys the pages, starts the search index and makes the pages.
 * The thread starts with the build and loads its modules while the knowledge base is read; it
 * counts the catalog's tokens meanwhile (content/reference/decisions.md, "Tokens counted in the
 * catalog's thread").
 */
import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import type { Diagnostic } from '../kb/diagnostics/diagnostics.ts';
import type { TokenCounter } from '../kb/catalog/tokens.ts';
import { askThroughPort } from './batched-thread.ts';
import type { KeyedText, SiteTextsInput } from './site-texts.ts';
import { moduleUrl } from './module-url.ts';
import type { SiteData } from './site-data.ts';
import { startThread } from './start-thread.ts';

/** What the worker starts with: the port its first build's token counts are asked through, and whether it is kept for more builds. */
export interface CatalogWorkerData {
  tokens: MessagePort;
  kept: boolean;
}

/** What the worker is sent: the catalog and settings (copied into its heap), the checks' settings and the files of the memos it uses. */
export interface CatalogTask {
  input: SiteTextsInput;
  /** The folder near-duplicate warnings name files relative to, and `[check] near_duplicate_code`. */
  checks: { root: string; nearDuplicateCode: boolean };
  /** The files of the search terms, word sets and outlines memos (stored-memo.ts), written by the code of key `codeKey`. */
  memos: { searchTerms: string; wordSets: string; outlines: string; codeKey: string };
}

/** One of the worker's two answers, or why the work it was doing failed; then that it saved its memos. */
export type CatalogReply = { checks: Diagnostic[] } | { texts: ({ path: string } & KeyedText)[] } | { failed: 'checks' | 'texts'; error: string } | { saved: true };

/** The worker's results, each as it comes. */
export interface CatalogWork {
  /** The content checks' diagnostics (kb/checks/content.ts `checkContent`), before `[check]`'s severities. */
  checks: Promise<Diagnostic[]>;
  /** The texts of site-texts.ts `siteTextsOf`, made and keyed, by path. */
  texts: Promise<Map<string, KeyedText>>;
  /** Settles once the thread is done: after both answers it saves the memos it used, then ends (or, kept, waits for the next build). */
  ended: Promise<void>;
}

/** A catalog thread started, waiting for its catalog. */
export interface CatalogThread {
  /**
   * Counts the tokens of a text in the thread, which loads the tokenizer as it starts. Asked
   * before {@link CatalogThread.work} only: counts asked later are refused.
   */
  count: TokenCounter;
  /**
   * Sends the thread the catalog of `data` with `settings`: its work starts, and uses and saves
   * the memos. Undefined, and the thread ends, when the subjects' content is over
   * `limit` characters: the work is then the build thread's. Asked once.
   */
  work(data: SiteData, settings: Omit<CatalogTask, 'input'>, limit?: number): CatalogWork | undefined;
}

/**
 * Characters of subject content, at most, for which the work is done in a thread: the thread
 * holds a copy of the catalog, which a larger knowledge base's peak memory cannot spare.
 */
export const CATALOG_THREAD_CHARACTERS = 32 * 1024 * 1024;

const WORKER_URL = moduleUrl('./catalog-worker', import.meta.url);

/** A batch of texts to count is sent once they reach this many characters, else when the asker next waits. */
const TOKEN_BATCH_CHARACTERS = 256 * 1024;

/**
 * A catalog thread kept from one build to the next (`build --watch`): its modules stay loaded and
 * its hot code compiled. A build stopped early ends the thread; the next build starts another.
 */
export interface KeptCatalogThread {
  /** As {@link startCatalogThread}, on the kept thread. */
  start(signal: AbortSignal): CatalogThread;
  /** Ends the kept thread. */
  stop(): Promise<void>;
  /** The kept thread's `threadId`; undefined before the first build, and once it has ended. */
  readonly threadId: number | undefined;
}

/** A {@link KeptCatalogThread}; its thread starts with the first build. */
export function keepCatalogThread(): KeptCatalogThread {
  const kept: { worker?: Worker | undefined } = {};
  return {
    start: (signal) => startCatalogThread(signal, kept),
    async stop() {
      const worker = kept.worker;
      kept.worker = undefined;
      await worker?.terminate();
    },
    get threadId() {
      return kept.worker?.threadId;
    },
  };
}

/**
 * Starts the catalog's worker thread, which loads its modules, counts the tokens it is asked for,
 * and waits for {@link CatalogThread.work}; with `kept`, the thread it holds, or a new one it then
 * holds. `signal` ends it before its texts come (the build stopped): what has not come yet then
 * rejects.
 */
export function startCatalogThread(signal: AbortSignal, kept?: { worker?: Worker | undefined }): CatalogThread {
  const { port1, port2 } = new MessageChannel();
  let worker = kept?.worker;
  if (worker) worker.postMessage({ tokens: port2 }, [port2]);
  else {
    const started = startThread(WORKER_URL, { workerData: { tokens: port2, kept: kept !== undefined } satisfies CatalogWorkerData, transferList: [port2] });
    if (kept) {
      kept.worker = started;
      // A kept thread that ends between builds is started again by the next one.
      started.once('exit', () => {
        if (kept.worker === started) kept.worker = undefined;
      });
    }
    worker = started;
  }
  const thread = worker;
  const tokens = askThroughPort<string, number>(port1, { name: 'the token counter', batchSize: TOKEN_BATCH_CHARACTERS, sizeOf: (text) => text.length, idleUnref: true });
  const checks = settleable<Diagnostic[]>();
  const texts = settleable<Map<string, KeyedText>>();
  const { promise: ended, resolve: end } = Promise.withResolvers<void>();
  /** This build is done with the thread: its listeners go. */
  const release = (): void => {
    signal.removeEventListener('abort', stop);
    thread.off('message', onMessage);
    thread.off('error', onError);
    thread.off('exit', onExit);
    end();
  };
  const fail = (error: Error): void => {
    tokens.fail(error);
    checks.reject(error);
    texts.reject(error);
    if (kept?.worker === thread) kept.worker = undefined;
    void thread.terminate();
    release();
  };
  const stop = (): void => fail(signal.reason instanceof Error ? signal.reason : new Error('the catalog thread was stopped'));
  const onMessage = (reply: CatalogReply): void => {
    if ('failed' in reply) fail(new Error(`${reply.failed === 'checks' ? 'the content checks' : "making the site's indexes"} failed: ${reply.error}`));
    else if ('checks' in reply) checks.resolve(reply.checks);
    else if ('texts' in reply) {
      texts.resolve(new Map(reply.texts.map(({ path, key, bytes }) => [path, { key, bytes }])));
      // Its work is done: it saves the memos, whatever the build does now.
      signal.removeEventListener('abort', stop);
    } else if (kept) release();
  };
  const onError = (error: Error): void => fail(new Error(`the catalog thread failed: ${error.message || String(error)}`));
  const onExit = (code: number): void => fail(new Error(`the catalog thread stopped (exit code ${code})`));
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  thread.on('message', onMessage);
  thread.on('error', onError);
  thread.on('exit', onExit);
  return {
    count: (text) => tokens.ask(text),
    work(data, settings, limit = CATALOG_THREAD_CHARACTERS) {
      tokens.fail(new Error('the token counter was stopped: the catalog is made'));
      let characters = 0;
      for (const topic of data.catalog.topics) for (const subject of topic.subjects) characters += subject.content.length;
      if (characters > limit) {
        if (kept?.worker === thread) kept.worker = undefined;
        void thread.terminate();
        release();
        return undefined;
      }
      const task: CatalogTask = { input: { catalog: data.catalog, site: data.site, base: data.routes.base }, ...settings };
      thread.postMessage(task);
      return { checks: checks.promise, texts: texts.promise, ended };
    },
  };
}

/** A promise with its resolve and reject; once it has settled, later calls do nothing. Its failure is handled: whoever asks for it sees it. */
function settleable<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  const { promise, resolve, reject } = Promise.withResolvers<T>();
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
