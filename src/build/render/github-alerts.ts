/**
 * GitHub's alerts (content/reference/subject-formats.md, "Alerts"): a blockquote whose first line
 * is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`, `[!WARNING]` or `[!CAUTION]` (any case, alone on its
 * line) is the site's callout of that kind (site-elements.ts), titled as GitHub titles it. Any
 * other blockquote stays a blockquote. The `.md` twin keeps the markdown as written.
 */
import type { Blockquote, Paragraph, Text } from 'mdast';
import type { MdastPluginDefinition } from 'satteri';
import { calloutElement, textNode, type CalloutKind, type MarkdownNode } from './site-elements.ts';

/** The alert markers, by kind, and the title each shows. */
const ALERT_TITLES: Readonly<Record<CalloutKind, string>> = { note: 'Note', tip: 'Tip', important: 'Important', warning: 'Warning', caution: 'Caution' };

/** The marker line: `[!KIND]`, spaces around it allowed, then the end of the line or of the paragraph. */
const MARKER = /^\s*\[!(note|tip|important|warning|caution)\][ \t]*(?:\r?\n|$)/i;

/**
 * The alert a blockquote is, when its first paragraph starts with a marker line: its kind and its
 * content without the marker (the first paragraph dropped when the marker was all it held).
 */
export function readAlert(quote: Readonly<Blockquote>): { kind: CalloutKind; children: MarkdownNode[] } | undefined {
  const [first, ...rest] = quote.children;
  if (first?.type !== 'paragraph') return undefined;
  const [lead, ...inline] = first.children;
  if (lead?.type !== 'text') return undefined;
  const marker = MARKER.exec(lead.value);
  if (!marker) return undefined;
  const kind = marker[1]!.toLowerCase() as CalloutKind;
  const remaining = lead.value.slice(marker[0].length);
  const body: Paragraph['children'] = remaining === '' ? inline : [{ ...lead, value: remaining } satisfies Text, ...inline];
  const paragraph: Paragraph[] = body.length === 0 ? [] : [{ ...first, children: body }];
  return { kind, children: [...paragraph, ...rest] as MarkdownNode[] };
}

/**
 * Whether `markdown` can hold an alert: false when its source has neither a `[!` (a backslash may
 * escape the `!`) nor a character reference (`&#91;`), the only ways its text can start with `[!`.
 */
export function mayHoldAlert(markdown: string): boolean {
  return markdown.includes('&') || /\[\\?!/.test(markdown);
}

/** The mdast plugin that turns alerts into callouts (see {@link readAlert}). */
export function createAlertsPlugin(): MdastPluginDefinition {
  return {
    name: 'syllabus-alerts',
    blockquote(node, ctx) {
      const alert = readAlert(node);
      if (!alert) return;
      ctx.replaceNode(node, calloutElement(alert.kind, [textNode(ALERT_TITLES[alert.kind])], alert.children));
    },
  };
}
