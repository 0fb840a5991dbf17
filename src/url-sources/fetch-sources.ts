/**
 * The build's step for URL sources (content/reference/configuration.md, `[kb.sources]`): fetch
 * every URL the enabled topics' `links.txt` files list, revalidating cached copies, convert what
 * changed, keep it in the cache, and hand the knowledge base one document per URL. A failure is
 * reported and the cached copy, if any, stands in.
 */
import type { SyllabusConfig } from '../kb/config/merge.ts';
import type { Diagnostic } from '../kb/diagnostics/diagnostics.ts';
import { loadMarkdownParser } from '../kb/markdown/parser.ts';
import { listTopicLinks } from '../kb/url-sources/links-file.ts';
import type { SourceDocument } from '../kb/url-sources/document.ts';
import { mapBounded } from '../net/bounded-calls.ts';
import { loadHtmlConverter } from './html-to-markdown.ts';
import { convertBody, SOURCE_CONVERSION_VERSION } from './source-body.ts';
import { documentOf, readCachedSource, writeCachedSource, type CachedSource } from './source-cache.ts';
import { fetchUrl, type FetchProblem } from './url-fetch.ts';

/** Options of {@link fetchSources}. */
export interface FetchSourcesOptions {
  /** The build cache's sources folder (`CacheFolder.sources`). */
  dir: string;
  /** The User-Agent header: `Syllabus/<version> (+<site url>)`. */
  userAgent: string;
  /** The clock, for fetch dates. Default: now. */
  now?: () => Date;
}

/** What the build's sources step did. */
export interface FetchedSources {
  documents: Map<string, SourceDocument>;
  /** A `source-failed` warning for every listing of a URL that could not be fetched. */
  diagnostics: Diagnostic[];
  counts: {
    /** Distinct URLs listed. */
    urls: number;
    /** Downloaded (new, changed, or not revalidatable). */
    fetched: number;
    /** A 304 answer: the cached copy is current. */
    notModified: number;
    failed: number;
    /** Failed ones whose cached copy was used instead. */
    failedWithCopy: number;
  };
}

/** The outcome for one URL. */
type UrlOutcome = { kind: 'fetched' | 'not-modified'; entry: CachedSource } | { kind: 'failed'; detail: FetchProblem; cached: CachedSource | undefined };

/**
 * Fetches the URL sources of `config` with `[kb.sources]`'s timeout, size bound, concurrency and
 * address rule. A copy whose conversion is current is revalidated (If-None-Match /
 * If-Modified-Since; a 304 keeps it); a fetched page is converted and written to the cache.
 * Never throws for a failed fetch: it becomes a warning naming each `links.txt` line that lists
 * the URL, what happened and how to fix it, and whether the cached copy was used.
 */
export async function fetchSources(config: SyllabusConfig, options: FetchSourcesOptions): Promise<FetchedSources> {
  const listed = listTopicLinks(config);
  const urls = [...new Set(listed.flatMap((t) => t.links.map((l) => l.url)))];
  const settings = config.kb.sources;
  if (urls.length > 0) await Promise.all([loadHtmlConverter(), loadMarkdownParser()]);
  const now = options.now ?? (() => new Date());
  const outcomes = await mapBounded(urls, settings.concurrency, async (url): Promise<UrlOutcome> => {
    const cached = readCachedSource(options.dir, url);
    const revalidate = cached?.conversion === SOURCE_CONVERSION_VERSION;
    const fetched = await fetchUrl(url, {
      timeoutMs: settings.timeout_seconds * 1000,
      maxBytes: settings.max_bytes,
      allowPrivate: settings.allow_private,
      userAgent: options.userAgent,
      etag: revalidate ? cached.etag : undefined,
      lastModified: revalidate ? cached.lastModified : undefined,
    });
    if (fetched.kind === 'failed') return { kind: 'failed', detail: fetched, cached };
    if (fetched.kind === 'not-modified') return { kind: 'not-modified', entry: cached! };
    const converted = convertBody(fetched.body, fetched.contentType, fetched.url);
    if (!converted.ok) return { kind: 'failed', detail: converted, cached };
    const bytes = Buffer.byteLength(converted.content);
    if (bytes > config.kb.max_subject_bytes) {
      const detail = {
        problem: `its content is ${bytes} bytes once converted, over kb.max_subject_bytes (${config.kb.max_subject_bytes})`,
        fix: 'List a smaller page, or raise max_subject_bytes in [kb].',
      };
      return { kind: 'failed', detail, cached };
    }
    const same = cached !== undefined && cached.content === converted.content && cached.format === converted.format;
    const entry = writeCachedSource(options.dir, {
      url,
      finalUrl: fetched.url,
      fetchedAt: same ? cached.fetchedAt : now().toISOString(),
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      contentType: fetched.contentType,
      conversion: SOURCE_CONVERSION_VERSION,
      format: converted.format,
      content: converted.content,
    });
    return { kind: 'fetched', entry };
  });

  const byUrl = new Map(urls.map((url, index) => [url, outcomes[index]!]));
  const documents = new Map<string, SourceDocument>();
  const counts = { urls: urls.length, fetched: 0, notModified: 0, failed: 0, failedWithCopy: 0 };
  for (const [url, outcome] of byUrl) {
    let entry: CachedSource | undefined;
    if (outcome.kind === 'failed') {
      counts.failed++;
      if (outcome.cached) counts.failedWithCopy++;
      entry = outcome.cached;
    } else {
      if (outcome.kind === 'fetched') counts.fetched++;
      else counts.notModified++;
      entry = outcome.entry;
    }
    if (entry) documents.set(url, documentOf(entry));
  }
  const diagnostics: Diagnostic[] = [];
  for (const topic of listed) {
    for (const link of topic.links) {
      const outcome = byUrl.get(link.url)!;
      if (outcome.kind !== 'failed') continue;
      const { cached, detail } = outcome;
      const after = cached
        ? `The build goes on with the copy fetched ${cached.fetchedAt}.`
        : `The build goes on without it: topic "${topic.topic}" has no subject for it until a fetch succeeds.`;
      diagnostics.push({
        kind: 'warning',
        code: 'source-failed',
        message: `${link.url} could not be fetched: ${detail.problem}. ${after} ${detail.fix}`,
        file: topic.file,
        line: link.line,
      });
    }
  }
  return { documents, diagnostics, counts };
}

/** The build's phase text for sources: `12 URLs: 3 fetched, 8 not modified, 1 failed (cached copy used)`. */
export function describeFetchedSources(counts: FetchedSources['counts']): string {
  const { urls, fetched, notModified, failed, failedWithCopy } = counts;
  let text = `${urls} ${urls === 1 ? 'URL' : 'URLs'}: ${fetched} fetched, ${notModified} not modified, ${failed} failed`;
  if (failed > 0) {
    if (failedWithCopy === failed) text += failed === 1 ? ' (cached copy used)' : ' (cached copies used)';
    else if (failedWithCopy === 0) text += failed === 1 ? ' (no cached copy)' : ' (no cached copies)';
    else text += ` (${failedWithCopy} cached ${failedWithCopy === 1 ? 'copy' : 'copies'} used)`;
  }
  return text;
}
