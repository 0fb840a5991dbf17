/** Token counts (o200k_base, via gpt-tokenizer). The encoder loads on first use: it is large. */

type CountTokens = (text: string) => number;
let counter: CountTokens | undefined;

/**
 * Counts the o200k_base tokens of a text, in this thread or another. Texts asked for together
 * (before the caller awaits) may be counted together.
 */
export type TokenCounter = (text: string) => Promise<number>;

/** Loads the tokenizer; call once before {@link countTokens}. */
export async function loadTokenizer(): Promise<void> {
  if (counter) return;
  const module = await import('gpt-tokenizer/encoding/o200k_base');
  counter = (text) => module.countTokens(text);
}

/** The number of o200k_base tokens in a text. Needs {@link loadTokenizer} first. */
export function countTokens(text: string): number {
  if (!counter) throw new Error('countTokens called before loadTokenizer');
  return text === '' ? 0 : counter(text);
}

/** The {@link TokenCounter} of this thread: loads the tokenizer when first asked. */
export async function countTokensHere(text: string): Promise<number> {
  await loadTokenizer();
  return countTokens(text);
}
