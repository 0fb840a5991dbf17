/** Token counts (o200k_base, via gpt-tokenizer). The encoder loads on first use: it is large. */

type CountTokens = (text: string) => number;
let counter: CountTokens | undefined;

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
