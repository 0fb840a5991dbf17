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
import type { OutlineMemo } from './markdown-facts.ts';
import { checkTitles } from './titles.ts';

/** Loads the parsers the content checks read with; call once before {@link checkContent}. */
export async function loadContentChecks(): Promise<void> {
  await Promise.all([loadMarkdownParser(), loadMdxParser()]);
}

/** What the content checks keep between runs, when a host keeps it (the build does, in its cache). */
export interface ContentCheckMemos {
  /** The near-duplicate check's word sets. */
  wordSets?: WordSetMemo | undefined;
  /** The markdown outlines the link, mention and title checks read. */
  outlines?: OutlineMemo | undefined;
}

/**
 * Every content check over a catalog, before `[check]`'s severities (severity.ts).
 * Needs {@link loadContentChecks} first. `root` is the folder near-duplicate warnings name files
 * relative to (the first config file's); `memos` keeps what the checks read of each subject
 * between runs.
 */
export function checkContent(catalog: Catalog, site: SiteConfig, root: string, check: Pick<CheckConfig, 'near_duplicate_code'>, memos: ContentCheckMemos = {}): Diagnostic[] {
  return [
    ...checkLinks(catalog, site, memos.outlines),
    ...checkMentions(catalog, memos.outlines),
    ...checkTitles(catalog, memos.outlines),
    ...checkAgentSkills(catalog),
    ...checkMdxSyntax(catalog),
    ...checkNearDuplicates(catalog, root, { code: check.near_duplicate_code, wordSets: memos.wordSets }),
  ];
}
