/**
 * The search index (Pagefind), in shards: each listed page belongs to one shard by a hash of its
 * URL, and a build indexes again only the shards whose pages' searchable content changed. The
 * search page merges the shards (`pagefind.mergeIndex`), listed in `pagefind/shards.json`.
 */
import { hash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { shardOf } from '../kb/publish/shard.ts';
import { writeFileAtomically } from '../kb/files/atomic-write.ts';
import { isOutside } from '../kb/files/paths.ts';
import { BuildError } from './build-error.ts';
import { replaceFolder } from './output-folder.ts';
import { searchablePage } from './searchable-page.ts';
import { writeStaticFilesAsync } from './static-file.ts';
import type { SiteData } from './site-data.ts';

/** Pages per shard, unless the build says otherwise (`BuildOptions.searchShardPages`). */
export const PAGES_PER_SHARD = 1000;

/**
 * Pages sent to Pagefind and not yet taken by it, at most, before the build waits for it to catch
 * up: pages are made faster than Pagefind takes them, and each one sent is held until it is taken.
 */
export const PAGES_IN_FLIGHT = 256;

/** What the last build indexed: the number of shards and a key per indexed page (URL below the base). */
export interface SearchManifest {
  shards: number;
  /** The prefix of the shards' folder names: a part's (src/build/site-parts.ts); none for a whole site. */
  prefix?: string | undefined;
  pages: Record<string, string>;
}

/** The indexed pages of a site (without those `leftOut`, page URLs), each with a key of what the index holds of it. */
export function searchKeysOf(data: SiteData, leftOut?: ReadonlySet<string>): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const route of data.routes.subjects) {
    const s = route.subject;
    // Another part's page (src/build/site-parts.ts).
    if (leftOut?.has(route.url)) continue;
    // Hidden subjects and files without text are never searchable (content/guide/the-site.md, issue 3).
    if (s.hidden || s.skipped !== null) continue;
    const topic = route.breadcrumbs[0]!.label;
    keys[route.url.slice(data.routes.base.length - 1)] = hash('sha1', JSON.stringify([s.sha256, s.title, topic, s.format, s.language]));
  }
  return keys;
}

/** The list of a site's search shards, below its `pagefind/` folder: `{"shards": ["0/", …]}`, which the search page merges. */
export const SHARD_LIST = 'shards.json';

/** Writes the list of shards (their folders, each with a trailing `/`) into `root`, the site's `pagefind/` folder. */
export function writeShardList(root: string, shards: readonly string[]): void {
  fs.writeFileSync(path.join(root, SHARD_LIST), `${JSON.stringify({ shards })}\n`);
}

/** The shard folders listed in `root`, the site's `pagefind/` folder; throws when there is no readable list. */
export function readShardList(root: string): string[] {
  return (JSON.parse(fs.readFileSync(path.join(root, SHARD_LIST), 'utf8')) as { shards: string[] }).shards;
}

/**
 * Shards an index is split into at most, while they hold at most {@link MAX_SHARD_PAGES} pages
 * each: a reader's search fetches an index chunk (about 30 kB) from every shard for each word, so
 * a large site's shards grow instead (content/reference/decisions.md, "The search index").
 */
export const MAX_SHARDS = 16;

/** Pages a shard holds at most however large the site: one Pagefind index runs out of memory past about 30,000. */
export const MAX_SHARD_PAGES = 25_000;

/**
 * How many shards `pages` pages need: at most `perShard` pages each, but no more than
 * {@link MAX_SHARDS} shards unless they would then hold over {@link MAX_SHARD_PAGES} pages each.
 */
export function shardCount(pages: number, perShard = PAGES_PER_SHARD): number {
  const wanted = Math.ceil(pages / (perShard > 0 ? perShard : PAGES_PER_SHARD));
  return Math.max(1, Math.min(wanted, Math.max(MAX_SHARDS, Math.ceil(pages / MAX_SHARD_PAGES))));
}

/**
 * The shard of each page of the search index whose pages are `keys`' (URL below the base → key),
 * as {@link startSearchIndex} lays them out; undefined for a page the index does not hold.
 */
export function searchShardsOf(keys: Record<string, string>, perShard?: number): (url: string) => number | undefined {
  const shards = shardCount(Object.keys(keys).length, perShard);
  return (url) => (url in keys ? shardOf(url, shards) : undefined);
}

/** A search index being written; see {@link startSearchIndex}. */
export interface SearchIndexing {
  /**
   * A page being built has been made: `url` below the base, `html` its bytes. Pagefind takes it
   * now when its shard's earlier pages are in, else as soon as they are (pages that are not
   * indexed are ignored). Returns a promise when Pagefind has {@link PAGES_IN_FLIGHT} pages still
   * to take: the build waits for it before it makes the next page, so that memory does not grow
   * with the site.
   */
  pageBuilt(url: string, html: Uint8Array): Promise<void> | undefined;
  /**
   * The shard a page (URL below the base) is indexed in, when this run indexes it: a build that
   * makes its pages shard by shard lets each shard's index be written while the next shard's
   * pages are made.
   */
  shardOf(url: string): number | undefined;
  /**
   * Adds the pages not yet taken (read from the folder: the build has moved its pages there),
   * writes the shards that changed and the list of shards; returns the manifest to keep, how
   * many pages the index holds, and how many shards were written.
   */
  finish(): Promise<{ manifest: SearchManifest; pages: number; written: number; cleanup: Promise<void> }>;
  /** Stops indexing and writes nothing (the build failed). */
  abort(): Promise<void>;
}

/** Options of {@link startSearchIndex}. */
export interface SearchIndexOptions {
  /** The built site, whose `pagefind/` folder holds the index. */
  dir: string;
  /** The pages to index (URLs below the base, as `searchKeysOf` gives them, in route order) and their keys. */
  keys: Record<string, string>;
  /** What the index in `dir` holds now, when a previous build wrote it. */
  previous?: SearchManifest | undefined;
  /** Pages being built (URLs below the base), or `'all'`: they come through `pageBuilt` or, at the latest, from `dir` at `finish`. */
  pending: ReadonlySet<string> | 'all';
  /** Pages per shard (default {@link PAGES_PER_SHARD}). */
  perShard?: number | undefined;
  /** The prefix of the shards' folder names (a part's); default none: `0/`, `1/`… */
  shardPrefix?: string | undefined;
  /** Called whenever Pagefind has taken a page: how many so far, and how many this run indexes. */
  onPage?: ((indexed: number, total: number) => void) | undefined;
  /**
   * A folder of the build's own (emptied here) where each shard's index is written as soon as its
   * last page is taken, and moved into `dir` at {@link SearchIndexing.finish}; default: the
   * shards are written at `finish`, in `dir`.
   */
  staging?: string | undefined;
}

/** One shard being indexed again: its pages in order, and how far they have been sent. */
interface OpenShard {
  number: number;
  index: PagefindIndex;
  members: string[];
  /** How many of `members` have been sent. */
  sent: number;
  /** Pages built and not yet sent (an earlier page of the shard is still being built). */
  waiting: Map<string, Uint8Array>;
  adds: Promise<void>[];
  /** Its index, once every page is sent: written to a folder, or the changes to the shard's folder. */
  written?: Promise<MadeShard>;
}

/** A shard's new index: a folder to put in place of the shard's, or the changes to make in the shard's folder. */
type MadeShard = { fresh: string } | { patch: ShardPatch };

/** What changes in a shard's folder: the files to write (new or changed) and the files that go. */
interface ShardPatch {
  folder: string;
  files: IndexFile[];
  obsolete: string[];
}

/** A file of an index, as Pagefind gives it: its path in the index's folder and its bytes. */
interface IndexFile {
  path: string;
  content: Uint8Array;
}

/**
 * The bytes of the changes to shards' folders held from the moment a shard's index is made to the
 * end of the build, at most: a shard whose changes do not fit is written whole to a folder of its own.
 */
const PATCH_BYTES = 16 * 1024 * 1024;

/** The file Pagefind's search script reads first; it names the rest of the index. */
const ENTRY_FILE = 'pagefind-entry.json';

/**
 * Starts the search index of the pages of `dir`, to index again only the shards that changed since
 * `previous`, while the `pending` pages are still being built: Pagefind (a process of its own)
 * takes each page as soon as it and the pages before it in its shard are there, the unchanged
 * pages from `dir` and the new ones through {@link SearchIndexing.pageBuilt}. Nothing is written
 * before {@link SearchIndexing.finish}.
 */
export async function startSearchIndex(options: SearchIndexOptions): Promise<SearchIndexing> {
  const { dir, keys, previous, pending } = options;
  // Route order: the order the pages are built in, so that a page is seldom held back waiting for
  // one before it.
  const urls = Object.keys(keys);
  const shards = shardCount(urls.length, options.perShard);
  const shardOfPage = searchShardsOf(keys, options.perShard);
  const members: string[][] = Array.from({ length: shards }, () => []);
  const shardOfUrl = new Map<string, number>();
  for (const url of urls) {
    const shard = shardOfPage(url)!;
    shardOfUrl.set(url, shard);
    members[shard]!.push(url);
  }
  const root = path.join(dir, 'pagefind');
  const prefix = options.shardPrefix ?? '';
  const newLayout = !previous || previous.shards !== shards || (previous.prefix ?? '') !== prefix || !fs.existsSync(path.join(root, SHARD_LIST));
  const stale = new Set<number>();
  if (newLayout) {
    members.forEach((_, i) => stale.add(i));
  } else {
    for (const url of new Set([...urls, ...Object.keys(previous.pages)])) {
      if (keys[url] !== previous.pages[url]) stale.add(shardOf(url, shards));
    }
  }
  const isPending = (url: string): boolean => pending === 'all' || pending.has(url);
  const readPage = (url: string): Uint8Array => fs.readFileSync(path.join(dir, decodeURIComponent(url), 'index.html'));
  const pagefind = stale.size > 0 ? await import('pagefind') : undefined;
  const staging = options.staging;
  if (staging) {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
  }
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= pagefind ? pagefind.close().then(() => undefined) : Promise.resolve());
  const total = [...stale].reduce((sum, shard) => sum + members[shard]!.length, 0);
  let indexed = 0;
  let inFlight = 0;
  let caughtUp: { promise: Promise<void>; resolve: () => void } | undefined;
  const decoder = new TextDecoder();
  const taken = (): void => {
    inFlight--;
    // Half the window: the build goes on while Pagefind still has pages to take.
    if (caughtUp && inFlight <= PAGES_IN_FLIGHT / 2) {
      caughtUp.resolve();
      caughtUp = undefined;
    }
  };
  const send = (shard: OpenShard, url: string, html: Uint8Array): void => {
    inFlight++;
    const added = shard.index.addHTMLFile({ url, content: searchablePage(decoder.decode(html)) }).then((result) => {
      if (result.errors.length > 0) throw new BuildError(`the search index failed on ${url}: ${result.errors.join('; ')}`);
      options.onPage?.(++indexed, total);
    });
    added.then(taken, taken);
    // A failure surfaces at finish; until then nobody awaits this promise.
    added.catch(() => undefined);
    shard.adds.push(added);
  };
  /**
   * Sends the shard's pages in order while they are there (Pagefind numbers pages in the order it
   * receives them: an incremental build must send them as a full one does); `all` takes the
   * pages still missing from `dir`.
   */
  const pump = (shard: OpenShard, all: boolean): void => {
    while (shard.sent < shard.members.length) {
      const url = shard.members[shard.sent]!;
      const held = shard.waiting.get(url);
      if (held) shard.waiting.delete(url);
      else if (isPending(url) && !all) return;
      send(shard, url, held ?? readPage(url));
      shard.sent++;
    }
    if (staging && !shard.written) {
      // Every page is sent: the shard's index is written now, while the build goes on.
      shard.written = writeShard(shard, staging);
      // A failure surfaces at finish.
      shard.written.catch(() => undefined);
    }
  };
  const patchBudget = { bytes: PATCH_BYTES };
  /**
   * Makes the index of `shard`, once Pagefind has taken its pages: the changes to its folder, when
   * the layout is the one in `dir` and they fit the budget (a page's edit changes a few files of a
   * thousand: creating a thousand files costs more than anything else in such a build), else the
   * whole index, written to a fresh folder in `into`.
   */
  const writeShard = async (shard: OpenShard, into: string): Promise<MadeShard> => {
    await Promise.all(shard.adds);
    // The files are taken into this process and written here: Pagefind's own writing does not
    // flush before its service is closed, and left empty files on a busy machine.
    const built = await shard.index.getFiles();
    if (built.errors.length > 0) throw new BuildError(`the search index could not be written: ${built.errors.join('; ')}`);
    // Pagefind keeps a shard's index until it is deleted or its service closed: a large site's
    // shards would all be held in its process until the build ends.
    await shard.index.deleteIndex();
    const folder = path.join(root, `${prefix}${shard.number}`);
    for (const file of built.files) {
      if (isOutside(folder, path.join(folder, file.path))) throw new BuildError(`the search index named a file outside its folder: ${file.path}`);
    }
    const patch = newLayout ? undefined : shardPatch(folder, built.files, patchBudget);
    if (patch) return { patch };
    const fresh = path.join(into, `${shard.number}.new-${process.pid}`);
    await writeIndexFiles(fresh, built.files);
    return { fresh };
  };
  const open = new Map<number, OpenShard>();
  try {
    for (const shard of [...stale].sort((a, b) => a - b)) {
      const { index, errors } = await pagefind!.createIndex({});
      if (!index) throw new BuildError(`the search index could not start: ${errors.join('; ')}`);
      const state: OpenShard = { number: shard, index, members: members[shard]!, sent: 0, waiting: new Map(), adds: [] };
      open.set(shard, state);
      pump(state, false);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return {
    shardOf: (url) => (stale.has(shardOfUrl.get(url) ?? -1) ? shardOfUrl.get(url) : undefined),
    pageBuilt(url, html) {
      const shard = shardOfUrl.get(url);
      const state = shard === undefined ? undefined : open.get(shard);
      if (!state || !isPending(url)) return undefined;
      state.waiting.set(url, html);
      pump(state, false);
      if (inFlight < PAGES_IN_FLIGHT) return undefined;
      if (!caughtUp) {
        let resolve = (): void => undefined;
        const promise = new Promise<void>((done) => (resolve = done));
        caughtUp = { promise, resolve };
      }
      return caughtUp.promise;
    },
    async finish() {
      const cleanups: Promise<void>[] = [];
      try {
        if (newLayout) {
          // A new layout: whatever index was there goes.
          if (fs.existsSync(root)) cleanups.push(replaceFolder(fs.mkdtempSync(path.join(dir, '.pagefind-empty-')), root));
          fs.mkdirSync(root, { recursive: true });
        }
        for (const state of open.values()) pump(state, true);
        for (const [shard, state] of open) {
          const made = await (state.written ?? writeShard(state, root));
          if ('patch' in made) await applyShardPatch(made.patch);
          else cleanups.push(replaceFolder(made.fresh, path.join(root, `${prefix}${shard}`)));
        }
      } finally {
        await close();
        if (staging) fs.rmSync(staging, { recursive: true, force: true });
      }
      writeShardList(
        root,
        members.map((_, i) => `${prefix}${i}/`),
      );
      return { manifest: { shards, ...(prefix ? { prefix } : {}), pages: keys }, pages: urls.length, written: stale.size, cleanup: Promise.all(cleanups).then(() => undefined) };
    },
    async abort() {
      await close();
      if (staging) fs.rmSync(staging, { recursive: true, force: true });
    },
  };
}

/** Writes the files of one index below `folder`, which is made fresh, through the build's writer thread. */
async function writeIndexFiles(folder: string, files: readonly IndexFile[]): Promise<void> {
  fs.mkdirSync(folder, { recursive: true });
  await writeStaticFilesAsync(
    folder,
    files.map((file) => ({ path: file.path, body: { bytes: file.content } })),
  );
}

type PagefindIndex = NonNullable<Awaited<ReturnType<typeof import('pagefind').createIndex>>['index']>;

/**
 * The changes that make the index in `folder` (a shard's, written by an earlier build) hold
 * `files`: those whose bytes differ, and the files no longer there. Undefined when there is no
 * such folder, or when the changes' bytes do not fit what is left of `budget` (taken from it otherwise).
 */
function shardPatch(folder: string, files: readonly IndexFile[], budget: { bytes: number }): ShardPatch | undefined {
  if (!fs.existsSync(folder)) return undefined;
  const present = new Set(
    fs
      .readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name))),
  );
  const changed = files.filter((file) => !present.has(path.normalize(file.path)) || !sameBytes(path.join(folder, file.path), file.content));
  const bytes = changed.reduce((sum, file) => sum + file.content.length, 0);
  if (bytes > budget.bytes) return undefined;
  budget.bytes -= bytes;
  for (const file of files) present.delete(path.normalize(file.path));
  return { folder, files: changed, obsolete: [...present] };
}

/** Whether the file `file` holds exactly `bytes`. */
function sameBytes(file: string, bytes: Uint8Array): boolean {
  try {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).equals(fs.readFileSync(file));
  } catch {
    return false;
  }
}

/**
 * Makes the changes of `patch` in its folder, in the order that keeps the index whole for a reader
 * at every step: the new files, then the entry file that names them (replaced in one rename), then
 * the files no one names any more, and the folders they leave empty.
 */
async function applyShardPatch({ folder, files, obsolete }: ShardPatch): Promise<void> {
  const entry = files.find((file) => path.normalize(file.path) === ENTRY_FILE);
  await writeStaticFilesAsync(
    folder,
    files.filter((file) => file !== entry).map((file) => ({ path: file.path, body: { bytes: file.content } })),
  );
  if (entry) writeFileAtomically(path.join(folder, ENTRY_FILE), entry.content, { flush: false });
  const emptied = new Set<string>();
  for (const file of obsolete) {
    fs.rmSync(path.join(folder, file), { force: true });
    emptied.add(path.dirname(path.join(folder, file)));
  }
  for (const dir of [...emptied].sort().reverse()) {
    if (dir !== folder && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
  }
}
