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
import type { MdastPluginDefinition } from 'satteri';
import { loadMdxParser, parseMdx, type MdxSyntaxError } from '../../kb/markdown/mdx-parser.ts';
import { createCodeHighlighter } from './code-highlighter.ts';
import { createHastSerializer } from './hast-html.ts';
import { createDiagramsPlugin } from './diagram-blocks.ts';
import { createAlertsPlugin, mayHoldAlert } from './github-alerts.ts';
import { createLinksPlugin, type RenderContext } from './markdown-plugins.ts';
import { createTaskListPlugin } from './task-lists.ts';
import { CONTENT_NEEDS, createDollarsPlugin, createMathPlugin, mayHoldMath, type ContentNeeds } from './math-formulas.ts';
import { mapMdxTree } from './mdx-components.ts';
import type { MarkdownNode } from './site-elements.ts';
import { createHtmlSanitizer, createRawTextGuardPlugin, mayNeedRawTextGuard } from './sanitize-html.ts';

/** The code themes of the site: `--shiki-light` and `--shiki-dark` variables on every token. */
export const CODE_THEMES = { light: 'github-light-default', dark: 'github-dark-default' } as const;

/** A heading of a rendered document. */
export interface RenderedHeading {
  depth: number;
  slug: string;
  text: string;
}

/** A rendered document: its HTML, its headings, and what its page must load to show it. */
export interface RenderedDocument {
  html: string;
  headings: RenderedHeading[];
  /** Present when the document holds math or diagrams (math-formulas.ts, diagram-blocks.ts). */
  needs?: ContentNeeds;
}

/** Renders markdown to HTML for the site. */
export interface MarkdownRenderer {
  /** Renders `markdown`; `fileUrl` is the file it came from, which relative links are resolved from. */
  render(markdown: string, fileUrl?: URL): Promise<RenderedDocument>;
  /**
   * Renders MDX (content/reference/subject-formats.md, "MDX") as markdown: components mapped to the
   * site's elements, nothing evaluated. A text that is not valid MDX is rendered as plain markdown;
   * `error` then says why.
   */
  renderMdx(mdx: string, fileUrl?: URL): Promise<RenderedDocument & { error: MdxSyntaxError | undefined }>;
  /**
   * `code` as one highlighted block (a `<pre>`) in `language` (a fence's info string): the HTML a
   * fenced block of it renders to, made without reading markdown.
   */
  highlight(code: string, language: string): Promise<string>;
}

/** Languages whose fenced blocks are not highlighted: math is typeset, diagrams drawn. */
const NOT_HIGHLIGHTED = ['math', 'mermaid'];

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
    loadMdxParser(),
  ]);
  const guard = createRawTextGuardPlugin();
  const alerts = createAlertsPlugin();
  const dollars = createDollarsPlugin();
  /**
   * The mdast plugins a document needs: each is left out when its source cannot hold what the
   * plugin changes, so the rendering is the same. Sätteri reads a document that no mdast plugin
   * visits without building its tree in JavaScript: about half the time of a subject, and less
   * of the memory it keeps for every document (content/reference/decisions.md, "The render
   * stage's workers"). An MDX tree comes from elsewhere: it gets them all.
   */
  const mdastPluginsFor = (markdown: string, trusted: boolean, tree: boolean): MdastPluginDefinition[] => [
    ...(!trusted && (tree || mayNeedRawTextGuard(markdown)) ? [guard] : []),
    ...(tree || mayHoldAlert(markdown) ? [alerts] : []),
    ...(tree || mayHoldMath(markdown) ? [dollars] : []),
  ];
  const hastPlugins = [
    satteriHighlightPlugin(highlight, NOT_HIGHLIGHTED),
    createMathPlugin(),
    createDiagramsPlugin(),
    createTaskListPlugin(),
    createLinksPlugin(context),
    satteriHeadingIdsPlugin(),
  ];
  /** Renders `markdown`, or the tree `tree` in its place when given. */
  const renderMarkdown = async (markdown: string, fileUrl: URL | undefined, tree?: MarkdownNode): Promise<RenderedDocument> => {
    const trusted = context().allowHtml;
    const astro = { frontmatter: {}, headings: [] as RenderedHeading[], localImagePaths: new Set<string>(), remoteImagePaths: new Set<string>() };
    const replace: MdastPluginDefinition[] = tree ? [{ name: 'syllabus-mdx-tree', before: (root, ctx) => ctx.replaceNode(root, tree) }] : [];
    const { html, data } = await satteri.markdownToHtml(markdown, {
      mdastPlugins: [...replace, ...mdastPluginsFor(markdown, trusted, tree !== undefined)],
      hastPlugins,
      features: { gfm: true, math: true, smartPunctuation: true, rawHtml: true },
      ...(fileUrl ? { fileURL: fileUrl } : {}),
      data: { astro },
    });
    const headings = (data.astro?.headings ?? []).map(({ depth, slug, text }) => ({ depth, slug, text }));
    const needs = data[CONTENT_NEEDS] as ContentNeeds | undefined;
    // The whole fragment the renderer made is sanitised, so its own output passes the allow-list too.
    return { html: trusted ? html : sanitizeHtml(html), headings, ...(needs ? { needs } : {}) };
  };
  const renderer: MarkdownRenderer = {
    render: (markdown, fileUrl) => renderMarkdown(markdown, fileUrl),
    async renderMdx(mdx, fileUrl) {
      const parsed = parseMdx(mdx);
      if (!parsed.ok) return { ...(await renderMarkdown(mdx, fileUrl)), error: parsed.error };
      // The tree replaces the empty document's: the rest of the rendering is a markdown page's.
      return { ...(await renderMarkdown('', fileUrl, mapMdxTree(parsed.tree as MarkdownNode, mdx))), error: undefined };
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
