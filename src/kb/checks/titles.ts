/**
 * Missing titles (`check`, content/reference/cli/check.md): markdown subjects written to have a
 * title that Syllabus does not read, so that their title falls back to the slug's last segment.
 */
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import { frontMatterLineCount, isCheckedMarkdown, outlineOf, type OutlineMemo } from './markdown-facts.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { firstHeading } from '../catalog/title.ts';

/**
 * A `missing-title` warning for every markdown subject whose title falls back to the slug's last
 * segment (no front matter `title` text, no `# ` heading, no front matter `name`) although it was
 * written to have one:
 * - its front matter has a `title` that is not text (`title: 2024`, `title:`), which is ignored;
 * - or it has headings at its top level, none of them a `# Title` line: the first one is a level-1
 *   heading Syllabus does not read as the title (`Title` underlined with `===`, `#` without a
 *   space) or a lower one (`## Overview`).
 * A subject with no heading at all (a plain note) is not reported: the slug is its title, as
 * content/guide/the-site.md intends. Text and code subjects have no title of their own and are not
 * reported. `outlines` keeps the subjects' outlines between runs.
 */
export function checkTitles(catalog: Catalog, outlines?: OutlineMemo): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      if (!isCheckedMarkdown(subject)) continue;
      const problem = titleProblem(subject, outlines);
      if (problem) diagnostics.push({ kind: 'warning', code: 'missing-title', file: subject.file, ...problem });
    }
  }
  return diagnostics;
}

function titleProblem(subject: CatalogSubject, outlines: OutlineMemo | undefined): { message: string; line: number } | undefined {
  const fallback = subject.slug.slice(subject.slug.lastIndexOf('/') + 1);
  // A title that differs from the fallback came from the front matter or a heading.
  if (subject.title !== fallback) return undefined;
  const written = subject.frontMatter['title'];
  if (typeof written === 'string' && written.trim() !== '') return undefined;
  const skip = frontMatterLineCount(subject.content);
  const lines = subject.content.split('\n');
  if (firstHeading(lines.slice(skip).join('\n')) !== undefined) return undefined;
  const falls = `so the title falls back to ${JSON.stringify(fallback)} (the slug's last segment)`;
  if ('title' in subject.frontMatter) {
    const line = lines.slice(1, skip).findIndex((l) => /^title\s*:/.test(l));
    return {
      message: `The front matter title is ${describeValue(written)}, not text: it is ignored, ${falls}. Write the title as text (title: "…").`,
      line: line === -1 ? 1 : line + 2,
    };
  }
  const heading = outlineOf(subject, outlines).headings[0];
  if (!heading) return undefined;
  if (heading.depth === 1) {
    return {
      message: `This level-1 heading is not read as the title (only a one-line "# Title" is), ${falls}. Write it as "# Title", or set title in the front matter.`,
      line: heading.line,
    };
  }
  return {
    message: `The subject has headings but no title: its first heading is level ${heading.depth}, ${falls}. Start it with a "# Title" heading, or set title in the front matter.`,
    line: heading.line,
  };
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (typeof value === 'string') return 'blank';
  return JSON.stringify(value) ?? typeof value;
}
