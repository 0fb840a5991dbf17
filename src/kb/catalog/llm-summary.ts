/**
 * LLM summaries (content/reference/configuration.md, "[kb.summaries]"): which subjects an
 * OpenAI-compatible chat model summarises, the cache key of each summary, the request of one
 * subject, the reading of an answer, and the catalog with the summaries applied. Pure: the host
 * makes the calls and keeps the cache.
 *
 * A subject is summarised by the model when it is listed (not hidden), was read (not binary, too
 * large or unreadable), has text, is a file (not a learning, whose text is the agent's own words
 * and whose content changes with every use) and has no front matter `description` (the author's
 * words win). Every other subject keeps its extractive summary.
 */
import { createHash } from 'node:crypto';
import type { Catalog, CatalogSubject } from './catalog.ts';
import type { SummariesConfig } from '../config/schema.ts';
import { subjectKeywords } from '../summaries/keywords.ts';
import { cutSummary } from '../summaries/extractive.ts';

/** The most characters of a subject's content sent to the model; the rest is left out, and the request says so. */
export const LLM_CONTENT_LIMIT = 24_000;

/** What a summary's cache key and request depend on: `[kb.summaries]` after defaults. */
export type LlmSummarySettings = Pick<SummariesConfig, 'endpoint' | 'model' | 'prompt'>;

/** Why a call gave no summary. The host makes the first four; {@link parseSummaryResponse} the others. */
export type SummaryFailure =
  | { reason: 'http'; status: number }
  | { reason: 'timeout' }
  /** The endpoint cannot be reached at all (connection refused, unknown host): `detail` says which. */
  | { reason: 'unreachable'; detail: string }
  /** Another failure of the connection (reset, TLS): `detail` says which. */
  | { reason: 'network'; detail: string }
  /** The body is not JSON; `start` is its first characters. */
  | { reason: 'not-json'; start: string }
  /** JSON without a string at `choices[0].message.content`. */
  | { reason: 'no-content' }
  /** The model's text is empty once normalised. */
  | { reason: 'empty' };

/** A summary from an answer, or why there is none. */
export type SummaryAnswer = { ok: true; summary: string } | { ok: false; failure: SummaryFailure };

/** Whether the model summarises `subject` (see the module comment for the rule). */
export function isLlmSummarised(subject: CatalogSubject): boolean {
  const description = subject.frontMatter['description'];
  return (
    !subject.hidden &&
    subject.skipped === null &&
    subject.learning === null &&
    subject.bytes > 0 &&
    subject.content.trim() !== '' &&
    !(typeof description === 'string' && description.trim() !== '')
  );
}

/**
 * The cache key of a subject's summary: the sha256 (hex) of the endpoint, the model, the prompt
 * and the content, joined as a JSON array so that no two different sets give the same text. The
 * content enters by its own sha256 (`CatalogSubject.sha256`), which names it as surely and is
 * already computed.
 */
export function llmSummaryKey(settings: LlmSummarySettings, contentSha256: string): string {
  return createHash('sha256')
    .update(JSON.stringify([settings.endpoint, settings.model, settings.prompt, contentSha256]))
    .digest('hex');
}

/** A subject the model summarises, with its cache key. */
export interface SummaryCandidate {
  subject: CatalogSubject;
  key: string;
}

/** The subjects of `catalog` that the model summarises, in catalog order, each with its cache key. */
export function llmSummaryCandidates(catalog: Catalog, settings: LlmSummarySettings): SummaryCandidate[] {
  return catalog.topics.flatMap((topic) => topic.subjects.filter(isLlmSummarised).map((subject) => ({ subject, key: llmSummaryKey(settings, subject.sha256) })));
}

/**
 * The body of a chat-completions request for one subject: the prompt as the system message; as
 * the user message the subject's topic and slug, its title, then its content — the first
 * {@link LLM_CONTENT_LIMIT} characters, with a line saying how much was left out.
 */
export function buildSummaryRequest(subject: CatalogSubject, settings: LlmSummarySettings): string {
  let content = subject.content;
  if (content.length > LLM_CONTENT_LIMIT) {
    // Never cut between the two halves of a surrogate pair.
    const end = /[\uD800-\uDBFF]/.test(content[LLM_CONTENT_LIMIT - 1]!) ? LLM_CONTENT_LIMIT - 1 : LLM_CONTENT_LIMIT;
    content = `${content.slice(0, end)}\n\n[The document goes on: these are its first ${end} of ${subject.content.length} characters.]`;
  }
  const user = `Subject: ${subject.topic}/${subject.slug}\nTitle: ${subject.title}\n\n${content}`;
  return JSON.stringify({
    model: settings.model,
    messages: [
      { role: 'system', content: settings.prompt },
      { role: 'user', content: user },
    ],
  });
}

/**
 * Reads the body of a successful chat-completions answer: the text at `choices[0].message.content`,
 * normalised by {@link normalizeSummary}; a failure when the body is not JSON, has no such text,
 * or the text is empty.
 */
export function parseSummaryResponse(body: string): SummaryAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, failure: { reason: 'not-json', start: body.replace(/\s+/g, ' ').trim().slice(0, 40) } };
  }
  const content = (parsed as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') return { ok: false, failure: { reason: 'no-content' } };
  const summary = normalizeSummary(content);
  return summary === '' ? { ok: false, failure: { reason: 'empty' } } : { ok: true, summary };
}

/**
 * A model's text as one summary paragraph: a leading `<think>…</think>` block (reasoning models
 * on local servers) dropped, white space collapsed to single spaces, then cut at a sentence end
 * near 300 characters as extractive summaries are ({@link cutSummary}).
 */
export function normalizeSummary(text: string): string {
  return cutSummary(
    text
      .replace(/^\s*<think>[\s\S]*?<\/think>/, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

/**
 * Whether a failure means every other call of the run would fail the same way, so the host makes
 * no more: the endpoint cannot be reached, or refuses the key (401, 403), or has no such URL or
 * model (404).
 */
export function endsSummaryCalls(failure: SummaryFailure): boolean {
  return failure.reason === 'unreachable' || (failure.reason === 'http' && [401, 403, 404].includes(failure.status));
}

/**
 * The catalog with the summaries of `summaries` (by {@link llmSummaryKey}) in place of the
 * extractive ones, for the subjects the model summarises, and their keywords made again from the
 * new summary (title, summary, headings: content/reference/cli/find.md). Other subjects, and
 * subjects with no summary in the map, are kept as they are (the same objects).
 */
export function applySummaries(catalog: Catalog, settings: LlmSummarySettings, summaries: ReadonlyMap<string, string>): Catalog {
  if (summaries.size === 0) return catalog;
  return {
    ...catalog,
    topics: catalog.topics.map((topic) => ({
      ...topic,
      subjects: topic.subjects.map((subject) => {
        if (!isLlmSummarised(subject)) return subject;
        const summary = summaries.get(llmSummaryKey(settings, subject.sha256));
        if (summary === undefined || summary === subject.summary) return subject;
        return { ...subject, summary, keywords: subjectKeywords({ title: subject.title, summary, headings: subject.headings }) };
      }),
    })),
  };
}

/** What the failure messages name besides the failures. */
export interface SummaryFailureContext {
  endpoint: string;
  model: string;
  /** `kb.summaries.api_key_env`. */
  apiKeyEnv: string;
  /** Whether that variable held a key (an `Authorization` header was sent). */
  keySent: boolean;
  timeoutSeconds: number;
}

/** How many subjects a failure message names before "and N more". */
const NAMED_EXAMPLES = 3;

/**
 * One message per kind of failure, in order of first occurrence: what happened, how many subjects
 * keep their extractive summary (a few named, then a count), and how to fix it. `name` is how the
 * host shows a subject (its file, say).
 */
export function summaryFailureMessages(failures: readonly { failure: SummaryFailure; name: string }[], context: SummaryFailureContext): string[] {
  const groups = new Map<string, { failure: SummaryFailure; names: string[] }>();
  for (const { failure, name } of failures) {
    const key = failure.reason === 'http' ? `http:${failure.status}` : failure.reason === 'network' ? `network:${failure.detail}` : failure.reason;
    const group = groups.get(key) ?? { failure, names: [] };
    group.names.push(name);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ failure, names }) => {
    const { what, fix } = describeFailure(failure, context);
    const shown = names.slice(0, NAMED_EXAMPLES).join(', ');
    const more = names.length > NAMED_EXAMPLES ? ` and ${names.length - NAMED_EXAMPLES} more` : '';
    const count = names.length === 1 ? '1 subject keeps its' : `${names.length} subjects keep their`;
    const stopped = endsSummaryCalls(failure) ? '; no more calls were made' : '';
    return `LLM summaries: ${what}${stopped}. ${count} extractive summary (${shown}${more}). ${fix}`;
  });
}

function describeFailure(failure: SummaryFailure, context: SummaryFailureContext): { what: string; fix: string } {
  const { endpoint, model } = context;
  const format = 'Check kb.summaries.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions).';
  const later = 'The next build asks again for the summaries still missing.';
  switch (failure.reason) {
    case 'http':
      if (failure.status === 401 || failure.status === 403) {
        return context.keySent
          ? { what: `HTTP ${failure.status} from ${endpoint}: the key was refused`, fix: `Check the key in ${context.apiKeyEnv} (the variable kb.summaries.api_key_env names).` }
          : {
              what: `HTTP ${failure.status} from ${endpoint}: no key was sent, ${context.apiKeyEnv} is not set`,
              fix: `Set ${context.apiKeyEnv} to the endpoint's API key (kb.summaries.api_key_env names the variable).`,
            };
      }
      if (failure.status === 404) return { what: `HTTP 404 from ${endpoint}`, fix: `${format} Check kb.summaries.model too ("${model}").` };
      if (failure.status === 429) return { what: `HTTP 429 from ${endpoint} (too many requests)`, fix: `Lower kb.summaries.concurrency. ${later}` };
      if (failure.status >= 400 && failure.status < 500)
        return { what: `HTTP ${failure.status} from ${endpoint}: the request was refused`, fix: `Check kb.summaries.model ("${model}") and kb.summaries.prompt. ${later}` };
      return { what: `HTTP ${failure.status} from ${endpoint}`, fix: later };
    case 'timeout':
      return { what: `no answer from ${endpoint} within ${context.timeoutSeconds} s`, fix: `Raise kb.summaries.timeout_seconds, or lower kb.summaries.concurrency. ${later}` };
    case 'unreachable':
      return { what: `cannot reach ${endpoint} (${failure.detail})`, fix: `Check kb.summaries.endpoint and that the server is running. ${later}` };
    case 'network':
      return { what: `the call to ${endpoint} failed (${failure.detail})`, fix: later };
    case 'not-json':
      return { what: `the answer of ${endpoint} is not JSON (it starts ${JSON.stringify(failure.start)})`, fix: format };
    case 'no-content':
      return { what: `the answer of ${endpoint} has no text at choices[0].message.content`, fix: format };
    case 'empty':
      return { what: `the model "${model}" answered with empty text`, fix: `Check kb.summaries.prompt and kb.summaries.model. ${later}` };
  }
}
