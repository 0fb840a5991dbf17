/**
 * Astro content loaders over the knowledge core: the same subjects the CLI and agents see (never
 * Astro's glob rules, whose hidden marker is `_`). A subject's rendering is kept by a digest of
 * everything it depends on, so an unchanged subject is not rendered again on the next build.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
// Core modules one by one, not the index: Astro transforms every module it loads (see site-data-access.ts).
import type { CatalogSubject } from '../kb/catalog.ts';
import { loadFrontMatterParser, readFrontMatter } from '../kb/title.ts';
import { finishSubjectHtml } from './rendered-html.ts';
import type { SiteData } from './site-data.ts';
import { loadSiteData, resetSiteData } from './site-data-access.ts';
import { heldRenderings, openRenderingCache, type SubjectRendering } from './subject-renderings.ts';

/** Bumped when what the loaders store changes shape: older entries are then rendered again. */
export const LOADER_VERSION = 5;

/** Renders at most this many subjects at once (Shiki's highlighting is asynchronous). */
const RENDER_CONCURRENCY = 8;

const reloaders = new Set<() => Promise<void>>();
let watching = false;
let pending: ReturnType<typeof setTimeout> | undefined;

/**
 * In the dev server, reloads every collection when a topic folder or a config file changes: the
 * knowledge base is read again, then each loader runs.
 */
function reloadOnChange(context: LoaderContext, reload: () => Promise<void>): void {
  const { watcher } = context;
  if (!watcher) return;
  reloaders.add(reload);
  if (watching) return;
  watching = true;
  void loadSiteData().then((data) => {
    watcher.add([...data.catalog.topics.map((t) => t.dir), ...data.kb.config.files, ...data.watch]);
    const folders = [...data.catalog.topics.map((t) => t.dir), ...data.watch].map((dir) => dir + '/');
    // A learnings topic's dir is its store file: a change to the file itself counts too.
    const files = new Set([...data.kb.config.files, ...data.catalog.topics.map((t) => t.dir), ...data.watch]);
    watcher.on('all', (_event, changed) => {
      if (!files.has(changed) && !folders.some((f) => changed.startsWith(f))) return;
      clearTimeout(pending);
      pending = setTimeout(() => {
        resetSiteData();
        void (async () => {
          for (const run of reloaders) await run();
        })().catch((error: unknown) => context.logger.error((error as Error).message));
      }, 100);
    });
  });
}

/** The `subjects` collection: renders every subject a build's pages need (see subject-renderings.ts). */
export function subjectsLoader(): Loader {
  return {
    name: 'syllabus-subjects',
    async load(context) {
      reloadOnChange(context, () => loadSubjects(context));
      await loadSubjects(context);
    },
  };
}

/**
 * Makes the rendering of each subject a page of this build shows available to the pages: from
 * memory when its digest is unchanged, else from the cache's packs, else rendered (and cached).
 * An incremental build needs only the subjects of the pages it builds. Astro's own store stays
 * empty: the renderings never go through its serialisation.
 */
async function loadSubjects(context: LoaderContext): Promise<void> {
  const [data] = await Promise.all([loadSiteData(), loadFrontMatterParser()]);
  const { generateDigest } = context;
  const cache = openRenderingCache(fileURLToPath(new URL('syllabus-renderings/', context.config.cacheDir)));
  const held = heldRenderings();
  const needed = data.only ? new Set(data.routes.subjects.filter((r) => data.only!.pages.has(r.url)).map((r) => `${r.subject.topic}/${r.subject.slug}`)) : undefined;
  const entries = new Map<string, { digest: string; data: { topic: string; slug: string } }>();
  const stale: { id: string; subject: CatalogSubject; digest: string }[] = [];
  const shared = renderInputs(data);
  for (const topic of data.catalog.topics) {
    for (const subject of topic.subjects) {
      const id = `${subject.topic}/${subject.slug}`;
      const digest = generateDigest({ ...shared, file: subject.file, sha256: subject.sha256, title: subject.title, format: subject.format, language: subject.language, skipped: subject.skipped });
      entries.set(id, { digest, data: { topic: subject.topic, slug: subject.slug } });
      if (needed && !needed.has(id)) continue;
      // Compare before rendering: rendering is the cost the digest saves.
      if (held.get(id)?.digest === digest) continue;
      const cached = cache.get(id, digest);
      if (cached) held.set(id, { digest, rendering: cached });
      else stale.push({ id, subject, digest });
    }
  }
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < stale.length) {
      const { id, subject, digest } = stale[next++]!;
      const rendering = await renderSubject(subject, context);
      cache.set(id, { digest, rendering });
      held.set(id, { digest, rendering });
    }
  };
  await Promise.all(Array.from({ length: RENDER_CONCURRENCY }, worker));
  let dropped = 0;
  for (const id of held.keys()) {
    if (!entries.has(id)) {
      held.delete(id);
      dropped++;
    }
  }
  const { store } = context;
  if (context.watcher) {
    // The dev server learns from its store that content changed (and drops its cached routes):
    // it gets an entry per subject, with the digest and without the rendering.
    for (const [id, { digest, data }] of entries) if (store.get(id)?.digest !== digest) store.set({ id, data, digest });
    for (const id of store.keys()) if (!entries.has(id)) store.delete(id);
  } else {
    // A build's pages read the renderings from memory; stores of earlier versions held them.
    store.clear();
  }
  // Packs drop the subjects that are gone; a build of every page also cleans the packs it did not read.
  cache.save(new Set(entries.keys()), needed === undefined && !context.watcher);
  data.renderStats = { rendered: stale.length, unchanged: entries.size - stale.length, dropped };
  context.logger.info(`${stale.length} of ${entries.size} subjects rendered, ${entries.size - stale.length} unchanged, ${dropped} dropped`);
}

/** The `topics` collection: each topic's description, rendered as markdown. */
export function topicsLoader(): Loader {
  return {
    name: 'syllabus-topics',
    async load(context) {
      reloadOnChange(context, () => loadTopics(context));
      await loadTopics(context);
    },
  };
}

async function loadTopics(context: LoaderContext): Promise<void> {
  const data = await loadSiteData();
  const { store, generateDigest } = context;
  const seen = new Set<string>();
  for (const topic of data.catalog.topics) {
    seen.add(topic.id);
    const description = topic.description ?? '';
    const digest = generateDigest({ v: LOADER_VERSION, description, html: data.site.allow_html });
    if (store.get(topic.id)?.digest === digest) continue;
    const rendered = description === '' ? { html: '' } : await context.renderMarkdown(description);
    store.set({ id: topic.id, data: { id: topic.id }, digest, rendered: { html: rendered.html } });
  }
  for (const id of store.keys()) if (!seen.has(id)) store.delete(id);
}

/** What every subject's rendering depends on besides its own content. */
function renderInputs(data: SiteData): Record<string, unknown> {
  // Images link to published files: a file that appears or disappears changes the pages showing it.
  return { v: LOADER_VERSION, base: data.routes.base, html: data.site.allow_html, topics: data.linkTopics, raw: [...data.rawUrls.values()].sort() };
}

/** A markdown text without its front matter block (the lines `readFrontMatter` counts). */
function withoutFrontMatter(text: string): string {
  const { lines } = readFrontMatter(text);
  return lines === 0 ? text : text.split('\n').slice(lines).join('\n');
}

async function renderSubject(subject: CatalogSubject, context: LoaderContext): Promise<SubjectRendering> {
  if (subject.skipped !== null) return { html: '', metadata: { headings: [] } };
  if (subject.format === 'text') return { html: `<pre class="plain-text">${escapeHtml(subject.content)}</pre>`, metadata: { headings: [] } };
  // A code subject's section-4 content is its fenced text: Shiki highlights it in its language.
  // Front matter was read (and any YAML error reported) by the core: only the body is rendered.
  const body = subject.format === 'markdown' ? withoutFrontMatter(subject.content) : subject.content;
  const rendered = await context.renderMarkdown(body, { fileURL: pathToFileURL(subject.file) });
  const headings = (rendered.metadata?.headings ?? []).map(({ depth, slug, text }) => ({ depth, slug, text }));
  const titleFromHeading = subject.format === 'markdown' && typeof subject.frontMatter['title'] !== 'string';
  const finished = finishSubjectHtml(rendered.html, subject.title, titleFromHeading);
  return { html: finished.html, metadata: { headings, titleHtml: finished.titleHtml } };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
