/**
 * The build's render stage: every subject a build's pages show, rendered once and kept in the
 * cache by a digest of everything its rendering depends on, so that an unchanged subject is not
 * rendered again; and each topic's description.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pLimit from 'p-limit';
import type { CatalogSubject } from '../../kb/catalog/catalog.ts';
import { loadFrontMatterParser, readFrontMatter, subjectTitleOf } from '../../kb/catalog/title.ts';
import { isMdxPath, unfenceText } from '../../kb/subjects/format.ts';
import { outputPackageVersions } from '../package-info.ts';
import type { SiteData } from '../site-data.ts';
import type { RenderContext } from './markdown-plugins.ts';
import type { MarkdownRenderer } from './markdown-renderer.ts';
import { finishSubjectHtml } from './rendered-html.ts';
import type { RenderingCache, SubjectRendering } from './rendering-cache.ts';
import { renderInWorkers, SUBJECTS_PER_WORKER } from './render-threads.ts';

/** Bumped when the renderings change for the same inputs: older cached ones are then rendered again. */
export const RENDER_VERSION = 9;

/** Renders at most this many subjects at once (Shiki's highlighting is asynchronous). */
const RENDER_CONCURRENCY = 8;

/**
 * A build with at most this many subjects to render renders them in its own thread: a worker's
 * start costs more than the memory they keep (render-threads.ts).
 */
export const IN_PROCESS_SUBJECTS = 1000;

/** The rendering inputs of a site: what every subject's rendering depends on besides its own content. */
export function renderContextOf(data: SiteData): RenderContext {
  return { allowHtml: data.site.allow_html, base: data.routes.base, linkTopics: data.linkTopics, byFile: data.byFile, rawUrls: data.rawUrls };
}

/** The id of a subject's rendering: `<topic>/<slug>`. */
export function renderingId(subject: Pick<CatalogSubject, 'topic' | 'slug'>): string {
  return `${subject.topic}/${subject.slug}`;
}

/**
 * The digest of everything `subject`'s rendering is made from; `shared` is {@link sharedDigestInput}
 * of its site, computed once per site.
 */
export function renderingDigest(subject: CatalogSubject, shared: string): string {
  const own = [subject.file, subject.sha256, subject.title, subject.format, subject.language, subject.skipped];
  return createHash('sha1').update(shared).update(JSON.stringify(own)).digest('hex');
}

/** The part of every rendering's digest that the site as a whole decides. */
export function sharedDigestInput(context: RenderContext): string {
  // Images link to published files: a file that appears or disappears changes the pages showing it.
  return JSON.stringify([RENDER_VERSION, outputPackageVersions(), context.base, context.allowHtml, context.linkTopics, [...context.rawUrls.values()].sort()]);
}

/**
 * A markdown text without its first `lines` lines (its front matter block); `blank` keeps an empty
 * line for each, so that lines stay the file's.
 */
function withoutFrontMatter(text: string, lines: number, blank = false): string {
  if (lines === 0) return text;
  const body = text.split('\n').slice(lines).join('\n');
  return blank ? '\n'.repeat(lines) + body : body;
}

/** Renders one subject for its page. */
export async function renderSubject(subject: CatalogSubject, renderer: MarkdownRenderer): Promise<SubjectRendering> {
  if (subject.skipped !== null) return { html: '', metadata: { headings: [] } };
  if (subject.format === 'text') return { html: `<pre class="plain-text">${escapeHtml(subject.content)}</pre>`, metadata: { headings: [] } };
  if (subject.format === 'code') {
    // A code subject's content is its fenced text (content/reference/subject-formats.md, "Fenced"): one block, highlighted in its language.
    const finished = finishSubjectHtml(await renderer.highlight(unfenceText(subject.content), subject.language ?? ''), subject.title, false);
    return { html: finished.html, metadata: { headings: [], titleHtml: finished.titleHtml } };
  }
  await loadFrontMatterParser();
  // Front matter was read (and any YAML error reported) by the core: only the body is rendered.
  const frontMatter = readFrontMatter(subject.content);
  // MDX that does not parse is rendered as markdown; `check` reports why (content/reference/diagnostics.md).
  const rendered = isMdxPath(subject.path)
    ? await renderer.renderMdx(withoutFrontMatter(subject.content, frontMatter.lines, true), pathToFileURL(subject.file))
    : await renderer.render(withoutFrontMatter(subject.content, frontMatter.lines), pathToFileURL(subject.file));
  // Only a title read from the document's own `# ` heading replaces that heading on the page.
  const fromHeading = subjectTitleOf(subject.slug, true, subject.content, frontMatter).source === 'heading';
  const finished = finishSubjectHtml(rendered.html, subject.title, fromHeading);
  const needs = rendered.needs ? { needs: rendered.needs } : {};
  return { html: finished.html, metadata: { headings: rendered.headings, titleHtml: finished.titleHtml, ...needs } };
}

/** What the render stage did. */
export interface RenderStats {
  /** Subjects rendered by this run. */
  rendered: number;
  /** Subjects whose rendering came from the cache, or that this build's pages do not show. */
  unchanged: number;
}

/** Options of {@link renderSubjects}. */
export interface RenderSubjectsOptions {
  renderer: MarkdownRenderer;
  cache: RenderingCache;
  /** The ids of the subjects whose pages are built; default: every subject. */
  needed?: ReadonlySet<string> | undefined;
  /** The render context `renderer` renders with (worker threads render with it too). */
  context: RenderContext;
  /** Render in this process when at most this many subjects are to be rendered (default {@link IN_PROCESS_SUBJECTS}); more go to worker threads. */
  inProcess?: number | undefined;
  /** Subjects per worker thread (default {@link SUBJECTS_PER_WORKER}). */
  perWorker?: number | undefined;
  /** Called after each subject rendered anew, with how many are done and how many there are to render. */
  onRendered?: ((done: number, total: number) => void) | undefined;
  /** Subjects are rendered in increasing rank, subjects of equal rank in the catalog's order (default: the catalog's order). */
  rank?: ((subject: CatalogSubject) => number) | undefined;
  /** Stops the stage: its worker threads end, and it fails (a build that stopped before its pages). */
  signal?: AbortSignal | undefined;
}

/** The renderings of a build's subjects, each given as soon as it is made (see {@link startRenderSubjects}). */
export interface SubjectRenderings {
  /**
   * The rendering of subject `id` once it is made; undefined when the build renders no such
   * subject. Rejects with the stage's failure when it fails first.
   */
  get(id: string): Promise<SubjectRendering | undefined>;
  /** What the stage did, once every subject is rendered and the cache saved; rejects with the first failure. */
  done: Promise<RenderStats>;
}

/**
 * Starts rendering the subjects of `data` that the build's pages show: from the cache when their
 * digest is unchanged, else anew (and kept in the cache). Each rendering can be asked for at once
 * and comes when it is made, so that the pages are made while the subjects are rendered. The
 * cache's packs drop the subjects that are gone; a build of every page also cleans the packs it
 * did not read.
 */
export function startRenderSubjects(data: SiteData, options: RenderSubjectsOptions): SubjectRenderings {
  const { cache, needed } = options;
  const shared = sharedDigestInput(renderContextOf(data));
  const made = new Map<string, SubjectRendering>();
  const waiting = new Map<string, { promise: Promise<SubjectRendering>; resolve: (rendering: SubjectRendering) => void; reject: (error: unknown) => void }>();
  const stale: { id: string; subject: CatalogSubject; digest: string }[] = [];
  const ids = new Set<string>();
  for (const topic of data.catalog.topics) {
    for (const subject of topic.subjects) {
      const id = renderingId(subject);
      ids.add(id);
      if (needed && !needed.has(id)) continue;
      const digest = renderingDigest(subject, shared);
      const cached = cache.get(id, digest);
      if (cached) made.set(id, cached);
      else {
        stale.push({ id, subject, digest });
        const pending = Promise.withResolvers<SubjectRendering>();
        // Asked for or not, a failure is the stage's, reported by `done`.
        pending.promise.catch(() => undefined);
        waiting.set(id, pending);
      }
    }
  }
  const { rank } = options;
  if (rank) stale.sort((a, b) => rank(a.subject) - rank(b.subject));
  let count = 0;
  const keep = ({ id, digest }: { id: string; digest: string }, rendering: SubjectRendering): void => {
    cache.set(id, { digest, rendering });
    made.set(id, rendering);
    waiting.get(id)?.resolve(rendering);
    waiting.delete(id);
    options.onRendered?.(++count, stale.length);
  };
  const render = async (): Promise<RenderStats> => {
    const perWorker = options.perWorker ?? SUBJECTS_PER_WORKER;
    if (stale.length > (options.inProcess ?? IN_PROCESS_SUBJECTS)) {
      // Many subjects: in worker threads, so that Sätteri's memory goes with each worker (render-threads.ts).
      const bySubject = new Map(stale.map((entry) => [entry.subject, entry]));
      await renderInWorkers(
        stale.map((entry) => entry.subject),
        options.context,
        (subject, rendering) => keep(bySubject.get(subject)!, rendering),
        perWorker,
        options.signal,
      );
    } else {
      const limited = pLimit(RENDER_CONCURRENCY);
      await Promise.all(stale.map((entry) => limited(async () => keep(entry, await renderSubject(entry.subject, options.renderer)))));
    }
    cache.save(ids, needed === undefined);
    return { rendered: stale.length, unchanged: ids.size - stale.length };
  };
  const done = render();
  // The renderings still waited for fail with the stage, and stay failed for a page that asks later.
  done.catch((error: unknown) => {
    for (const pending of waiting.values()) pending.reject(error);
  });
  return {
    get: async (id) => made.get(id) ?? waiting.get(id)?.promise,
    done,
  };
}

/** Renders the subjects of `data` that the build's pages show, as {@link startRenderSubjects} does, and gives them all at once. */
export async function renderSubjects(data: SiteData, options: RenderSubjectsOptions): Promise<{ renderings: Map<string, SubjectRendering>; stats: RenderStats }> {
  const started = startRenderSubjects(data, options);
  const stats = await started.done;
  const renderings = new Map<string, SubjectRendering>();
  for (const topic of data.catalog.topics) {
    for (const subject of topic.subjects) {
      const id = renderingId(subject);
      const rendering = await started.get(id);
      if (rendering) renderings.set(id, rendering);
    }
  }
  return { renderings, stats };
}

/** Each topic's description, rendered as markdown (empty for a topic without one). */
export async function renderTopicDescriptions(data: SiteData, renderer: MarkdownRenderer): Promise<Map<string, string>> {
  const described = await Promise.all(data.catalog.topics.map(async (topic) => [topic.id, topic.description ? (await renderer.render(topic.description)).html : ''] as const));
  return new Map(described);
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
