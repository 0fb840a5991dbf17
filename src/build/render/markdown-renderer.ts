/**
 * The site's markdown renderer: Sätteri (the Rust markdown processor Astro uses), Shiki
 * highlighting in a light and a dark theme, heading ids, Syllabus's own links, and the sanitiser
 * (sanitize-html.ts) unless `[site] allow_html = true`. Made once per process and used for every
 * subject and topic description, by the build, the development server and a host site's
 * integration and loader alike, so that a subject renders the same wherever it is shown. Code that
 * is one block (a code subject, a diff) is highlighted by Shiki directly, with no markdown read.
 */
import type { Root } from 'hast';
import { satteriHeadingIdsPlugin, satteriHighlightPlugin } from '@astrojs/markdown-satteri';
import { createCodeHighlighter } from './code-highlighter.ts';
import { createHastSerializer } from './hast-html.ts';
import { createLinksPlugin, type RenderContext } from './markdown-plugins.ts';
import { createHtmlSanitizer, createRawTextGuardPlugin } from './sanitize-html.ts';

/** The code themes of the site: `--shiki-light` and `--shiki-dark` variables on every token. */
export const CODE_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/** A heading of a rendered document. */
export interface RenderedHeading {
  depth: number;
  slug: string;
  text: string;
}

/** Renders markdown to HTML for the site. */
export interface MarkdownRenderer {
  /** Renders `markdown`; `fileUrl` is the file it came from, which relative links are resolved from. */
  render(markdown: string, fileUrl?: URL): Promise<{ html: string; headings: RenderedHeading[] }>;
  /**
   * `code` as one highlighted block (a `<pre>`) in `language` (a fence's info string): the HTML a
   * fenced block of it renders to, made without reading markdown.
   */
  highlight(code: string, language: string): Promise<string>;
}

/** Languages whose fenced blocks the renderer leaves as they are, unhighlighted (as Astro does). */
const NOT_HIGHLIGHTED = ['math'];

/**
 * Makes the renderer. `context` is read at every render: the site it renders for may change while
 * the renderer lives (the development server reads the knowledge base again after an edit).
 */
export async function createMarkdownRenderer(context: () => RenderContext): Promise<MarkdownRenderer> {
  const [satteri, highlight, sanitizeHtml, serialize] = await Promise.all([
    import('satteri'),
    createCodeHighlighter(CODE_THEMES),
    createHtmlSanitizer(CODE_THEMES),
    createHastSerializer(),
  ]);
  const guard = [createRawTextGuardPlugin()];
  const hastPlugins = [satteriHighlightPlugin(highlight, NOT_HIGHLIGHTED), createLinksPlugin(context), satteriHeadingIdsPlugin()];
  const renderer: MarkdownRenderer = {
    async render(markdown, fileUrl) {
      const trusted = context().allowHtml;
      const astro = { frontmatter: {}, headings: [] as RenderedHeading[], localImagePaths: new Set<string>(), remoteImagePaths: new Set<string>() };
      const { html, data } = await satteri.markdownToHtml(markdown, {
        mdastPlugins: trusted ? [] : guard,
        hastPlugins,
        features: { gfm: true, smartPunctuation: true, rawHtml: true },
        ...(fileUrl ? { fileURL: fileUrl } : {}),
        data: { astro },
      });
      const headings = (data.astro?.headings ?? []).map(({ depth, slug, text }) => ({ depth, slug, text }));
      // The whole fragment the renderer made is sanitised, so its own output passes the allow-list too.
      return { html: trusted ? html : sanitizeHtml(html), headings };
    },
    async highlight(code, language) {
      const [, lang = '', meta = ''] = /^(\S*)\s*(.*)$/s.exec(language.trim())!;
      if (NOT_HIGHLIGHTED.includes(lang)) return (await renderer.render(fenced(code, language))).html;
      // What a fenced block hands the highlighter: markdown ends a line at a lone `\r` and drops NUL.
      const pre = await highlight(code.replace(/\r\n?/g, '\n').replaceAll('\0', ''), lang === '' ? 'plaintext' : lang, meta === '' ? undefined : meta);
      return serialize({ type: 'root', children: [pre] } satisfies Root);
    },
  };
  return renderer;
}

/** `code` as a fenced block in `language`, its fence longer than any run of backticks in it. */
function fenced(code: string, language: string): string {
  const fence = '`'.repeat(Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
  return `${fence}${language}\n${code}\n${fence}\n`;
}
