/** Code highlighted the way the site highlights code blocks, for text that is not a subject (a preview's diffs). */
import type { MarkdownRenderer } from './markdown-renderer.ts';

/** `code` as a highlighted `<pre>` block in `language`, through the site's markdown renderer. */
export async function highlightCode(renderer: MarkdownRenderer, code: string, language: string): Promise<string> {
  // A fence longer than any run of backticks in the code, so the code cannot close it.
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return (await renderer.render(`${fence}${language}\n${code}\n${fence}\n`)).html;
}
