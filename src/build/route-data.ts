/**
 * What each page shows, computed once from the catalog: pure functions, no Astro.
 * Navigation is bounded per page (breadcrumbs, a small folder, previous/next); whole trees only
 * appear on the topic page, which is the list page of its topic.
 */
import path from 'node:path';
import type { Catalog, CatalogSubject, CatalogTopic } from '../kb/catalog/catalog.ts';
import type { SiteConfig } from '../kb/config/schema.ts';
import { IMAGE_EXTENSIONS, isPublishedRaw } from '../kb/subjects/format.ts';
import { folderAnchor, folderUrl, markdownUrl, normalizeBase, rawUrl, subjectJsonUrl, subjectUrl, topicUrl } from '../kb/publish/site-urls.ts';
import { slugOf } from '../kb/subjects/slug.ts';

/** Folders with at most this many listed subjects are listed on their subjects' pages. */
export const SMALL_FOLDER = 25;

/** A link with its label. */
export interface NavLink {
  label: string;
  url: string;
}

/** The folder a subject sits in, as its page shows it. */
export interface FolderNav {
  /** The folder's slug (`''` for the topic's top level). */
  slug: string;
  url: string;
  /**
   * The folder's subjects when it is small, else null (the topic page lists them). A large
   * folder's pages show no count either, so that adding a subject changes only its neighbours.
   */
  siblings: (NavLink & { current: boolean })[] | null;
}

/** How a subject whose content was skipped is offered on its page. */
export type SubjectMedia = 'image' | 'download' | null;

/** One subject page. */
export interface SubjectRoute {
  subject: CatalogSubject;
  url: string;
  markdownUrl: string;
  jsonUrl: string;
  /** URL of the file as stored, when it is published (skipped subjects), else null. */
  rawUrl: string | null;
  media: SubjectMedia;
  description: string | undefined;
  breadcrumbs: NavLink[];
  folder: FolderNav | null;
  previous: NavLink | null;
  next: NavLink | null;
  /** Last commit date (ISO 8601) of the file, when git knows it; for a URL source, when it was fetched. */
  updated: string | null;
  /** The file in the repository (`[site] repository`); null for a URL source, which links to its URL instead. */
  editUrl: string | null;
  /** The URL a URL source was fetched from; null for a file. */
  sourceUrl: string | null;
}

/** A folder on a topic page. */
export interface TreeFolder {
  name: string;
  slug: string;
  anchor: string;
  folders: TreeFolder[];
  subjects: TreeSubject[];
  /** Listed subjects in this folder and below. */
  count: number;
}

/** A subject on a topic page. */
export interface TreeSubject {
  title: string;
  slug: string;
  url: string;
  learned: boolean;
  media: SubjectMedia;
}

/** One topic page. */
export interface TopicRoute {
  topic: CatalogTopic;
  title: string;
  url: string;
  /** Listed (not hidden) subjects. */
  count: number;
  tree: TreeFolder;
}

/** Everything the pages need. */
export interface SiteRoutes {
  base: string;
  site: SiteConfig;
  topics: TopicRoute[];
  subjects: SubjectRoute[];
}

/** What git knows of the files (one `git log` pass), and where the repository starts. */
export interface FileHistory {
  /** Absolute file path → last commit time, seconds since the epoch. */
  updated: ReadonlyMap<string, number>;
  /** The repository's top folder (its real path), or undefined outside git. */
  root: string | undefined;
  /** The real path of a catalog file, as git names it (topic folders may be reached through symlinks). */
  realPathOf(file: string): string;
}

/** Computes every page's data. `sourceRoot` is the folder edit links are relative to outside git. */
export function buildSiteRoutes(catalog: Catalog, site: SiteConfig, history: FileHistory, sourceRoot: string): SiteRoutes {
  const base = normalizeBase(site.base);
  const topics: TopicRoute[] = [];
  const subjects: SubjectRoute[] = [];
  for (const topic of catalog.topics) {
    const listed = topic.subjects.filter((s) => !s.hidden);
    topics.push({ topic, title: topic.title ?? topic.id, url: topicUrl(base, topic.id), count: listed.length, tree: buildTree(base, topic.id, listed) });
    const folders = groupByFolder(listed);
    const position = new Map(listed.map((s, i) => [s, i]));
    for (const subject of topic.subjects) {
      const index = position.get(subject);
      const link = (s: CatalogSubject | undefined): NavLink | null => (s ? { label: s.title, url: subjectUrl(base, topic.id, s.address) } : null);
      subjects.push({
        subject,
        url: subjectUrl(base, topic.id, subject.address),
        markdownUrl: markdownUrl(base, topic.id, subject.address),
        jsonUrl: subjectJsonUrl(base, topic.id, subject.address),
        rawUrl: isPublishedRaw(subject.skipped, slugOf(subject.path).extension, site.allow_html) ? rawUrl(base, topic.id, subject.address, path.basename(subject.path)) : null,
        media: mediaOf(subject),
        description: descriptionOf(subject),
        breadcrumbs: breadcrumbsOf(base, topic, subject),
        folder: subject.hidden ? null : folderNav(base, topic.id, subject, folders.get(folderOf(subject.slug)) ?? []),
        previous: index === undefined ? null : link(listed[index - 1]),
        next: index === undefined ? null : link(listed[index + 1]),
        updated: subject.source ? subject.source.fetchedAt : dateOf(history.updated.get(subject.file)),
        editUrl: site.repository && !subject.source ? editUrl(site, history.root ?? sourceRoot, history.root ? history.realPathOf(subject.file) : subject.file) : null,
        sourceUrl: subject.source ? subject.source.url : null,
      });
    }
  }
  return { base, site, topics, subjects };
}

/** The folder slug of a subject slug (`a/b/c` → `a/b`, `c` → `''`). */
export function folderOf(slug: string): string {
  const slash = slug.lastIndexOf('/');
  return slash === -1 ? '' : slug.slice(0, slash);
}

function mediaOf(subject: CatalogSubject): SubjectMedia {
  if (subject.skipped === 'binary' && IMAGE_EXTENSIONS.has(slugOf(subject.path).extension)) return 'image';
  if (subject.skipped === 'binary' || subject.skipped === 'too-large') return 'download';
  return null;
}

/** The page's description: the subject's summary (its front matter description, else its first paragraph). */
function descriptionOf(subject: CatalogSubject): string | undefined {
  return subject.summary === '' ? undefined : subject.summary;
}

function breadcrumbsOf(base: string, topic: CatalogTopic, subject: CatalogSubject): NavLink[] {
  const crumbs: NavLink[] = [{ label: topic.title ?? topic.id, url: topicUrl(base, topic.id) }];
  const segments = subject.slug.split('/');
  for (let i = 1; i < segments.length; i++) {
    const folder = segments.slice(0, i).join('/');
    crumbs.push({ label: segments[i - 1]!, url: folderUrl(base, topic.id, folder) });
  }
  return crumbs;
}

function groupByFolder(listed: CatalogSubject[]): Map<string, CatalogSubject[]> {
  const folders = new Map<string, CatalogSubject[]>();
  for (const subject of listed) {
    const folder = folderOf(subject.slug);
    let members = folders.get(folder);
    if (!members) folders.set(folder, (members = []));
    members.push(subject);
  }
  return folders;
}

function folderNav(base: string, topic: string, subject: CatalogSubject, members: CatalogSubject[]): FolderNav {
  const slug = folderOf(subject.slug);
  return {
    slug,
    url: folderUrl(base, topic, slug),
    siblings: members.length <= SMALL_FOLDER ? members.map((s) => ({ label: s.title, url: subjectUrl(base, topic, s.address), current: s === subject })) : null,
  };
}

function buildTree(base: string, topic: string, listed: CatalogSubject[]): TreeFolder {
  const root: TreeFolder = { name: '', slug: '', anchor: 'subjects', folders: [], subjects: [], count: 0 };
  const index = new Map<string, TreeFolder>([['', root]]);
  const folderFor = (slug: string): TreeFolder => {
    const found = index.get(slug);
    if (found) return found;
    const parent = folderFor(folderOf(slug));
    const name = slug.slice(slug.lastIndexOf('/') + 1);
    const folder: TreeFolder = { name, slug, anchor: folderAnchor(slug), folders: [], subjects: [], count: 0 };
    parent.folders.push(folder);
    index.set(slug, folder);
    return folder;
  };
  for (const subject of listed) {
    const folder = folderFor(folderOf(subject.slug));
    folder.subjects.push({ title: subject.title, slug: subject.slug, url: subjectUrl(base, topic, subject.address), learned: subject.learned, media: mediaOf(subject) });
    for (let f: string | null = folder.slug; f !== null; f = f === '' ? null : folderOf(f)) index.get(f)!.count++;
  }
  return root;
}

function dateOf(seconds: number | undefined): string | null {
  return seconds === undefined ? null : new Date(seconds * 1000).toISOString();
}

function editUrl(site: SiteConfig, root: string, file: string): string {
  const relative = path.relative(root, file).split(path.sep).map(encodeURIComponent).join('/');
  return `${site.repository!.replace(/\/+$/, '')}/edit/${encodeURIComponent(site.branch)}/${relative}`;
}
