/**
 * MDX that does not parse (`check`, content/reference/diagnostics.md): the site renders such a
 * file as plain markdown, so its components show as text; the warning names the line and the
 * parser's reason.
 */
import type { Catalog } from '../catalog/catalog.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { parseMdx } from '../markdown/mdx-parser.ts';
import { isMdxPath } from '../subjects/format.ts';
import { frontMatterLineCount, isCheckedMarkdown } from './markdown-facts.ts';

/** An `mdx-syntax` warning for every `.mdx` subject that is not valid MDX. Needs `loadMdxParser()` first. */
export function checkMdxSyntax(catalog: Catalog): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      if (!isCheckedMarkdown(subject) || !isMdxPath(subject.path)) continue;
      // Front matter lines are blanked, as the renderer does: lines stay the file's.
      const skip = frontMatterLineCount(subject.content);
      const body = skip === 0 ? subject.content : '\n'.repeat(skip) + subject.content.split('\n').slice(skip).join('\n');
      const parsed = parseMdx(body);
      if (parsed.ok) continue;
      const { reason, line, column } = parsed.error;
      diagnostics.push({
        kind: 'warning',
        code: 'mdx-syntax',
        message: `Not valid MDX (${reason}); the site shows it as plain markdown. Fix the MDX there (write a literal < or { in text as \\< or \\{, close every tag), or rename the file to .md.`,
        file: subject.file,
        line,
        column,
      });
    }
  }
  return diagnostics;
}
