/**
 * Broken links (`check`, content/reference/cli/check.md): relative links and images in markdown
 * subjects that the built site cannot follow. Links resolve as the site resolves them
 * (`resolveSubjectLink`); external URLs, site-absolute paths and bare `#fragments` are not checked,
 * and fragments are not checked.
 */
import type { Catalog, CatalogSubject, CatalogTopic } from '../catalog/catalog.ts';
import { isCheckedMarkdown, outlineOf, placeIn, type MarkdownLink, type OutlineMemo } from './markdown-facts.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { resolveSubjectLink, type LinkTopic } from '../subjects/relative-links.ts';
import { isPublishedRaw } from '../subjects/format.ts';
import { slugOf } from '../subjects/slug.ts';

/** What links can reach in one topic. */
interface TopicTargets {
  topic: CatalogTopic;
  /** Slugs of its enabled subjects, hidden ones included: each has a page. */
  slugs: Set<string>;
  /** Folder slugs the topic page shows: every folder holding a listed (visible) subject. */
  folders: Set<string>;
  /** Enabled subjects by their path in the topic folder, as on disk. */
  byPath: Map<string, CatalogSubject>;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * A `broken-link` warning for every relative link (`[text](url)`, `[label]: url`) or image
 * (`![alt](url)`) in a markdown subject that does not resolve on the site:
 * - a link to a file must name an enabled subject (hidden ones have pages; disabled ones do not);
 * - a link to a folder (`dir/`) must name a folder that holds a listed subject, or the topic's own
 *   folder: only those appear on the topic page;
 * - an image must name a file the site publishes as a file: a binary or oversized subject, or an
 *   SVG when `[site] allow_html` is true;
 * - a relative link that leaves every topic folder is broken: the site publishes nothing there.
 *
 * `outlines` keeps the subjects' outlines between runs.
 */
export function checkLinks(catalog: Catalog, site: { allow_html: boolean }, outlines?: OutlineMemo): Diagnostic[] {
  const linkTopics: LinkTopic[] = catalog.topics.map((t) => ({ id: t.id, dir: t.dir }));
  const targets = new Map(catalog.topics.map((topic) => [topic.id, targetsOf(topic)]));
  const diagnostics: Diagnostic[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      // Cheap test first: most subjects have no link syntax at all, and parsing costs.
      if (!isCheckedMarkdown(subject) || !/\]\(|\]:/.test(subject.content)) continue;
      for (const link of outlineOf(subject, outlines).links) {
        const problem = linkProblem(link, subject, linkTopics, targets, site.allow_html);
        if (problem === undefined) continue;
        const what = link.kind === 'image' ? 'image' : 'link';
        diagnostics.push({
          kind: 'warning',
          code: 'broken-link',
          message: `Broken ${what} ${JSON.stringify(link.url)}: ${problem}`,
          file: subject.file,
          ...placeIn(subject, link),
        });
      }
    }
  }
  return diagnostics;
}

function targetsOf(topic: CatalogTopic): TopicTargets {
  const folders = new Set<string>(['']);
  for (const subject of topic.subjects) {
    if (subject.hidden) continue;
    for (let slash = subject.slug.indexOf('/'); slash !== -1; slash = subject.slug.indexOf('/', slash + 1)) folders.add(subject.slug.slice(0, slash));
  }
  return {
    topic,
    slugs: new Set(topic.subjects.map((s) => s.slug)),
    folders,
    byPath: new Map(topic.subjects.map((s) => [s.path, s])),
  };
}

/** Why a link does not resolve (the rest of the message), or undefined when it does. */
function linkProblem(
  link: MarkdownLink,
  from: CatalogSubject,
  linkTopics: readonly LinkTopic[],
  targets: ReadonlyMap<string, TopicTargets>,
  allowHtml: boolean,
): string | undefined {
  // As the site's markdown renderer writes it: a "%" that starts no %XX escape is the character itself.
  const href = link.url.replace(/%(?![0-9A-Fa-f]{2})/g, '%25');
  if (href === '' || href.startsWith('#') || href.startsWith('/') || href.startsWith('\\') || SCHEME.test(href)) return undefined;
  const target = resolveSubjectLink(href, from, linkTopics);
  if (!target) return unresolvedProblem(href);
  const { topic, slugs, folders, byPath } = targets.get(target.topic)!;
  const inTopic = `topic ${JSON.stringify(topic.id)}`;
  if (link.kind === 'image') {
    if (target.folder) return 'it names a folder, not a file. Name the image file.';
    const subject = byPath.get(target.path);
    if (!subject) return `${inTopic} has no file ${JSON.stringify(target.path)} (it is missing, disabled, or not a subject). Fix the path, or add the file.`;
    const { extension } = slugOf(subject.path);
    if (isPublishedRaw(subject.skipped, extension, allowHtml)) return undefined;
    if (extension === 'svg') {
      return "the site publishes SVG files only with [site] allow_html = true, because an SVG can run scripts. Use a PNG, or trust the content's HTML.";
    }
    return `the site shows ${JSON.stringify(target.path)} as a page, not as an image file. Link it with [text](…), or name an image.`;
  }
  if (target.folder) {
    if (folders.has(target.slug)) return undefined;
    return `${inTopic} has no folder ${JSON.stringify(target.slug)} with listed subjects, so its page shows no such folder. Fix the link.`;
  }
  if (slugs.has(target.slug)) return undefined;
  if (folders.has(target.slug)) return `${JSON.stringify(target.slug)} is a folder of ${inTopic}, not a subject. End the link with "/" to link the folder.`;
  return `${inTopic} has no subject ${JSON.stringify(target.slug)} (it is missing or disabled). Fix the link, or add the subject.`;
}

/** Why `resolveSubjectLink` left a relative link as written. */
function unresolvedProblem(href: string): string | undefined {
  const path = href.split('#', 1)[0]!.split('?', 1)[0]!;
  if (path === '') return undefined;
  try {
    decodeURIComponent(path);
  } catch {
    return 'its %XX escapes do not decode to UTF-8 text. Fix the escapes, or write the characters themselves.';
  }
  return 'it leaves every topic folder, and the site publishes only what topic folders hold. Link to a subject, or write an absolute URL.';
}
