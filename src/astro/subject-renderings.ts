/**
 * The rendered subjects of this process, by id `<topic>/<slug>`, and their copies on disk.
 *
 * Renderings are kept out of Astro's content store on purpose: Astro serialises its whole store
 * after every sync, which on a large site cost more than the build of one changed page. Here a
 * build holds in memory only the renderings of the pages it builds, reads each from the cache
 * folder by its digest, and renders only what the cache lacks.
 */
import fs from 'node:fs';
import path from 'node:path';

/** A heading of a rendered subject, for its table of contents. */
export interface SubjectHeading {
  depth: number;
  slug: string;
  text: string;
}

/** What a subject page shows of its subject's rendering. */
export interface SubjectRendering {
  html: string;
  metadata: { headings: SubjectHeading[]; titleHtml?: string | null };
}

const RENDERINGS = Symbol.for('syllabus.subject-renderings');
// Astro runs the loaders and the pages as separate module instances of one process.
type Shared = { [RENDERINGS]?: Map<string, { digest: string; rendering: SubjectRendering }> };
const shared = globalThis as Shared;

/** The renderings held by this process (the loader fills it; pages read it). */
export function heldRenderings(): Map<string, { digest: string; rendering: SubjectRendering }> {
  return (shared[RENDERINGS] ??= new Map());
}

/** The rendering of subject `id` (`<topic>/<slug>`), when the loader has it. */
export function renderingOf(id: string): SubjectRendering | undefined {
  return heldRenderings().get(id)?.rendering;
}

/** The cache folder's copy of a rendering, by digest; undefined when absent or damaged. */
export function readCachedRendering(dir: string, digest: string): SubjectRendering | undefined {
  try {
    const stored = JSON.parse(fs.readFileSync(path.join(dir, `${digest}.json`), 'utf8')) as SubjectRendering;
    return typeof stored.html === 'string' && Array.isArray(stored.metadata?.headings) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a rendering in the cache folder under its digest (written whole, then renamed). */
export function writeCachedRendering(dir: string, digest: string, rendering: SubjectRendering): void {
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, `${digest}.json`);
  const temporary = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(rendering));
  fs.renameSync(temporary, target);
}

/**
 * Removes from the cache folder every rendering whose digest is not in `current` (contents that
 * no longer exist), and what an interrupted write left. One build uses a cache folder at a time.
 */
export function pruneCachedRenderings(dir: string, current: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!(name.endsWith('.json') && current.has(name.slice(0, -'.json'.length)))) fs.rmSync(path.join(dir, name), { force: true });
  }
}
