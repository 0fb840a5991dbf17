/**
 * The `<knowledge>` section and the `learn` tool of a published site, with a profile and `-k`
 * values applied (SPEC 5): the site's knowledge file holds, per topic, the subjects it pre-loads;
 * `-k` patterns resolve like `learned` ones and are appended after them.
 */
import { type KnowledgeTopic, renderKnowledgeSection } from '../kb/knowledge/section.ts';
import { type LearnToolDefinition, renderLearnDefinition } from '../kb/knowledge/learn.ts';
import type { KnowledgeFile, SiteIndex } from '../kb/publish/endpoint-schemas.ts';
import { MAX_CONCURRENT_REQUESTS, mapBounded } from '../net/bounded-calls.ts';
import type { LearnedSets } from './remote-learn.ts';
import { resolveRemotePatterns } from './remote-patterns.ts';
import type { RemoteSite } from './remote-site.ts';

/** A `-k` value, checked against the catalog: an enabled topic's id and a pattern that compiles. */
export interface ExtraKnowledge {
  topic: string;
  pattern: string;
}

/**
 * What the section shows of every topic of the catalog, in catalog order: the knowledge file's
 * pre-loaded subjects, then those the `extra` patterns select that are not among them yet.
 */
export async function extendKnowledge(site: RemoteSite, index: SiteIndex, file: KnowledgeFile, extra: readonly ExtraKnowledge[]): Promise<KnowledgeTopic[]> {
  const topics: KnowledgeTopic[] = [];
  for (const topic of index.topics) {
    const preloaded = [...(file.topics.find((t) => t.id === topic.id)?.preloaded ?? [])];
    const patterns = extra.filter((e) => e.topic === topic.id).map((e) => e.pattern);
    if (patterns.length > 0) {
      const { resolution, hidden } = await resolveRemotePatterns(site, topic, patterns);
      // The CLI compiled every -k pattern, and resolution fails only on a pattern that does not compile.
      if (!resolution.ok) throw new Error(resolution.message);
      const known = new Set(preloaded.map((s) => s.slug));
      const added = resolution.slugs.filter((slug) => !known.has(slug));
      const entries = new Map(topic.subjects.map((s) => [s.slug, s]));
      preloaded.push(
        ...(await mapBounded(added, MAX_CONCURRENT_REQUESTS, async (slug) => {
          const subject = hidden.get(slug) ?? (await site.listedSubject(topic.id, entries.get(slug)!));
          return { slug, content: subject.content };
        })),
      );
    }
    const learned = new Set(preloaded.map((s) => s.slug));
    topics.push({
      id: topic.id,
      title: topic.title ?? undefined,
      introduction: topic.introduction ?? undefined,
      description: topic.description ?? undefined,
      listable: topic.subjects.some((s) => !learned.has(s.slug)),
      preloaded,
    });
  }
  return topics;
}

/** The learned slugs of each topic, from what the section pre-loads. */
export function learnedInKnowledge(topics: readonly KnowledgeTopic[]): LearnedSets {
  const sets = new Map(topics.map((t) => [t.id, new Set(t.preloaded.map((s) => s.slug))]));
  return (topicId) => sets.get(topicId) ?? new Set();
}

/** The section and the tool of a site: `-k` values applied. */
export interface RemoteKnowledge {
  /** The `<knowledge>` section; `''` when there is none. */
  prompt: string;
  tool: LearnToolDefinition | null;
  /** The section's tokens as the site counted them; undefined when the section was rendered here (count them). */
  tokens: number | undefined;
}

/**
 * The section and the tool of the site's knowledge file (a profile's, or the default one), with
 * `-k` values applied. Without any, the file's own text is the answer; with some, the core renders
 * the section from the extended topics of the catalog `index`.
 */
export async function remoteKnowledge(
  site: RemoteSite,
  file: KnowledgeFile,
  extension?: { index: SiteIndex; extra: readonly ExtraKnowledge[] },
): Promise<RemoteKnowledge> {
  if (!extension || extension.extra.length === 0) {
    // The file's tool is the definition the site's build rendered, SPEC 4's parameters included.
    return { prompt: file.prompt ?? '', tool: file.tool as LearnToolDefinition | null, tokens: file.tokens };
  }
  const topics = await extendKnowledge(site, extension.index, file, extension.extra);
  return { prompt: renderKnowledgeSection(topics), tool: renderLearnDefinition(topics.filter((t) => t.listable)), tokens: undefined };
}
