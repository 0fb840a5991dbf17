/**
 * Build caches that start with the site's compiled pages kept, as a team's CI cache keeps them
 * (content/reference/cli/build.md, "Building again"): a test build whose subject is its content,
 * not Astro's own build, starts from one, so that Astro compiles the pages once per test run
 * instead of once per test build.
 *
 * The kept pages come from a shared build of this run (test/helpers/shared-build.ts) with the same
 * base and `[site] url`: test/fixtures/spec-example (base `/`, no URL) or test/fixtures/site. A
 * build whose base or URL differs does not match their key and runs Astro's build, as it would
 * without them. Those shared builds, test/build/deterministic-build.test.ts,
 * test/astro/incremental-build.test.ts and the installed package run Astro's build;
 * deterministic-build proves that both ways make the same bytes.
 */
import fs from 'node:fs';
import { cacheFolder } from '../../src/build/cache-folder.ts';
import { builtSiteFixture, builtSpecExample, sharedBuildCache } from './shared-build.ts';

/** Which shared build's kept pages: the one whose base and site URL the test's build has. */
export type KeptPagesOf = 'spec-example' | 'site';

/** Makes `cache` (a build's `--cache` folder) start with the kept pages of shared build `of`; returns `cache`. */
export async function withKeptPages(cache: string, of: KeptPagesOf = 'spec-example'): Promise<string> {
  const kept = cacheFolder(sharedBuildCache(of === 'site' ? await builtSiteFixture() : await builtSpecExample())).pagesBundle;
  if (!fs.existsSync(kept)) throw new Error(`The shared build of ${of} kept no compiled pages in ${kept}.`);
  fs.cpSync(kept, cacheFolder(cache).pagesBundle, { recursive: true });
  return cache;
}
