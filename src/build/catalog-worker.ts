/**
 * The catalog's worker thread (catalog-thread.ts starts it): it loads the tokenizer, then its
 * other modules and the checks' parsers, and counts the tokens it is asked for while the build
 * reads, then waits for its task, runs the content checks and answers with their diagnostics,
 * then makes and keys the site's texts and answers with them, handing their bytes over; it then
 * saves the memos it used (the near-duplicate check's word sets, the checks' markdown outlines
 * and the search terms), says so, and ends; a thread kept between builds (`build --watch`) waits
 * for the next build's port of counts and task instead.
 */
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import { answerBatches } from './batched-thread.ts';
import type { CatalogReply, CatalogTask, CatalogWorkerData } from './catalog-thread.ts';

const reply = (message: CatalogReply, transfer: ArrayBuffer[] = []): void => parentPort!.postMessage(message, transfer);
const failure = (error: unknown): string => (error as Error).message || String(error);
const { tokens: firstTokens, kept } = workerData as CatalogWorkerData;
// The tokenizer loads first, at once: the catalog asks for the counts of the contents its memo
// does not know as it reads them, in batches, and waits for them once every subject is read.
// Counts asked meanwhile wait on the port, which starts with its listener; a tokenizer that does
// not load fails every count.
const counter: Promise<(text: string) => number> = loadTokenizer().then(
  () => countTokens,
  (error: unknown) => () => {
    throw error;
  },
);
/** Answers the counts of one build, asked through `port`, once the tokenizer is in. */
const countThrough = (port: MessagePort): Promise<void> => counter.then((count) => answerBatches(count, undefined, port));
// The counts asked while it loaded are answered first; the rest of the thread's modules (the
// checks, their parsers, the texts) load after it, while the build still reads, or as soon as the
// task comes when it comes first (no count was asked): an edited subject's count is what the build
// waits for, not the checks (content/reference/decisions.md, "Tokens counted in the catalog's
// thread"). A failure is the checks' to report.
let tokens = firstTokens;
const answering = countThrough(tokens);
const taskCame = Promise.withResolvers<void>();
const loaded = Promise.race([answering, taskCame.promise])
  .then(() => Promise.all([import('../kb/checks/content.ts'), import('./search-terms-memo.ts'), import('./stored-memo.ts'), import('./site-texts.ts')]))
  .then(async (loadedModules) => {
    await loadedModules[0].loadContentChecks();
    return loadedModules;
  });
loaded.catch(() => undefined);

parentPort!.on('message', (message: CatalogTask | { tokens: MessagePort }) => {
  if ('tokens' in message) {
    // A kept thread's next build.
    tokens = message.tokens;
    void countThrough(tokens);
    return;
  }
  // The catalog is made: no count is asked any more, and the open port would keep the thread alive.
  tokens.close();
  taskCame.resolve();
  void work(message).finally(() => {
    reply({ saved: true });
    // A thread for one build ends here: nothing else keeps it alive.
    if (!kept) parentPort!.unref();
    // A kept thread's copy of the catalog is garbage now: collected at once, not left to pile up
    // over the builds (content/reference/decisions.md, "The build that stays running").
    else collectGarbage();
  });
});

/** A full garbage collection of this thread's heap (V8's `gc`, exposed for this thread's use). */
function collectGarbage(): void {
  v8.setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

async function work({ input, checks, memos }: CatalogTask): Promise<void> {
  let loadedModules: Awaited<typeof loaded>;
  try {
    loadedModules = await loaded;
  } catch (error) {
    reply({ failed: 'checks', error: failure(error) });
    return;
  }
  const [{ checkContent }, { openSearchDocumentMemo }, { openContentCheckMemos }, { keyText, siteTextsOf }] = loadedModules;
  // The memos are saved once both answers are sent: the build waits for the answers, not for them.
  const checkMemos = openContentCheckMemos(memos, memos.codeKey);
  const searchTerms = openSearchDocumentMemo(memos.searchTerms, memos.codeKey);
  try {
    reply({ checks: checkContent(input.catalog, input.site, checks.root, { near_duplicate_code: checks.nearDuplicateCode }, checkMemos) });
  } catch (error) {
    reply({ failed: 'checks', error: failure(error) });
  }
  try {
    const texts = siteTextsOf(input, searchTerms).map(({ path, make }) => ({ path, ...keyText(make()) }));
    reply(
      { texts },
      texts.map((t) => t.bytes.buffer as ArrayBuffer),
    );
  } catch (error) {
    reply({ failed: 'texts', error: failure(error) });
  }
  checkMemos.save();
  searchTerms.save();
}
