/**
 * LLM summaries on disk and over the network (`[kb.summaries]` in content/reference/configuration.md).
 * The build asks the endpoint for the summaries its cache lacks and keeps them in the cache's
 * `llmSummaries` file; every other host (`find`, the agent server, the dev server) reads that file
 * only, so that it ranks and shows what the site published, and never calls the model.
 */
import fs from 'node:fs';
import { readCacheEntries, writeCacheEntries } from '../kb/files/cache-file.ts';
import type { Catalog } from '../kb/catalog/catalog.ts';
import type { SummariesConfig } from '../kb/config/schema.ts';
import {
  type SummaryAnswer,
  type SummaryCandidate,
  type SummaryFailure,
  applySummaries,
  buildSummaryRequest,
  endsSummaryCalls,
  llmSummaryCandidates,
  parseSummaryResponse,
  summaryFailureMessages,
} from '../kb/catalog/llm-summary.ts';
import { settleBounded } from '../net/bounded-calls.ts';
import { fetchBounded } from '../net/fetch-bounded.ts';
import { fetchFailureOf } from '../net/fetch-failure.ts';

/** The version of the file's format and of what its summaries are made from (the request, the normalising). */
const VERSION = 1;

/** The summaries of the cache file `file` by key; an absent, damaged or other-version file gives none. */
export function loadLlmSummaries(file: string): Map<string, string> {
  return readCacheEntries(file, VERSION, (value): value is string => typeof value === 'string');
}

/** A text that changes whenever the summaries of `file` do (a build wrote them): the file's time and size. */
export function llmSummariesStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.mtimeMs}:${stat.size}`;
  } catch {
    return 'none';
  }
}

/** Writes `entries` as the summaries of `file`, replacing it in one rename. */
export function saveLlmSummaries(file: string, entries: ReadonlyMap<string, string>): void {
  writeCacheEntries(file, VERSION, entries);
}

/** `catalog` with the summaries the cache file `file` holds (no call is made); as it is without `[kb.summaries]`. */
export function withCachedSummaries(catalog: Catalog, settings: SummariesConfig | undefined, file: string): Catalog {
  return settings ? applySummaries(catalog, settings, loadLlmSummaries(file)) : catalog;
}

/** What a build's summary step did. */
export interface SummaryReport {
  model: string;
  /** Subjects summarised by calls of this run. */
  written: number;
  /** Subjects whose summary came from the cache. */
  cached: number;
  /** Subjects left with their extractive summary because a call failed or was not made. */
  failed: number;
  /** One message per kind of failure (see `summaryFailureMessages`). */
  warnings: string[];
  /** How long the step took, in milliseconds. */
  ms: number;
}

/** Options of {@link summarizeCatalog}. */
export interface SummarizeOptions {
  /** The cache's summaries file (`CacheFolder.llmSummaries`). */
  file: string;
  env: Readonly<Record<string, string | undefined>>;
  /** How a subject is named in warnings (default: its absolute file). */
  nameOf?: (file: string) => string;
}

/**
 * The build's summary step: summaries from the cache where it has them, from the endpoint for the
 * others (one call per distinct key, at most `concurrency` in flight), the extractive summary
 * where a call fails. The cache then holds the summaries of this run only, written even when some
 * calls failed, so that the next build asks for the missing ones alone.
 */
export async function summarizeCatalog(catalog: Catalog, settings: SummariesConfig, options: SummarizeOptions): Promise<{ catalog: Catalog; report: SummaryReport }> {
  const started = performance.now();
  const known = loadLlmSummaries(options.file);
  const used = new Map<string, string>();
  const missing = new Map<string, SummaryCandidate[]>();
  let cached = 0;
  for (const candidate of llmSummaryCandidates(catalog, settings)) {
    const summary = known.get(candidate.key);
    if (summary !== undefined) {
      used.set(candidate.key, summary);
      cached++;
    } else {
      missing.set(candidate.key, [...(missing.get(candidate.key) ?? []), candidate]);
    }
  }

  const key = options.env[settings.api_key_env] || undefined;
  const groups = [...missing.values()];
  const answers = await settleBounded(
    groups,
    settings.concurrency,
    (group) => requestSummary(group[0]!, settings, key),
    (answer) => !answer.ok && endsSummaryCalls(answer.failure),
  );
  let written = 0;
  const failures: { failure: SummaryFailure; name: string }[] = [];
  const nameOf = options.nameOf ?? ((file: string) => file);
  groups.forEach((group, index) => {
    const answer = answers[index]!;
    if (answer.ok) {
      used.set(group[0]!.key, answer.summary);
      written += group.length;
    } else {
      for (const { subject } of group) failures.push({ failure: answer.failure, name: nameOf(subject.file) });
    }
  });
  if (used.size !== known.size || written > 0) saveLlmSummaries(options.file, used);
  const warnings = summaryFailureMessages(failures, {
    endpoint: settings.endpoint,
    model: settings.model,
    apiKeyEnv: settings.api_key_env,
    keySent: key !== undefined,
    timeoutSeconds: settings.timeout_seconds,
  });
  return {
    catalog: applySummaries(catalog, settings, used),
    report: { model: settings.model, written, cached, failed: failures.length, warnings, ms: performance.now() - started },
  };
}

/** The build's phase line of a summary step (after the phase name). */
export function summaryPhaseText(report: SummaryReport): string {
  const failed = report.failed > 0 ? `, ${report.failed} failed (extractive summaries used)` : '';
  return `${report.written} written by ${report.model}, ${report.cached} from cache${failed}`;
}

/**
 * Asks the endpoint for the summary of one subject. Never throws: HTTP errors, timeouts and
 * network failures are failures with their reason. A connection that drops before any answer (a
 * kept-alive one the server closed) is tried once more. Without a key (the variable unset or
 * empty), no `Authorization` header is sent, as local servers expect.
 */
async function requestSummary(candidate: SummaryCandidate, settings: SummariesConfig, key: string | undefined): Promise<SummaryAnswer> {
  const answer = await callOnce(candidate, settings, key);
  return !answer.ok && answer.failure.reason === 'network' ? callOnce(candidate, settings, key) : answer;
}

async function callOnce(candidate: SummaryCandidate, settings: SummariesConfig, key: string | undefined): Promise<SummaryAnswer> {
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: buildSummaryRequest(candidate.subject, settings),
    redirect: 'error',
  };
  const answer = await fetchBounded(settings.endpoint, init, { timeoutMs: settings.timeout_seconds * 1000 });
  if (answer.kind === 'network') return { ok: false, failure: fetchFailureOf(answer.error) };
  // Without a size limit, the only other failure is the time limit.
  if (answer.kind !== 'response') return { ok: false, failure: { reason: 'timeout' } };
  if (answer.status < 200 || answer.status > 299) return { ok: false, failure: { reason: 'http', status: answer.status } };
  return parseSummaryResponse(answer.body);
}
