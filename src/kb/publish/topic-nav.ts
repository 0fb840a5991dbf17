/**
 * `/kb/nav/<topic>.json`: the compact tree of a topic that the sidebar of its subject pages loads
 * once and keeps (content/guide/the-site.md, "The topic sidebar"). Listed subjects only: hidden
 * ones are never in it.
 */
import type { CatalogSubject, CatalogTopic } from '../catalog/catalog.ts';
import { FORMAT_VERSION, type TopicNavEntry, type TopicNavFile } from './endpoint-schemas.ts';
import { topicUrl } from './site-urls.ts';

/** `/kb/nav/<topic>.json`. */
export function topicNavUrl(base: string, topic: string): string {
  return `${base}kb/nav/${topic}.json`;
}

/**
 * The entries of a topic's tree in reading order (a folder, then what it holds): folders and
 * subjects interleaved as their slugs sort, so that subjects come in the order of the pages'
 * previous and next links. `subjects` must be in slug order, as the catalog keeps them.
 */
export function buildNavEntries(subjects: readonly Pick<CatalogSubject, 'slug' | 'address' | 'title'>[]): TopicNavEntry[] {
  const entries: TopicNavEntry[] = [];
  /** The folders of the last subject, outermost first, with their entries (to count into). */
  let open: { name: string; entry: Extract<TopicNavEntry, { folder: string }> }[] = [];
  for (const subject of subjects) {
    const segments = subject.slug.split('/');
    const folders = segments.slice(0, -1);
    let shared = 0;
    while (shared < open.length && shared < folders.length && open[shared]!.name === folders[shared]) shared++;
    open = open.slice(0, shared);
    for (let depth = shared; depth < folders.length; depth++) {
      const entry = { folder: folders[depth]!, depth, count: 0 };
      entries.push(entry);
      open.push({ name: folders[depth]!, entry });
    }
    for (const folder of open) folder.entry.count++;
    entries.push({ title: subject.title, address: subject.address, depth: folders.length });
  }
  return entries;
}

/** The nav file of a topic, its listed subjects only. */
export function buildTopicNav(topic: CatalogTopic, base: string): TopicNavFile {
  return {
    version: FORMAT_VERSION,
    topic: topic.id,
    title: topic.title ?? topic.id,
    url: topicUrl(base, topic.id),
    entries: buildNavEntries(topic.subjects.filter((s) => !s.hidden)),
  };
}

/** Serialises a nav file on one line: it is read by browsers, and a large topic's tree stays small. */
export function serializeTopicNav(nav: TopicNavFile): string {
  return `${JSON.stringify(nav)}\n`;
}
