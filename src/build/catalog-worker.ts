/**
 * The catalog's worker thread (catalog-thread.ts starts it): it loads the tokenizer and the
 * checks' parsers and counts the tokens it is asked for while the build reads, then waits for its
 * task, runs the content checks and answers with their diagnostics, then makes and keys the
 * site's texts and answers with them, handing their bytes over; it then saves the memos it used
 * (the near-duplicate check's word sets, the checks' markdown outlines and the search terms).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkContent, loadContentChecks } from '../kb/checks/content.ts';
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import { answerBatches } from './batched-thread.ts';
import type { CatalogReply, CatalogTask, CatalogWorkerData } from './catalog-thread.ts';
import { openSearchDocumentMemo } from './search-terms-memo.ts';
import { openOutlineMemo, openWordSetMemo } from './stored-memo.ts';
import { keyText, siteTextsOf } from './site-texts.ts';

const reply = (message: CatalogReply, transfer: ArrayBuffer[] = []): void => parentPort!.postMessage(message, transfer);
const failure = (error: unknown): string => (error as Error).message || String(error);
const { tokens } = workerData as CatalogWorkerData;
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
void counter.then((count) => answerBatches(count, undefined, tokens));
// Loaded while the build reads the knowledge base; a failure is the checks' to report.
const loaded = loadContentChecks();
loaded.catch(() => undefined);

parentPort!.once('message', (task: CatalogTask) => {
  // The catalog is made: no count is asked any more, and the open port would keep the thread alive.
  tokens.close();
  void work(task);
});

async function work({ input, checks, memos }: CatalogTask): Promise<void> {
  // The memos are saved once both answers are sent: the build waits for the answers, not for them.
  const wordSets = openWordSetMemo(memos.wordSets, memos.codeKey);
  const outlines = openOutlineMemo(memos.outlines, memos.codeKey);
  const searchTerms = openSearchDocumentMemo(memos.searchTerms, memos.codeKey);
  try {
    await loaded;
    reply({ checks: checkContent(input.catalog, input.site, checks.root, { near_duplicate_code: checks.nearDuplicateCode }, { wordSets, outlines }) });
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
  wordSets.save();
  outlines.save();
  searchTerms.save();
}
