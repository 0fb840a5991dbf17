/**
 * The content checks of the PR gate (links, mentions, titles, Agent Skills, MDX syntax,
 * near-duplicates), run by `check` and by the build, whose summary counts them, so that both
 * report the same warnings (content/reference/diagnostics.md).
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { CheckConfig, SiteConfig } from '../config/schema.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { checkAgentSkills } from './agent-skills.ts';
import { loadMarkdownParser } from '../markdown/parser.ts';
import { loadMdxParser } from '../markdown/mdx-parser.ts';
import { checkMdxSyntax } from './mdx-syntax.ts';
import { checkNearDuplicates, type WordSetMemo } from './near-duplicates.ts';
import { checkLinks } from './links.ts';
import { checkMentions } from './mentions.ts';
import { checkTitles } from './titles.ts';

/** Loads the parsers the content checks read with; call once before {@link checkContent}. */
export async function loadContentChecks(): Promise<void> {
  await Promise.all([loadMarkdownParser(), loadMdxParser()]);
}

/**
 * Every content check over a catalog, before `[check]`'s severities (severity.ts).
 * Needs {@link loadContentChecks} first. `root` is the folder near-duplicate warnings name files
 * relative to (the first config file's); `wordSets` keeps the near-duplicate check's word sets
 * between runs.
 */
export function checkContent(catalog: Catalog, site: SiteConfig, root: string, check: Pick<CheckConfig, 'near_duplicate_code'>, wordSets?: WordSetMemo): Diagnostic[] {
  return [
    ...checkLinks(catalog, site),
    ...checkMentions(catalog),
    ...checkTitles(catalog),
    ...checkAgentSkills(catalog),
    ...checkMdxSyntax(catalog),
    ...checkNearDuplicates(catalog, root, { code: check.near_duplicate_code, wordSets }),
  ];
}
