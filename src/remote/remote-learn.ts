/** The `learn` tool (SPEC 4) answered from a published site, byte for byte as from local files. */
import { type LearnArguments, type Outcome, noMatchMessage, renderListing, renderLoaded, resolveTopicId } from '../kb/knowledge/learn.ts';
import type { SiteIndex, TopicEntry } from '../kb/publish/endpoint-schemas.ts';
import { MAX_CONCURRENT_REQUESTS, mapBounded } from '../net/bounded-calls.ts';
import { resolveRemotePatterns } from './remote-patterns.ts';
import type { RemoteSite } from './remote-site.ts';

/** The learned slugs of a topic, by topic id. */
export type LearnedSets = (topicId: string) => ReadonlySet<string>;

/** The topics of a catalog as topic resolution sees them. */
export function topicIdentities(index: SiteIndex): { id: string; title: string | undefined }[] {
  return index.topics.map((t) => ({ id: t.id, title: t.title ?? undefined }));
}

/** The learned subjects of a catalog as the site's own config pre-loads them (no profile, no `-k`). */
export function learnedInIndex(index: SiteIndex): LearnedSets {
  const sets = new Map(index.topics.map((t) => [t.id, new Set(t.subjects.filter((s) => s.learned).map((s) => s.slug))]));
  return (topicId) => sets.get(topicId) ?? new Set();
}

/**
 * Runs `learn` against a site: the topic and the listing come from the catalog; patterns resolve
 * with the core's rules (hidden subjects found at their addresses); contents are fetched, a few at
 * a time, and verified. Tool errors are outcomes; a site that cannot be read throws a RemoteError.
 */
export async function runRemoteLearn(site: RemoteSite, index: SiteIndex, learned: LearnedSets, args: LearnArguments): Promise<Outcome> {
  const resolved = resolveTopicId(topicIdentities(index), args.topic);
  if (!resolved.ok) return resolved;
  const topic = index.topics.find((t) => t.id === resolved.id)!;
  const learnedSet = learned(topic.id);
  if (args.patterns.length === 0) return { ok: true, text: renderListing(listRemoteTopic(topic, learnedSet)) };

  const { resolution, hidden } = await resolveRemotePatterns(site, topic, args.patterns, learnedSet);
  if (!resolution.ok) return { ok: false, message: resolution.message };
  if (resolution.slugs.length === 0) return { ok: false, message: noMatchMessage(topic.id, args.patterns) };
  const bare = args.patterns.length === 1 && resolution.matches[0]!.exact;
  const entries = new Map(topic.subjects.map((s) => [s.slug, s]));
  const loaded = await mapBounded(resolution.slugs, MAX_CONCURRENT_REQUESTS, async (slug) => {
    const subject = hidden.get(slug) ?? (await site.listedSubject(topic.id, entries.get(slug)!));
    return { slug, content: subject.content };
  });
  return { ok: true, text: renderLoaded(loaded, bare) };
}

/** What the listing of a catalog topic shows: listed subjects, learned ones apart, in slug order. */
function listRemoteTopic(topic: TopicEntry, learned: ReadonlySet<string>) {
  const available: string[] = [];
  const learnedSlugs: string[] = [];
  for (const subject of topic.subjects) (learned.has(subject.slug) ? learnedSlugs : available).push(subject.slug);
  return { id: topic.id, title: topic.title ?? undefined, description: topic.description ?? undefined, available, learned: learnedSlugs };
}
