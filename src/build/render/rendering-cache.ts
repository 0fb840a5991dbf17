/**
 * Subjects' renderings kept in the build cache, so that an unchanged subject is not rendered again.
 *
 * The cache is {@link RENDERING_PACKS} pack files, a subject's pack chosen by its id: a changed
 * subject replaces its own entry, and a build that renders one subject rewrites one small pack
 * (thousands of small files would cost more to write than the renderings themselves). A build
 * reads only the packs that hold the subjects of the pages it builds.
 */
import path from 'node:path';
import { readCacheEntries, writeCacheEntries } from '../../kb/files/cache-file.ts';
import { shardOf } from '../../kb/publish/shard.ts';
import type { ContentNeeds } from './math-formulas.ts';

/** A heading of a rendered subject, for its table of contents. */
export interface SubjectHeading {
  depth: number;
  slug: string;
  text: string;
}

/** What a subject page shows of its subject's rendering. */
export interface SubjectRendering {
  html: string;
  /** `needs`: what the page loads to show it (KaTeX's stylesheet, the diagram script), when anything. */
  metadata: { headings: SubjectHeading[]; titleHtml?: string | null; needs?: ContentNeeds };
}

/** A rendering with the digest of everything it was made from. */
export interface HeldRendering {
  digest: string;
  rendering: SubjectRendering;
}

/** How many pack files the cache spreads renderings over. */
export const RENDERING_PACKS = 64;

/** The format of a pack file; another value is read as an empty pack. */
const PACK_VERSION = 1;

/** The cache's renderings, read pack by pack on first use, written back where they changed. */
export interface RenderingCache {
  /** The cached rendering of `id`, when it was made from `digest`. */
  get(id: string, digest: string): SubjectRendering | undefined;
  /** Keeps a new rendering of `id`. */
  set(id: string, held: HeldRendering): void;
  /**
   * Writes the packs that changed, without the entries of subjects not in `current`. With
   * `everyPack`, every pack is read and cleaned (a full build knows every current id).
   */
  save(current: ReadonlySet<string>, everyPack: boolean): void;
}

/** Opens the rendering cache in folder `dir` (created when a pack is first written). */
export function openRenderingCache(dir: string): RenderingCache {
  const packs = new Map<number, { entries: Map<string, HeldRendering>; dirty: boolean }>();
  const packAt = (n: number) => {
    let pack = packs.get(n);
    if (!pack) {
      pack = { entries: readPack(path.join(dir, `${n}.json`)), dirty: false };
      packs.set(n, pack);
    }
    return pack;
  };
  return {
    get(id, digest) {
      const stored = packAt(shardOf(id, RENDERING_PACKS)).entries.get(id);
      return stored?.digest === digest ? stored.rendering : undefined;
    },
    set(id, held) {
      const pack = packAt(shardOf(id, RENDERING_PACKS));
      pack.entries.set(id, held);
      pack.dirty = true;
    },
    save(current, everyPack) {
      if (everyPack) for (let n = 0; n < RENDERING_PACKS; n++) packAt(n);
      for (const [n, pack] of packs) {
        for (const id of pack.entries.keys()) {
          if (!current.has(id)) {
            pack.entries.delete(id);
            pack.dirty = true;
          }
        }
        if (pack.dirty) writePack(dir, n, pack.entries);
      }
    },
  };
}

/** A pack's renderings; no pack yet, or a damaged one, gives none: its subjects are rendered again. */
function readPack(file: string): Map<string, HeldRendering> {
  return readCacheEntries(file, PACK_VERSION, isHeldRendering);
}

function isHeldRendering(value: unknown): value is HeldRendering {
  const held = value as Partial<HeldRendering> | null;
  return typeof held?.digest === 'string' && typeof held.rendering?.html === 'string' && Array.isArray(held.rendering.metadata?.headings);
}

function writePack(dir: string, n: number, entries: ReadonlyMap<string, HeldRendering>): void {
  writeCacheEntries(path.join(dir, `${n}.json`), PACK_VERSION, entries);
}
