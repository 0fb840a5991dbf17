/**
 * The site's markdown renderer: Sätteri (the Rust markdown processor Astro uses), Shiki
 * highlighting in a light and a dark theme, heading ids, and Syllabus's own link and sanitising
 * plugins. Made once per process and used for every subject and topic description, by the build,
 * the development server and a host site's integration alike, so that a subject renders the same
 * wherever it is shown.
 */
import { satteriCreateHighlightFn, satteriHeadingIdsPlugin, satteriHighlightPlugin } from '@astrojs/markdown-satteri';
import { createLinksPlugin, createSanitizePlugin, type RenderContext } from './markdown-plugins.ts';

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
}

/**
 * Makes the renderer. `context` is read at every render: the site it renders for may change while
 * the renderer lives (the development server reads the knowledge base again after an edit).
 */
export async function createMarkdownRenderer(context: () => RenderContext): Promise<MarkdownRenderer> {
  const [satteri, highlight] = await Promise.all([
    import('satteri'),
    satteriCreateHighlightFn({ type: 'shiki', excludeLangs: ['math'] }, { themes: CODE_THEMES, defaultColor: false, langs: [], langAlias: {}, wrap: false, transformers: [] }),
  ]);
  const hastPlugins = [satteriHighlightPlugin(highlight!, ['math']), createLinksPlugin(context), createSanitizePlugin(context), satteriHeadingIdsPlugin()];
  return {
    async render(markdown, fileUrl) {
      const astro = { frontmatter: {}, headings: [] as RenderedHeading[], localImagePaths: new Set<string>(), remoteImagePaths: new Set<string>() };
      const { html, data } = await satteri.markdownToHtml(markdown, {
        hastPlugins,
        features: { gfm: true, smartPunctuation: true, rawHtml: true },
        ...(fileUrl ? { fileURL: fileUrl } : {}),
        data: { astro },
      });
      const headings = (data.astro?.headings ?? []).map(({ depth, slug, text }) => ({ depth, slug, text }));
      return { html, headings };
    },
  };
}
