/** Finishing touches on a subject's rendered HTML, applied once when it is rendered. */

const LEADING_H1 = /^\s*<h1\b[^>]*>([\s\S]*?)<\/h1>\s*/;
const HEADING = /<h([2-4])\b([^>]*)\bid="([^"]+)"([^>]*)>([\s\S]*?)<\/h\1>/g;

/**
 * Drops a leading `<h1>` whose text is the subject's title (the page shows the title itself),
 * and gives each h2–h4 with an id a visible anchor link.
 */
export function finishSubjectHtml(html: string, title: string): string {
  let out = html;
  const leading = LEADING_H1.exec(out);
  if (leading && textOf(leading[1]!) === title.trim()) out = out.slice(leading[0].length);
  return out.replace(
    HEADING,
    (_all, level: string, before: string, id: string, after: string, inner: string) =>
      `<h${level}${before}id="${id}"${after}>${inner}<a class="heading-anchor" href="#${id}" aria-label="Link to this section" data-pagefind-ignore>#</a></h${level}>`,
  );
}

/** The text of an HTML fragment: tags removed, the common entities decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}
