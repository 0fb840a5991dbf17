/**
 * What a preview build publishes of a knowledge diff (content/guide/reviewing-changes.md): the
 * changes of listed subjects only. Hidden and disabled subjects' changes belong in the
 * pull-request comment, next to the source that shows them anyway, never on the published preview.
 */
import { changeAnchor } from '../publish/site-urls.ts';
import { diffSnapshots } from './diff.ts';
import type { DiffSide, KnowledgeDiff } from './schema.ts';
import { publishedSnapshot, type KnowledgeSnapshot } from './snapshot.ts';

/**
 * The diff of the listed subjects of two snapshots (a source is seen as it would be published).
 * Its sides are labelled for a reader of the preview, never with a local path (which names a
 * folder on the machine that built it): the base is its site's URL when it was read from one
 * (without credentials), else "the base build" or "the base sources"; the head is "this preview".
 */
export function diffPublished(base: KnowledgeSnapshot, head: KnowledgeSnapshot): KnowledgeDiff {
  const diff = diffSnapshots(publishedSnapshot(base), publishedSnapshot(head));
  return { ...diff, base: publishedBase(diff.base), head: { kind: diff.head.kind, label: 'this preview' } };
}

function publishedBase(side: DiffSide): DiffSide {
  const url = URL.canParse(side.label) ? new URL(side.label) : undefined;
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) {
    url.username = '';
    url.password = '';
    return { kind: side.kind, label: url.href };
  }
  return { kind: side.kind, label: side.kind === 'build' ? 'the base build' : 'the base sources' };
}

/** How a subject of the head changed, for the banner on its page. */
export interface SubjectChange {
  kind: 'added' | 'changed' | 'moved' | 'learned' | 'unlearned';
  /** The anchor of its entry on the changes page. */
  anchor: string;
  /** Where a moved subject came from (`topic/slug`). */
  from?: string;
}

/** Each head subject the diff touches, by `topic/slug`. */
export function changesBySubject(diff: KnowledgeDiff): Map<string, SubjectChange> {
  const changes = new Map<string, SubjectChange>();
  const key = (ref: { topic: string; slug: string }): string => `${ref.topic}/${ref.slug}`;
  for (const s of diff.added) changes.set(key(s), { kind: 'added', anchor: changeAnchor(s.topic, s.slug) });
  for (const s of diff.changed) changes.set(key(s), { kind: 'changed', anchor: changeAnchor(s.topic, s.slug) });
  for (const m of diff.moved) changes.set(key(m.to), { kind: 'moved', anchor: changeAnchor(m.to.topic, m.to.slug), from: key(m.from) });
  for (const v of diff.visibility) {
    if (changes.has(key(v))) continue;
    const learned = v.changes.find((c) => c.flag === 'learned');
    if (learned) changes.set(key(v), { kind: learned.to ? 'learned' : 'unlearned', anchor: changeAnchor(v.topic, v.slug) });
  }
  return changes;
}
