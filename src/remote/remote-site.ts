/**
 * A published Syllabus site as a reader sees it: its catalog, its knowledge files and its subjects,
 * fetched from addresses computed from the site's root (content/reference/site-addresses.md),
 * checked against the endpoint schemas, and subjects verified by their sha256.
 */
import { createHash } from 'node:crypto';
import { addressOf, encodeAddressSegment } from '../kb/subjects/address.ts';
import {
  KeywordsFileSchema,
  KnowledgeFileSchema,
  SiteIndexSchema,
  SubjectFileSchema,
  type KeywordsFile,
  type KnowledgeFile,
  type SiteIndex,
  type SubjectEntry,
  type SubjectFile,
} from '../kb/publish/endpoint-schemas.ts';
import { DEFAULT_TIMEOUT_MS, fetchJson as fetchOverHttp, type fetchJson, RemoteError } from './fetch-json.ts';

/** How long a fetched catalog or knowledge file is reused, by default. */
export const DEFAULT_CACHE_MS = 30_000;

/**
 * The root address of a site from a `--remote` value: an http(s) URL, with a trailing `/` added
 * when missing. A query or fragment is refused: every address is computed from the root.
 */
export function siteRoot(url: string): { ok: true; root: string } | { ok: false; message: string } {
  const example = "Give the address of the site's root, like https://kb.example.com/ or https://example.com/docs/.";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, message: `--remote ${JSON.stringify(url)} is not a URL. ${example}` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, message: `--remote ${JSON.stringify(url)}: only http and https sites can be read. ${example}` };
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    return { ok: false, message: `--remote ${JSON.stringify(url)} has a query or a fragment. ${example}` };
  }
  if (!parsed.pathname.endsWith('/')) parsed.pathname += '/';
  return { ok: true, root: parsed.href };
}

/** Options of {@link openRemoteSite}. */
export interface RemoteSiteOptions {
  /** The time limit of one request, in milliseconds (default 10 s). */
  timeoutMs?: number | undefined;
  /** How long a fetched catalog or knowledge file is reused, in milliseconds (default 30 s; 0: never). */
  cacheMs?: number | undefined;
  /** How an endpoint file is read; default {@link fetchJson} (HTTP). A build folder is read with readBuildFile (build-folder.ts). */
  readJson?: typeof fetchJson | undefined;
}

/** A published site. Every method may throw a {@link RemoteError}. */
export interface RemoteSite {
  /** The site's root address, ending in `/`. */
  readonly root: string;
  /** The address of the catalog, `<root>kb/index.json`. */
  readonly indexUrl: string;
  /** The catalog, `/kb/index.json`. */
  index(): Promise<SiteIndex>;
  /** `/kb/knowledge.json`, or a profile's `/kb/knowledge/<profile>.json`. */
  knowledge(profile?: string): Promise<KnowledgeFile>;
  /** The address of the keywords file, `<root>kb/keywords.json`. */
  readonly keywordsUrl: string;
  /** The keywords of the listed subjects, `/kb/keywords.json`. */
  keywords(): Promise<KeywordsFile>;
  /** The subject with this exact slug, hidden or not, verified; undefined when the site has none. */
  findSubject(topic: string, slug: string): Promise<SubjectFile | undefined>;
  /** A subject the catalog lists, verified against the catalog's sha256. */
  listedSubject(topic: string, entry: SubjectEntry): Promise<SubjectFile>;
  /** Forgets every cached file. */
  clear(): void;
}

/** Opens the site at `root` (see {@link siteRoot}). Nothing is fetched until asked for. */
export function openRemoteSite(root: string, options: RemoteSiteOptions = {}): RemoteSite {
  const fetchOptions = { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS };
  const cacheMs = options.cacheMs ?? DEFAULT_CACHE_MS;
  const fetchJson = options.readJson ?? fetchOverHttp;
  const indexUrl = new URL('kb/index.json', root).href;
  const keywordsUrl = new URL('kb/keywords.json', root).href;
  const cache = new Map<string, { value: Promise<unknown>; expires: number }>();

  /** `load()`'s answer, reused for `cacheMs` after it arrives; a failure is not kept. */
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const hit = cache.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as Promise<T>;
    const entry = { value: load() as Promise<unknown>, expires: Number.POSITIVE_INFINITY };
    cache.set(key, entry);
    entry.value.then(
      () => {
        entry.expires = Date.now() + cacheMs;
      },
      () => {
        if (cache.get(key) === entry) cache.delete(key);
      },
    );
    return entry.value as Promise<T>;
  };

  const notASite = (url: string): RemoteError =>
    new RemoteError(
      `${root} does not look like a Syllabus site: ${url} was not found (HTTP 404). Give --remote the address of the site's root, with its base path if it has one (the address below which kb/index.json is).`,
    );

  const subjectUrl = (topic: string, slug: string): string => new URL(`kb/subjects/${topic}/${addressOf(slug)}.json`, root).href;

  const fetchSubject = async (topic: string, slug: string): Promise<{ url: string; subject: SubjectFile | undefined }> => {
    const url = subjectUrl(topic, slug);
    const fetched = await fetchJson(url, SubjectFileSchema, 'subject file', fetchOptions);
    if (!fetched.found) return { url, subject: undefined };
    const subject = fetched.value;
    if (subject.topic !== topic || subject.slug !== slug) {
      throw new RemoteError(
        `${url} holds the subject ${JSON.stringify(`${subject.topic}/${subject.slug}`)}, not ${JSON.stringify(`${topic}/${slug}`)}. The site's files do not agree; rebuild and republish it.`,
      );
    }
    const actual = createHash('sha256').update(subject.content, 'utf8').digest('hex');
    if (actual !== subject.sha256) {
      throw new RemoteError(
        `${url}: the content does not match its sha256 (${subject.sha256}; the content's is ${actual}). The file was changed or damaged after the build; rebuild and republish the site.`,
      );
    }
    return { url, subject };
  };

  return {
    root,
    indexUrl,
    index: () =>
      cached('index', async () => {
        const fetched = await fetchJson(indexUrl, SiteIndexSchema, 'catalog', fetchOptions);
        if (!fetched.found) throw notASite(indexUrl);
        return fetched.value;
      }),
    knowledge: (profile) =>
      cached(`knowledge:${profile ?? ''}`, async () => {
        const path = profile === undefined ? 'kb/knowledge.json' : `kb/knowledge/${encodeAddressSegment(profile)}.json`;
        const url = new URL(path, root).href;
        const fetched = await fetchJson(url, KnowledgeFileSchema, 'knowledge file', fetchOptions);
        if (fetched.found) return fetched.value;
        if (profile === undefined) throw notASite(url);
        throw new RemoteError(
          `${url} was not found (HTTP 404), but the catalog (${indexUrl}) names the profile ${JSON.stringify(profile)}. The upload is incomplete or mixes builds; republish the whole site.`,
        );
      }),
    keywordsUrl,
    keywords: () =>
      cached('keywords', async () => {
        const fetched = await fetchJson(keywordsUrl, KeywordsFileSchema, 'keywords file', fetchOptions);
        if (fetched.found) return fetched.value;
        throw new RemoteError(
          `${keywordsUrl} was not found (HTTP 404): the site was built by a syllabus without find, or its upload is incomplete. Rebuild and republish the site with this syllabus.`,
        );
      }),
    findSubject: async (topic, slug) => (await fetchSubject(topic, slug)).subject,
    listedSubject: async (topic, entry) => {
      const { url, subject } = await fetchSubject(topic, entry.slug);
      if (!subject) {
        throw new RemoteError(
          `${url} was not found (HTTP 404), but the catalog (${indexUrl}) lists the subject. The upload is incomplete or mixes builds; republish the whole site.`,
        );
      }
      if (subject.sha256 !== entry.sha256) {
        throw new RemoteError(
          `${url} has sha256 ${subject.sha256}, but the catalog (${indexUrl}) lists ${entry.sha256}. The site's files come from different builds (a partial upload, or a cache still serving old files); republish the whole site, or try again later.`,
        );
      }
      return subject;
    },
    clear: () => cache.clear(),
  };
}
