/**
 * Snapshots: one version of a knowledge base as the diff sees it (content/reference/cli/diff.md,
 * "Sides"). A source's snapshot has every subject, hidden and disabled ones included; a build's
 * has what was published: the listed subjects of `index.json` and the `<knowledge>` sections.
 * Built here from a catalog or from endpoint files; the hosts only read files or URLs.
 */
import fs from 'node:fs';
import type { Catalog, CatalogKnowledge } from '../catalog/catalog.ts';
import type { DiffSide, SubjectRef } from './schema.ts';
import type { KnowledgeFile, SiteIndex } from '../publish/endpoint-schemas.ts';
import type { SkipReason, SubjectFormat } from '../subjects/format.ts';
import type { KnowledgeBase } from '../subjects/knowledge-base.ts';
import { countTokens, loadTokenizer } from '../catalog/tokens.ts';

/** One subject of a snapshot. */
export interface SnapshotSubject {
  slug: string;
  /** Path relative to the topic folder, as stored. */
  path: string;
  hidden: boolean;
  /** Matched by the topic's `disabled` (sources only). */
  disabled: boolean;
  learned: boolean;
  format: SubjectFormat;
  skipped: SkipReason | null;
  /** Size of the file as stored. */
  bytes: number;
  tokens: number;
  /** sha256 (hex) of the content as `learn` returns it. */
  sha256: string;
  /**
   * sha256 of the file as stored, for a skipped subject (its content is a message that does not
   * change with the file) when the side can tell: sources. Null otherwise.
   */
  fileSha256: string | null;
  /**
   * The content as `learn` returns it, or null when not loaded: a build's subjects are loaded only where
   * {@link subjectsToLoad} says the diff needs them.
   */
  content: string | null;
}

/** One enabled topic of a snapshot, its subjects in slug order. */
export interface SnapshotTopic {
  id: string;
  subjects: SnapshotSubject[];
}

/** A `<knowledge>` section. */
export interface SnapshotKnowledge {
  /** The section text, or null when there is none. */
  prompt: string | null;
  tokens: number;
}

/** One version of a knowledge base. */
export interface KnowledgeSnapshot {
  side: DiffSide;
  /** Enabled topics in config order. */
  topics: SnapshotTopic[];
  knowledge: SnapshotKnowledge;
  /** Each `[profile.<name>]`, in config order. */
  profiles: { name: string; knowledge: SnapshotKnowledge }[];
}

function snapshotKnowledge(knowledge: CatalogKnowledge | KnowledgeFile): SnapshotKnowledge {
  return { prompt: knowledge.prompt, tokens: knowledge.tokens };
}

/**
 * The snapshot of a source: every subject of the catalog, and the subjects `disabled` removed
 * (read here, so that the diff can show what happened to them). `label` names the side.
 */
export async function snapshotOfSource(kb: KnowledgeBase, catalog: Catalog, label: string): Promise<KnowledgeSnapshot> {
  const [{ createHash }] = await Promise.all([import('node:crypto'), loadTokenizer()]);
  const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
  const fileSha256 = (file: string, skipped: SkipReason | null): string | null => {
    if (skipped !== 'binary' && skipped !== 'too-large') return null;
    try {
      return sha256(fs.readFileSync(file));
    } catch {
      return null;
    }
  };
  const topics = catalog.topics.map((topic): SnapshotTopic => {
    const subjects: SnapshotSubject[] = topic.subjects.map((s) => ({
      slug: s.slug,
      path: s.path,
      hidden: s.hidden,
      disabled: false,
      learned: s.learned,
      format: s.format,
      skipped: s.skipped,
      bytes: s.bytes,
      tokens: s.tokens,
      sha256: s.sha256,
      fileSha256: fileSha256(s.file, s.skipped),
      content: s.content,
    }));
    for (const subject of kb.topic(topic.id)?.disabledSubjects ?? []) {
      const read = kb.read(subject);
      subjects.push({
        slug: subject.slug,
        path: subject.path,
        hidden: subject.hidden,
        disabled: true,
        learned: false,
        format: subject.format,
        skipped: read.skipped,
        bytes: read.bytes,
        tokens: countTokens(read.content),
        sha256: sha256(read.content),
        fileSha256: read.skipped !== null && read.raw !== null ? sha256(read.raw) : fileSha256(subject.file, read.skipped),
        content: read.content,
      });
    }
    subjects.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
    return { id: topic.id, subjects };
  });
  return {
    side: { kind: 'source', label },
    topics,
    knowledge: snapshotKnowledge(catalog.knowledge),
    profiles: [...catalog.profiles].map(([name, knowledge]) => ({ name, knowledge: snapshotKnowledge(knowledge) })),
  };
}

/**
 * The snapshot of a build from its endpoint files: the catalog (`index.json`), `knowledge.json`
 * and each profile's knowledge file, in the catalog's order. Subjects have no content yet: load
 * those {@link subjectsToLoad} names and pass them to {@link withContents}.
 */
export function snapshotOfBuild(index: SiteIndex, knowledge: KnowledgeFile, profiles: ReadonlyMap<string, KnowledgeFile>, label: string): KnowledgeSnapshot {
  return {
    side: { kind: 'build', label },
    topics: index.topics.map((topic) => ({
      id: topic.id,
      subjects: topic.subjects.map((s) => ({
        slug: s.slug,
        path: s.path,
        hidden: false,
        disabled: false,
        learned: s.learned,
        format: s.format,
        skipped: s.skipped,
        bytes: s.bytes,
        tokens: s.tokens,
        sha256: s.sha256,
        fileSha256: null,
        content: null,
      })),
    })),
    knowledge: snapshotKnowledge(knowledge),
    profiles: Object.keys(index.knowledge.profiles).map((name) => {
      const file = profiles.get(name);
      if (!file) throw new Error(`snapshotOfBuild: no knowledge file for profile ${JSON.stringify(name)}`);
      return { name, knowledge: snapshotKnowledge(file) };
    }),
  };
}

/** The snapshot with these subjects' contents filled in (`contents` by `topic`, then slug). */
export function withContents(snapshot: KnowledgeSnapshot, contents: ReadonlyMap<string, ReadonlyMap<string, string>>): KnowledgeSnapshot {
  return {
    ...snapshot,
    topics: snapshot.topics.map((topic) => {
      const loaded = contents.get(topic.id);
      if (!loaded) return topic;
      return { ...topic, subjects: topic.subjects.map((s) => (loaded.has(s.slug) ? { ...s, content: loaded.get(s.slug)! } : s)) };
    }),
  };
}

/**
 * The subjects of `snapshot` whose content the diff against `other` needs and that are not
 * loaded yet: those the other side does not have with the same sha256 at the same place.
 */
export function subjectsToLoad(snapshot: KnowledgeSnapshot, other: KnowledgeSnapshot): SubjectRef[] {
  const theirTopics = snapshot.side.kind === other.side.kind ? other.topics : publishedTopics(other.topics);
  const shas = new Map(theirTopics.map((t) => [t.id, new Map(t.subjects.map((s) => [s.slug, s.sha256]))]));
  const needed: SubjectRef[] = [];
  for (const topic of snapshot.topics) {
    const theirs = shas.get(topic.id);
    for (const subject of topic.subjects) {
      if (subject.content === null && theirs?.get(subject.slug) !== subject.sha256) needed.push({ topic: topic.id, slug: subject.slug });
    }
  }
  return needed;
}

/**
 * The snapshot as a build would publish it: only listed subjects (visible, enabled). For a
 * view of the changes readers of the site can see, such as a `/changes/` page.
 */
export function publishedSnapshot(snapshot: KnowledgeSnapshot): KnowledgeSnapshot {
  return { ...snapshot, topics: publishedTopics(snapshot.topics) };
}

/**
 * The subjects a build of these topics publishes in its listings: the visible, enabled ones. A
 * source compared with a build is compared through this view.
 */
export function publishedTopics(topics: readonly SnapshotTopic[]): SnapshotTopic[] {
  return topics.map((t) => ({ ...t, subjects: t.subjects.filter((s) => !s.hidden && !s.disabled) }));
}
