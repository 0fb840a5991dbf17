/**
 * The search index (Pagefind), in shards: each listed page belongs to one shard by a hash of its
 * URL, and a build indexes again only the shards whose pages' searchable content changed. The
 * search page merges the shards (`pagefind.mergeIndex`), listed in `pagefind/shards.json`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { shardOf } from '../kb/publish/shard.ts';
import { isOutside } from '../kb/files/paths.ts';
import { BuildError } from './build-error.ts';
import { replaceFolder } from './output-folder.ts';
import type { SiteData } from './site-data.ts';

/** Pages per shard, unless the build says otherwise (`BuildOptions.searchShardPages`). */
export const PAGES_PER_SHARD = 1000;

/** What the last build indexed: the number of shards and a key per indexed page (URL below the base). */
export interface SearchManifest {
  shards: number;
  pages: Record<string, string>;
}

/** The indexed pages of a site, each with a key of what the index holds of it. */
export function searchKeysOf(data: SiteData): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const route of data.routes.subjects) {
    const s = route.subject;
    // Hidden subjects and files without text are never searchable (content/guide/the-site.md, issue 3).
    if (s.hidden || s.skipped !== null) continue;
    const topic = route.breadcrumbs[0]!.label;
    keys[route.url.slice(data.routes.base.length - 1)] = createHash('sha1')
      .update(JSON.stringify([s.sha256, s.title, topic, s.format, s.language]))
      .digest('hex');
  }
  return keys;
}

/** How many shards `pages` pages need, at most `perShard` pages each. */
export function shardCount(pages: number, perShard = PAGES_PER_SHARD): number {
  return Math.max(1, Math.ceil(pages / (perShard > 0 ? perShard : PAGES_PER_SHARD)));
}

/** A search index being written; see {@link startSearchIndex}. */
export interface SearchIndexing {
  /**
   * Adds the pages that were still being built, writes the shards that changed and the list of
   * shards; returns the manifest to keep, how many pages the index holds, and how many shards
   * were written.
   */
  finish(): Promise<{ manifest: SearchManifest; pages: number; written: number; cleanup: Promise<void> }>;
  /** Stops indexing and writes nothing (the build failed). */
  abort(): Promise<void>;
}

/** Options of {@link startSearchIndex}. */
export interface SearchIndexOptions {
  /** The built site, whose `pagefind/` folder holds the index. */
  dir: string;
  /** The pages to index (URLs below the base, as `searchKeysOf` gives them) and their keys. */
  keys: Record<string, string>;
  /** What the index in `dir` holds now, when a previous build wrote it. */
  previous?: SearchManifest | undefined;
  /** Pages still being built (URLs below the base), or `'all'`. */
  pending: ReadonlySet<string> | 'all';
  /** Pages per shard (default {@link PAGES_PER_SHARD}). */
  perShard?: number | undefined;
  /** Called whenever Pagefind has taken a page: how many so far, and how many this run indexes. */
  onPage?: ((indexed: number, total: number) => void) | undefined;
}

/**
 * Starts the search index of the pages of `dir`, to index again only the shards that changed since
 * `previous`. The pages of those shards that are final in `dir` already are sent to Pagefind at
 * once, so that it indexes them while the `pending` pages are still being built; the rest go at
 * {@link SearchIndexing.finish}.
 */
export async function startSearchIndex(options: SearchIndexOptions): Promise<SearchIndexing> {
  const { dir, keys, previous, pending } = options;
  const urls = Object.keys(keys).sort();
  const shards = shardCount(urls.length, options.perShard);
  const members: string[][] = Array.from({ length: shards }, () => []);
  for (const url of urls) members[shardOf(url, shards)]!.push(url);
  const root = path.join(dir, 'pagefind');
  const stale = new Set<number>();
  if (!previous || previous.shards !== shards || !fs.existsSync(path.join(root, 'shards.json'))) {
    members.forEach((_, i) => stale.add(i));
  } else {
    for (const url of new Set([...urls, ...Object.keys(previous.pages)])) {
      if (keys[url] !== previous.pages[url]) stale.add(shardOf(url, shards));
    }
  }
  const cleanups: Promise<void>[] = [];
  if (!previous || previous.shards !== shards) {
    // A new layout: whatever index was there goes.
    if (fs.existsSync(root)) cleanups.push(replaceFolder(fs.mkdtempSync(path.join(dir, '.pagefind-empty-')), root));
    fs.mkdirSync(root, { recursive: true });
  }
  const pagefind = stale.size > 0 ? await import('pagefind') : undefined;
  const total = [...stale].reduce((sum, shard) => sum + members[shard]!.length, 0);
  let indexed = 0;
  const addPages = (index: PagefindIndex, pages: string[]): Promise<void> =>
    // Pagefind's service indexes pages concurrently: send them all, then wait.
    Promise.all(
      pages.map((url) =>
        index.addHTMLFile({ url, content: fs.readFileSync(path.join(dir, decodeURIComponent(url), 'index.html'), 'utf8') }).then((added) => {
          options.onPage?.(++indexed, total);
          return { url, added };
        }),
      ),
    ).then((results) => {
      for (const { url, added } of results) {
        if (added.errors.length > 0) throw new BuildError(`the search index failed on ${url}: ${added.errors.join('; ')}`);
      }
    });
  const started: { shard: number; index: PagefindIndex; early: Promise<void>; later: string[] }[] = [];
  try {
    for (const shard of [...stale].sort((a, b) => a - b)) {
      const { index, errors } = await pagefind!.createIndex({});
      if (!index) throw new BuildError(`the search index could not start: ${errors.join('; ')}`);
      // Pagefind numbers pages in the order it receives them: they are sent in the shard's order,
      // those before the first page still being built early, so that an incremental build writes
      // the same index as a full one.
      const first = pending === 'all' ? 0 : members[shard]!.findIndex((url) => pending.has(url));
      const cut = first === -1 ? members[shard]!.length : first;
      const ready = members[shard]!.slice(0, cut);
      const later = members[shard]!.slice(cut);
      const early = addPages(index, ready);
      // A failure surfaces at finish; until then nobody awaits this promise.
      early.catch(() => undefined);
      started.push({ shard, index, early, later });
    }
  } catch (error) {
    await pagefind?.close();
    throw error;
  }
  return {
    async finish() {
      try {
        for (const { shard, index, early, later } of started) {
          await Promise.all([early, addPages(index, later)]);
          const fresh = path.join(root, `${shard}.new-${process.pid}`);
          // The files are taken into this process and written here: Pagefind's own writing does not
          // flush before its service is closed, and left empty files on a busy machine.
          const built = await index.getFiles();
          if (built.errors.length > 0) throw new BuildError(`the search index could not be written: ${built.errors.join('; ')}`);
          writeIndexFiles(fresh, built.files);
          cleanups.push(replaceFolder(fresh, path.join(root, String(shard))));
        }
      } finally {
        await pagefind?.close();
      }
      fs.writeFileSync(path.join(root, 'shards.json'), `${JSON.stringify({ shards: members.map((_, i) => `${i}/`) })}\n`);
      return { manifest: { shards, pages: keys }, pages: urls.length, written: stale.size, cleanup: Promise.all(cleanups).then(() => undefined) };
    },
    async abort() {
      await pagefind?.close();
    },
  };
}

/** Writes the files of one index below `folder`, which is made fresh. */
function writeIndexFiles(folder: string, files: readonly { path: string; content: Uint8Array }[]): void {
  fs.mkdirSync(folder, { recursive: true });
  for (const file of files) {
    const target = path.join(folder, file.path);
    if (isOutside(folder, target)) throw new BuildError(`the search index named a file outside its folder: ${file.path}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, file.content);
  }
}

type PagefindIndex = NonNullable<Awaited<ReturnType<typeof import('pagefind').createIndex>>['index']>;
