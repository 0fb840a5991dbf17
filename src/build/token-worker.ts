/**
 * The worker thread that counts tokens for the build (token-thread.ts starts it): it loads the
 * tokenizer at once, then answers each batch of texts with their counts, in the order they came.
 */
import { countTokens, loadTokenizer } from '../kb/catalog/tokens.ts';
import { answerBatches } from './batched-thread.ts';

await loadTokenizer();
answerBatches(countTokens);
