/**
 * Keywords (content/reference/cli/find.md, "How subjects are ranked"): the words of a subject's
 * title, summary and headings that `find` ranks by, and the word sets that `check` compares for
 * near-duplicates and `learnings add` for duplicates (content/reference/cli/learnings.md) — one
 * tokenizer and one stop-word list for all of them.
 */

/** A subject keeps at most this many keywords (content/reference/cli/find.md: "the first 20"). */
export const KEYWORD_LIMIT = 20;

/**
 * English stop words, left out of word sets (one fixed list). Words of one or two
 * letters are left out anyway; contractions are listed as they read once punctuation is removed.
 */
const STOP_WORDS = new Set(
  (
    'about above after again against all also and any are arent because been before being below between both but ' +
    'can cannot cant could couldnt did didnt does doesnt doing dont down during each few for from further had hadnt ' +
    'has hasnt have havent having her here hers herself him himself his how into isnt its itself just lets more most ' +
    'mustnt myself nor not now off once only other ought our ours ourselves out over own same shant she should ' +
    'shouldnt some such than that thats the their theirs them themselves then there theres these they this those ' +
    'through too under until very was wasnt were werent what whats when where which while who whom whos why will ' +
    'with wont would wouldnt you your yours yourself yourselves'
  ).split(' '),
);

/** Whether a lower-case word is one of the English stop words that word sets and `find` leave out. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The word set of a text (the keyword rules, without the limit of 20): lower-cased with
 * `toLowerCase()`, punctuation removed (every character that is not a letter, a digit or white
 * space is deleted: `don't` → `dont`, `ast-grep` → `astgrep`), split on white space, stop words
 * dropped, words of more than 2 characters kept, each once, in order of first occurrence.
 */
export function wordSetOf(text: string): string[] {
  const words = new Set<string>();
  for (const word of text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, '')
    .split(/\s+/)) {
    if (word.length > 2 && !STOP_WORDS.has(word)) words.add(word);
  }
  return [...words];
}

/**
 * The keywords of a text: its first {@link KEYWORD_LIMIT} words under {@link wordSetOf}'s rules.
 * `find` extracts a query's keywords with it.
 */
export function keywordsOf(text: string): string[] {
  return wordSetOf(text).slice(0, KEYWORD_LIMIT);
}

/** What a subject's keywords are made from. */
export interface KeywordSource {
  title: string;
  /** The summary (content/agents/endpoints.md, "Summaries"); `''` when there is none. */
  summary: string;
  /** The texts of the subject's markdown headings, in document order (none for other formats). */
  headings: readonly string[];
}

/**
 * A subject's keywords: the words of its title, then of its summary, then of its
 * headings, under {@link wordSetOf}'s rules, each once, the first {@link KEYWORD_LIMIT}.
 */
export function subjectKeywords(source: KeywordSource): string[] {
  return keywordsOf([source.title, source.summary, ...source.headings].join('\n'));
}
