/**
 * The markdown renderer's own hast plugin (Sätteri): relative links rewritten to the built site's
 * URLs. It reads what it needs from a {@link RenderContext} getter: the renderer is made once, the
 * site it renders for may change (the development server reads the knowledge base again after an
 * edit). Sanitising is sanitize-html.ts's.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HastPluginDefinition } from 'satteri';
import { addressOf } from '../../kb/subjects/address.ts';
import type { CatalogSubject } from '../../kb/catalog/catalog.ts';
import { resolveSubjectLink, type LinkTopic } from '../../kb/subjects/relative-links.ts';
import { folderUrl, subjectUrl } from '../../kb/publish/site-urls.ts';

/** What rendering a subject depends on besides the subject itself. */
export interface RenderContext {
  /** `[site] allow_html`: the content is trusted, its HTML kept as written instead of sanitised. */
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
