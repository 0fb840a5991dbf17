/**
 * `find` (content/reference/cli/find.md) against a published site: the catalog gives each listed
 * subject's title and summary, `/kb/keywords.json` its search terms and confidence; joined, they are
 * the entries the core ranks, so that the answer is the one local files give.
 */
import type { FindEntry } from '../kb/view/find.ts';
import { decodeSearchDocument } from '../kb/view/search-terms.ts';
import type { KeywordsFile, SiteIndex } from '../kb/publish/endpoint-schemas.ts';
import { RemoteError } from './fetch-json.ts';
import type { RemoteSite } from './remote-site.ts';

/** What `find` ranks on a site: its entries and its topics (for `--topic`). */
export interface RemoteFindData {
  entries: FindEntry[];
  topics: { id: string; title: string | undefined }[];
}

/**
 * Joins a catalog and a keywords file: both list the same topics and subjects in the same order,
 * or they come from different builds, which is an error.
 */
export function joinFindData(site: Pick<RemoteSite, 'indexUrl' | 'keywordsUrl'>, index: SiteIndex, keywords: KeywordsFile): RemoteFindData {
  const mismatch = (what: string): RemoteError =>
    new RemoteError(
      `${site.keywordsUrl} does not match the catalog (${site.indexUrl}): ${what}. The site's files come from different builds (a partial upload, or a cache still serving old files); republish the whole site, or try again later.`,
    );
  const topicIds = (list: readonly { id: string }[]): string => JSON.stringify(list.map((t) => t.id));
  if (topicIds(index.topics) !== topicIds(keywords.topics)) throw mismatch(`its topics are ${topicIds(keywords.topics)}, the catalog's ${topicIds(index.topics)}`);
  const entries: FindEntry[] = [];
  index.topics.forEach((topic, t) => {
    const subjects = keywords.topics[t]!.subjects;
    const slugs = (list: readonly { slug: string }[]): string[] => list.map((s) => s.slug);
    if (JSON.stringify(slugs(topic.subjects)) !== JSON.stringify(slugs(subjects))) throw mismatch(`the subjects of topic ${JSON.stringify(topic.id)} differ`);
    topic.subjects.forEach((subject, i) => {
      const { lengths, terms, confidence } = subjects[i]!;
      entries.push({ topic: topic.id, slug: subject.slug, title: subject.title, summary: subject.summary, document: decodeSearchDocument({ lengths, terms }), confidence });
    });
  });
  return { entries, topics: index.topics.map((t) => ({ id: t.id, title: t.title ?? undefined })) };
}
