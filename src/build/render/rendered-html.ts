/** Finishing touches on a subject's rendered HTML, applied once when it is rendered. */

const LEADING_H1 = /^\s*<h1\b[^>]*>([\s\S]*?)<\/h1>\s*/;
const HEADING = /<h([2-4])(\s[^>]*)?>([\s\S]*?)<\/h\1>/g;
const ID_ATTRIBUTE = /(?:^|\s)id="([^"]+)"/;

/** A subject's HTML, and the HTML of its title when the document's own first heading gave it. */
export interface FinishedHtml {
  html: string;
  /** Inner HTML of the leading `<h1>` that was dropped (it keeps inline code and emphasis), else null. */
  titleHtml: string | null;
}

/**
 * Drops a leading `<h1>` that is the subject's title — the page shows the title itself — when the
 * title came from that heading (`titleFromHeading`) or has the same text; gives each h2–h4 with an
 * id a visible anchor link.
 */
export function finishSubjectHtml(html: string, title: string, titleFromHeading = false): FinishedHtml {
  let out = html;
  let titleHtml: string | null = null;
  const leading = LEADING_H1.exec(out);
  if (leading && (titleFromHeading || textOf(leading[1]!) === title.trim())) {
    out = out.slice(leading[0].length);
    titleHtml = leading[1]!;
  }
  out = out.replace(HEADING, (all, level: string, attributes: string | undefined, inner: string) => {
    const id = ID_ATTRIBUTE.exec(attributes ?? '')?.[1];
    if (id === undefined) return all;
    return `<h${level}${attributes}>${inner}<a class="heading-anchor" href="#${id}" aria-label="Link to this section" data-pagefind-ignore>#</a></h${level}>`;
  });
  return { html: out, titleHtml };
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
