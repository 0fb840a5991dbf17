/**
 * The terms `find` ranks by (content/reference/cli/find.md, "How subjects are ranked"): each
 * listed subject's fields (title, name, summary, headings, body) as stemmed terms with their
 * counts. One bounded form serves local files and a published site (`/kb/keywords.json` carries
 * it encoded), so that both rank from the same numbers.
 */
import { hash } from 'node:crypto';
import { stemmer } from 'stemmer';
import type { CatalogSubject } from '../catalog/catalog.ts';
import { frontMatterLineCount } from '../catalog/title.ts';
import { isStopWord } from '../summaries/keywords.ts';

/** The fields of a subject, in the order of {@link SearchDocument.lengths} and of each term's counts. */
export const SEARCH_FIELDS = ['title', 'name', 'summary', 'headings', 'body'] as const;

/** How many distinct body terms a subject keeps: its most frequent ones, so that the published file stays bounded. */
export const BODY_TERM_LIMIT = 64;

/** A subject as `find` ranks it. */
export interface SearchDocument {
  /** Terms in each field, counted before the body's terms were cut to {@link BODY_TERM_LIMIT}. */
  lengths: readonly number[];
  /** Per term, its count in each field (in {@link SEARCH_FIELDS} order). */
  terms: ReadonlyMap<string, readonly number[]>;
}

/** What a subject's document is made from. */
export interface SearchSource {
  title: string;
  /** The slug: its segments, split into words, are the name field. */
  slug: string;
  summary: string;
  headings: readonly string[];
  /** The text of the subject (front matter is left out); `''` for a skipped file. */
  body: string;
}

/**
 * Two-letter English stop words: the keyword rules drop every word of two letters, `find` keeps
 * them (`ls`, `du`, `ip` are names) but these.
 */
const SHORT_STOP_WORDS = new Set('am an as at be by he if in is it me my of on or so to us we'.split(' '));

const stems = new Map<string, string>();

/** The Porter stem of an ASCII word (the `stemmer` package); other words stay as they are. Memoised. */
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    stem = /^[a-z]+$/.test(word) ? stemmer(word) : word;
    if (stems.size < 200_000) stems.set(word, stem);
  }
  return stem;
}

/**
 * The terms of a text, in order, repeats kept: lower-cased with `toLowerCase()`, split at every
 * character that is not a letter or a digit (`fill_fillable_fields` → `fill`, `fillable`,
 * `fields`), words of one character and English stop words (two-letter ones too) left out, each word stemmed.
 */
export function searchTermsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || isStopWord(word) || SHORT_STOP_WORDS.has(word)) continue;
    out.push(stemOf(word));
  }
  return out;
}

/** A markdown subject's text without its front matter (already in the title and summary). */
export function bodyOf(content: string, markdown: boolean): string {
  if (!markdown) return content;
  const lines = frontMatterLineCount(content);
  return lines === 0 ? content : content.split('\n').slice(lines).join('\n');
}

/**
 * The document of a subject: each field's terms counted; the body keeps its
 * {@link BODY_TERM_LIMIT} most frequent terms (ties: first seen first).
 */
export function searchDocumentOf(source: SearchSource): SearchDocument {
  const fields = [searchTermsOf(source.title), searchTermsOf(source.slug), searchTermsOf(source.summary), searchTermsOf(source.headings.join('\n')), searchTermsOf(source.body)];
  const counts = fields.map((terms) => {
    const count = new Map<string, number>();
    for (const term of terms) count.set(term, (count.get(term) ?? 0) + 1);
    return count;
  });
  const body = counts[4]!;
  if (body.size > BODY_TERM_LIMIT) {
    // Map order is first-seen order and the sort is stable: ties keep the first seen.
    const kept = [...body].sort((a, b) => b[1] - a[1]).slice(0, BODY_TERM_LIMIT);
    counts[4] = new Map(kept);
  }
  const terms = new Map<string, number[]>();
  counts.forEach((count, field) => {
    for (const [term, n] of count) {
      let row = terms.get(term);
      if (!row) terms.set(term, (row = [0, 0, 0, 0, 0]));
      row[field] = n;
    }
  });
  return { lengths: fields.map((f) => f.length), terms: sortedTerms(terms) };
}

/** The search document of a catalog subject: its title, slug, summary, headings and text (none for a skipped file). */
export function searchDocumentOfSubject(subject: CatalogSubject): SearchDocument {
  return searchDocumentOf({
    title: subject.title,
    slug: subject.slug,
    summary: subject.summary,
    headings: subject.headings,
    body: subject.skipped === null ? bodyOf(subject.content, subject.format === 'markdown') : '',
  });
}

/**
 * Encoded search documents kept by a host between runs (the build's cache), by what they are made
 * of: most subjects do not change between builds.
 */
export interface SearchDocumentMemo {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
}

/** {@link encodeSearchDocument} of {@link searchDocumentOfSubject}, taken from `memo` when it holds it. */
export function encodedSearchDocumentOfSubject(subject: CatalogSubject, memo?: SearchDocumentMemo): EncodedSearchDocument {
  if (!memo) return encodeSearchDocument(searchDocumentOfSubject(subject));
  const { title, slug, summary, headings, skipped, format, sha256 } = subject;
  const key = hash('sha1', JSON.stringify([title, slug, summary, headings, skipped, format, sha256]), 'base64');
  const known = memo.get(key);
  // Kept as lines: the lengths, then each field's terms (which hold no line break).
  const encoded =
    known === undefined
      ? encodeSearchDocument(searchDocumentOfSubject(subject))
      : { lengths: known.slice(0, known.indexOf('\n')).split(',').map(Number), terms: known.split('\n').slice(1) };
  memo.set(key, known ?? `${encoded.lengths.join(',')}\n${encoded.terms.join('\n')}`);
  return encoded;
}

/** The terms in code-unit order, so that a document is the same however it was made. */
function sortedTerms(terms: Map<string, readonly number[]>): Map<string, readonly number[]> {
  return new Map([...terms].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A document as `/kb/keywords.json` holds it (see {@link encodeSearchDocument}). */
export interface EncodedSearchDocument {
  lengths: number[];
  terms: string[];
}

/**
 * A document as `/kb/keywords.json` holds it: per field, its terms separated by spaces, each
 * followed by `:<count>` when it occurs more than once (`"tar archiv:3"`).
 */
export function encodeSearchDocument(document: SearchDocument): EncodedSearchDocument {
  const fields: string[][] = SEARCH_FIELDS.map(() => []);
  for (const [term, counts] of document.terms) {
    counts.forEach((n, field) => {
      if (n > 0) fields[field]!.push(n === 1 ? term : `${term}:${n}`);
    });
  }
  return { lengths: [...document.lengths], terms: fields.map((f) => f.join(' ')) };
}

/** The document that {@link encodeSearchDocument} wrote. */
export function decodeSearchDocument(encoded: { lengths: readonly number[]; terms: readonly string[] }): SearchDocument {
  const terms = new Map<string, number[]>();
  encoded.terms.forEach((field, index) => {
    if (field === '') return;
    for (const item of field.split(' ')) {
      const colon = item.lastIndexOf(':');
      const term = colon === -1 ? item : item.slice(0, colon);
      const n = colon === -1 ? 1 : Number(item.slice(colon + 1));
      let row = terms.get(term);
      if (!row) terms.set(term, (row = [0, 0, 0, 0, 0]));
      row[index] = n;
    }
  });
  return { lengths: [...encoded.lengths], terms: sortedTerms(terms) };
}
