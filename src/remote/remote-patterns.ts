/**
 * The subjects patterns may select in a topic of a published site (content/reference/patterns.md).
 * The catalog lists visible subjects only, so the exact-equality step asks the site for a hidden
 * subject at the address of each name a pattern can give exactly (as given, then without leading
 * dots); the knowledge view then resolves over the listed subjects and the hidden ones found, as
 * it does over local files.
 */
import { compareStrings } from '../kb/diagnostics/diagnostics.ts';
import type { TopicSubjects } from '../kb/view/view.ts';
import { exactNames } from '../kb/subjects/resolve.ts';
import type { SubjectFile, TopicEntry } from '../kb/publish/endpoint-schemas.ts';
import { MAX_CONCURRENT_REQUESTS, mapBounded } from '../net/bounded-calls.ts';
import type { RemoteSite } from './remote-site.ts';

/**
 * The listed subjects of a catalog topic and the hidden ones `patterns` name exactly, asked for a
 * few at a time; `load` fetches the listed ones it is asked for (verified against the catalog).
 */
export async function remoteSubjects(site: RemoteSite, topic: TopicEntry, patterns: readonly string[]): Promise<TopicSubjects> {
  const listed = new Map(topic.subjects.map((s) => [s.slug, s]));
  const probes = new Set<string>();
  for (const pattern of patterns) {
    for (const slug of exactNames(pattern)) {
      if (listed.has(slug)) break;
      if (couldBeSlug(slug)) probes.add(slug);
    }
  }
  const found = await mapBounded([...probes], MAX_CONCURRENT_REQUESTS, (slug) => site.findSubject(topic.id, slug));
  const hidden = new Map<string, SubjectFile>();
  for (const subject of found) if (subject) hidden.set(subject.slug, subject);

  const subjects = [...topic.subjects.map((s) => ({ slug: s.slug, hidden: false })), ...[...hidden.keys()].map((slug) => ({ slug, hidden: true }))];
  subjects.sort((a, b) => compareStrings(a.slug, b.slug));
  return {
    subjects,
    bySlug: new Map(subjects.map((s) => [s.slug, s])),
    load: (slugs) =>
      mapBounded(slugs, MAX_CONCURRENT_REQUESTS, async (slug) => {
        const subject = hidden.get(slug) ?? (await site.listedSubject(topic.id, listed.get(slug)!));
        return { slug, content: subject.content };
      }),
  };
}

/** Whether a slug could exist: none has an empty segment. Others are not worth a request. */
function couldBeSlug(slug: string): boolean {
  return slug.split('/').every((segment) => segment !== '');
}
