/**
 * Hast plugins of the markdown renderer (Sätteri): relative links rewritten to the built site's
 * URLs, and raw HTML sanitised unless `[site] allow_html = true`. Both read what they need from a
 * {@link RenderContext} getter: the renderer is made once, the site it renders for may change (the
 * development server reads the knowledge base again after an edit).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HastPluginDefinition } from 'satteri';
import { addressOf } from '../../kb/address.ts';
import type { CatalogSubject } from '../../kb/catalog.ts';
import { resolveSubjectLink, type LinkTopic } from '../../kb/links.ts';
import { folderUrl, subjectUrl } from '../../kb/site-urls.ts';

/** What rendering a subject depends on besides the subject itself. */
export interface RenderContext {
  /** `[site] allow_html`: raw HTML is kept as written. */
  allowHtml: boolean;
  /** The site's base path (`/`, `/docs/`). */
  base: string;
  /** Topics as relative links resolve them. */
  linkTopics: LinkTopic[];
  /** Subjects by absolute file path: a link is resolved from the subject that holds it. */
  byFile: ReadonlyMap<string, CatalogSubject>;
  /** The published URL of each file shown as an image or a download, by absolute file path. */
  rawUrls: ReadonlyMap<string, string>;
}

/** Elements removed with their content: they run code, load other documents or take input. */
const REMOVED_ELEMENTS = [
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'base', 'link', 'meta',
  'form', 'input', 'button', 'textarea', 'select', 'option', 'noscript', 'template', 'svg', 'math', 'portal',
];

/** Attributes holding a URL, checked against the allowed schemes. */
const URL_PROPERTIES = ['href', 'src', 'cite', 'action', 'formAction', 'poster', 'background', 'xLinkHref', 'data', 'ping'];
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel', 'ftp']);
// Shiki writes colours as inline styles; nothing else may style the page.
const SAFE_STYLE = /^(\s*(color|background-color|--shiki-[a-z-]+|font-style|font-weight|text-decoration|overflow-x)\s*:\s*[#\w.,%() -]+;?)*\s*$/i;

/** Whether a URL is safe to keep: relative, or one of the allowed schemes (images may be `data:image/`). */
export function isSafeUrl(value: string, image: boolean): boolean {
  // Browsers ignore control characters and whitespace inside a scheme (`java\tscript:`).
  const compact = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1];
  if (scheme === undefined) return true;
  if (image && scheme === 'data') return compact.startsWith('data:image/') && !compact.startsWith('data:image/svg');
  return SAFE_SCHEMES.has(scheme);
}

/** Removes what could run code in the reader's browser, unless the context allows raw HTML. */
export function createSanitizePlugin(context: () => Pick<RenderContext, 'allowHtml'>): HastPluginDefinition {
  return {
    name: 'syllabus-sanitize',
    raw(node, ctx) {
      if (context().allowHtml) return;
      ctx.removeNode(node);
    },
    element: [
      {
        filter: REMOVED_ELEMENTS,
        visit(node, ctx) {
          if (context().allowHtml) return;
          ctx.removeNode(node);
        },
      },
      {
        filter: [],
        visit(node, ctx) {
          if (context().allowHtml) return;
          const properties = node.properties ?? {};
          for (const [key, value] of Object.entries(properties)) {
            const lower = key.toLowerCase();
            if (lower.startsWith('on') || lower === 'srcset' || lower === 'formaction') {
              ctx.setProperty(node, key, null);
            } else if (lower === 'style' && !SAFE_STYLE.test(String(value))) {
              ctx.setProperty(node, key, null);
            } else if (URL_PROPERTIES.some((p) => p.toLowerCase() === lower) && !isSafeUrl(String(value), node.tagName === 'img' && lower === 'src')) {
              ctx.setProperty(node, key, null);
            }
          }
        },
      },
    ],
  };
}

/** Rewrites relative links between subjects, and to images in topic folders, to the site's URLs. */
export function createLinksPlugin(context: () => RenderContext): HastPluginDefinition {
  return {
    name: 'syllabus-links',
    element: {
      filter: ['a', 'img'],
      visit(node, ctx) {
        const data = context();
        if (!ctx.fileURL) return;
        const from = data.byFile.get(fileURLToPath(ctx.fileURL));
        if (!from) return;
        const key = node.tagName === 'a' ? 'href' : 'src';
        const value = node.properties?.[key];
        if (typeof value !== 'string') return;
        const target = resolveSubjectLink(value, from, data.linkTopics);
        if (!target) return;
        const { base } = data;
        let url: string | undefined;
        if (node.tagName === 'img') {
          // Only files the site publishes have an address; any other image is left as written.
          const dir = data.linkTopics.find((t) => t.id === target.topic)!.dir;
          url = target.folder ? undefined : data.rawUrls.get(path.join(dir, target.path));
        } else {
          url = target.folder ? folderUrl(base, target.topic, target.slug) : subjectUrl(base, target.topic, addressOf(target.slug)) + target.fragment;
        }
        if (url !== undefined) ctx.setProperty(node, key, url);
      },
    },
  };
}
