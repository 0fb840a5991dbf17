/**
 * The worker thread that counts tokens for the build (token-thread.ts starts it): it loads the
 * tokenizer at once, then answers each batch of texts with their counts, in the order they came.
 */
import { parentPort } from 'node:worker_threads';
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import type { TokenBatch, TokenCounts } from './token-thread.ts';

const port = parentPort!;
await loadTokenizer();
port.on('message', (batch: TokenBatch) => {
  const reply: TokenCounts = { counts: batch.texts.map(countTokens) };
  port.postMessage(reply);
});
