/**
 * `syllabus-kb/loader`: a content loader that fills an Astro site's own collection with the listed
 * subjects of a knowledge base (hidden and disabled ones never), each rendered as Syllabus renders
 * it (sanitised, with its links to other subjects leading to their pages under `base`).
 *
 * ```ts
 * // src/content.config.ts
 * import { defineCollection } from 'astro:content';
 * import { syllabusLoader } from 'syllabus-kb/loader';
 * export const collections = { knowledge: defineCollection({ loader: syllabusLoader({ config: './kb.toml' }) }) };
 * ```
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Loader, LoaderContext } from 'astro/loaders';
import { z } from 'astro/zod';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { openLiveSite, type LiveSite } from '../build/live-site.ts';
import { renderContextOf, renderingDigest, renderingId, sharedDigestInput } from '../build/render/render-subjects.ts';
import { isOutside } from '../kb/files/paths.ts';

/** Options of {@link syllabusLoader}. */
export interface SyllabusLoaderOptions {
  /** The knowledge base's config file, or several, relative to the Astro project's folder. Default: `content/kb.toml`. */
  config?: string | readonly string[];
  /**
   * Where the subjects' pages are, below the site's base: links between subjects lead there, and
   * each entry's `url` is there. Default `/knowledge`, where the `syllabus-kb/astro` integration puts them.
   */
  base?: string;
}

/** Bumped when an entry's shape changes: entries of an older shape are made again. */
const ENTRY_VERSION = 1;

/** The data of each entry: a listed subject, as agents and the site see it. */
export const subjectEntrySchema = z.object({
  /** The topic's id and title. */
  topic: z.string(),
  topicTitle: z.string(),
  /** The subject's slug within its topic, and its path there as on disk. */
  slug: z.string(),
  path: z.string(),
  title: z.string(),
  /** One paragraph: the front matter `description`, else the first paragraph (or the LLM summary). */
  summary: z.string(),
  format: z.enum(['markdown', 'text', 'code']),
  /** The fence language of a code subject. */
  language: z.string().nullable(),
  /** Pre-loaded into the agents' `<knowledge>` section. */
  learned: z.boolean(),
  /** Why the content is not shown (a binary file, a file too large, …), or null. */
  skipped: z.string().nullable(),
  tokens: z.number(),
  sha256: z.string(),
  /** The subject's page, and its markdown twin (exactly what the `learn` tool returns). */
  url: z.string(),
  markdownUrl: z.string(),
});

/** The loader; see the module comment. */
export function syllabusLoader(options: SyllabusLoaderOptions = {}): Loader {
  const configs = typeof options.config === 'string' ? [options.config] : [...(options.config ?? ['content/kb.toml'])];
  let live: LiveSite | undefined;
  let watching = false;
  return {
    name: 'syllabus-kb',
    schema: subjectEntrySchema,
    async load(context) {
      const root = fileURLToPath(context.config.root);
      if (!live) {
        const files = configs.map((file) => path.resolve(root, file));
        const base = `${context.config.base.replace(/\/+$/, '')}/${(options.base ?? '/knowledge').replace(/^\/+/, '')}`;
        live = openLiveSite({ configFiles: files, cache: cacheFolder(defaultCacheDir(files[0]!)), base, cwd: root });
      }
      await fillCollection(context, live, root);
      if (context.watcher && !watching) {
        watching = true;
        const site = live;
        const watched = await site.watched();
        context.watcher.add(watched);
        context.watcher.on('all', (_event, changed) => {
          if (!watched.some((w) => changed === w || changed.startsWith(w + path.sep))) return;
          void site
            .reread()
            .then(() => fillCollection(context, site, root))
            .catch((error: unknown) => context.logger.error((error as Error).message));
        });
      }
    },
  };
}

/** Puts every listed subject in the collection, rendering only those whose digest changed; removes the others. */
async function fillCollection(context: LoaderContext, live: LiveSite, root: string): Promise<void> {
  const data = await live.site();
  const { store } = context;
  const shared = sharedDigestInput(renderContextOf(data));
  const seen = new Set<string>();
  for (const route of data.routes.subjects) {
    const { subject } = route;
    if (subject.hidden) continue;
    const id = renderingId(subject);
    seen.add(id);
    const entry = {
      topic: subject.topic,
      topicTitle: route.breadcrumbs[0]!.label,
      slug: subject.slug,
      path: subject.path,
      title: subject.title,
      summary: subject.summary,
      format: subject.format,
      language: subject.language,
      learned: subject.learned,
      skipped: subject.skipped,
      tokens: subject.tokens,
      sha256: subject.sha256,
      url: route.url,
      markdownUrl: route.markdownUrl,
    };
    // The entry's data, and everything its rendering is made from.
    const digest = context.generateDigest({ v: ENTRY_VERSION, entry, rendering: renderingDigest(subject, shared) });
    if (store.get(id)?.digest === digest) continue;
    const rendering = await live.rendering(id);
    // Astro keeps a file path only inside the project.
    const filePath = isOutside(root, subject.file) ? undefined : path.relative(root, subject.file);
    store.set({
      id,
      data: await context.parseData({ id, data: entry, ...(filePath ? { filePath } : {}) }),
      body: subject.content,
      digest,
      ...(filePath ? { filePath } : {}),
      rendered: { html: rendering?.html ?? '', metadata: { headings: rendering?.metadata.headings ?? [] } },
    });
  }
  for (const id of store.keys()) if (!seen.has(id)) store.delete(id);
}
