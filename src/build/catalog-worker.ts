/**
 * The catalog's worker thread (catalog-thread.ts starts it): it loads the checks' parsers, waits
 * for its task, runs the content checks and answers with their diagnostics (then saves the word
 * sets memo), then makes and keys the site's texts, saves the search terms memo, and answers with
 * the texts, handing their bytes over.
 */
import { parentPort } from 'node:worker_threads';
import { checkContent, loadContentChecks } from '../kb/checks/content.ts';
import type { CatalogReply, CatalogTask } from './catalog-thread.ts';
import { openSearchDocumentMemo } from './search-terms-memo.ts';
import { openWordSetMemo } from './stored-memo.ts';
import { keyText, siteTextsOf } from './site-texts.ts';

const reply = (message: CatalogReply, transfer: ArrayBuffer[] = []): void => parentPort!.postMessage(message, transfer);
const failure = (error: unknown): string => (error as Error).message || String(error);
// Loaded while the build reads the knowledge base; a failure is the checks' to report.
const loaded = loadContentChecks();
loaded.catch(() => undefined);

parentPort!.once('message', async ({ input, checks, memos }: CatalogTask) => {
  try {
    await loaded;
    const wordSets = openWordSetMemo(memos.wordSets, memos.codeKey);
    const diagnostics = checkContent(input.catalog, input.site, checks.root, { near_duplicate_code: checks.nearDuplicateCode }, wordSets);
    reply({ checks: diagnostics });
    wordSets.save();
  } catch (error) {
    reply({ failed: 'checks', error: failure(error) });
  }
  try {
    const memo = openSearchDocumentMemo(memos.searchTerms, memos.codeKey);
    const texts = siteTextsOf(input, memo).map(({ path, make }) => ({ path, ...keyText(make()) }));
    memo.save();
    reply(
      { texts },
      texts.map((t) => t.bytes.buffer as ArrayBuffer),
    );
  } catch (error) {
    reply({ failed: 'texts', error: failure(error) });
  }
});
