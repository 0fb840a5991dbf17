/**
 * The site data of this process, shared by everything that runs in a build's process: `syllabus
 * build` computes it and provides it; `syllabus dev` provides the way to compute it; `astro dev`
 * alone computes it from `SYLLABUS_CONFIG_FILES` (a JSON array of config paths) or
 * `content/kb.toml`.
 *
 * Kept apart from `site-data.ts`, which computes the data: Astro loads its config, the content
 * loaders and the pages through its own module runner and bundler, which would otherwise
 * transform the whole core on every build only to read a value already computed.
 */
import path from 'node:path';
import type { SiteData } from './site-data.ts';

// The CLI's bundle and Astro's page bundle are different module instances in one process.
const PENDING = Symbol.for('syllabus.site-data.pending');
const READY = Symbol.for('syllabus.site-data.ready');
const SOURCE = Symbol.for('syllabus.site-data.source');
type Shared = { [PENDING]?: Promise<SiteData>; [READY]?: SiteData; [SOURCE]?: () => Promise<SiteData> };
const shared = globalThis as Shared;

/** Makes `data` the site data of this process (what `syllabus build` does before Astro runs). */
export function provideSiteData(data: SiteData): void {
  shared[PENDING] = Promise.resolve(data);
  shared[READY] = data;
}

/**
 * Makes `compute` the way this process computes its site data (what `syllabus dev` does): the
 * CLI's own modules then read the knowledge base, not the dev server's module runner, which
 * would transform the tokenizer's large tables on every start.
 */
export function provideSiteDataSource(compute: () => Promise<SiteData>): void {
  shared[SOURCE] = compute;
}

/** The site data of this process, computed on first use when no one provided it. */
export function loadSiteData(): Promise<SiteData> {
  shared[PENDING] ??= (async () => {
    const files = JSON.parse(process.env['SYLLABUS_CONFIG_FILES'] ?? '["content/kb.toml"]') as string[];
    const source = shared[SOURCE];
    // Without the CLI, the data is computed here: only then is the core loaded.
    const data = source ? await source() : await (await import('./site-data.ts')).prepareSiteData(files.map((f) => path.resolve(f)));
    if (data.diagnostics.some((d) => d.kind === 'content-error')) {
      const errors = data.diagnostics.filter((d) => d.kind === 'content-error').map((d) => `${d.file}${d.line ? `:${d.line}` : ''}: ${d.message}`);
      throw new Error(`Syllabus: the knowledge base has content errors; nothing was built.\n${errors.join('\n')}`);
    }
    shared[READY] = data;
    return data;
  })();
  return shared[PENDING];
}

/** Forgets the site data, so the next `loadSiteData()` reads the knowledge base again (dev server edits). */
export function resetSiteData(): void {
  delete shared[PENDING];
  delete shared[READY];
}

/** The site data once loaded (markdown plugins run synchronously inside a render), else undefined. */
export function currentSiteData(): SiteData | undefined {
  return shared[READY];
}
