/**
 * The content checks of the PR gate (links, mentions, titles, near-duplicates), run by `check`
 * and by the build's summary, so that both report the same warnings (SPEC 5).
 */
import type { Catalog } from './catalog.ts';
import type { SiteConfig } from './config-load.ts';
import type { Diagnostic } from './diagnostics.ts';
import { checkNearDuplicates } from './check-duplicates.ts';
import { checkLinks } from './check-links.ts';
import { checkMentions } from './check-mentions.ts';
import { checkTitles } from './check-titles.ts';

/**
 * Every content check over a catalog. Needs `loadMarkdownParser()` first. `root` is the folder
 * near-duplicate warnings name files relative to (the first config file's).
 */
export function checkContent(catalog: Catalog, site: SiteConfig, root: string): Diagnostic[] {
  return [...checkLinks(catalog, site), ...checkMentions(catalog), ...checkTitles(catalog), ...checkNearDuplicates(catalog, root)];
}
