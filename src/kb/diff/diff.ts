/**
 * The knowledge diff (content/reference/cli/diff.md): what changed between two snapshots. Pure:
 * snapshots in, a {@link KnowledgeDiff} out (line diffs by jsdiff).
 *
 * Rules of that page that shape this file:
 * - A source compared with a build is first cut down to what a build publishes (its listed
 *   subjects), so that hidden and disabled subjects do not show up as removed or added.
 * - Moved: a subject only the base has and one only the head has with the same content (sha256;
 *   for binary and oversized files the sha256 of the stored file, which only sources know) are
 *   one subject that moved; a partner in the same topic is preferred. Then, within each topic,
 *   remaining pairs whose content is at least {@link MOVE_SIMILARITY} similar are "moved and
 *   changed", most similar first.
 * - Topic tokens are those of the listed subjects (visible, enabled), as `index.json` counts them.
 */
import { diffLines, formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';
import {
  DIFF_FORMAT_VERSION,
  type ChangedSubject,
  type ContentChange,
  type DiffSubject,
  type KnowledgeDelta,
  type KnowledgeDiff,
  type MovedSubject,
  type ProfileDelta,
  type SubjectRef,
  type TopicDelta,
  type VisibilityChange,
} from './schema.ts';
import { publishedTopics, type KnowledgeSnapshot, type SnapshotKnowledge, type SnapshotSubject, type SnapshotTopic } from './snapshot.ts';

/** Removed and added subjects of one topic at least this similar are paired as moved and changed. */
export const MOVE_SIMILARITY = 0.5;

/** Similar pairs are looked for only in topics with at most this many removed × added candidates. */
const MAX_SIMILARITY_PAIRS = 2_500;

/** A similarity diff gives up (similarity 0) past this many edits: such texts are not one subject moved. */
const MAX_EDIT_LENGTH = 2_000;

/** Lines of context around each change of a patch. */
const CONTEXT_LINES = 3;

interface Placed {
  topic: string;
  /** Position of the topic in the diff's topic order. */
  order: number;
  subject: SnapshotSubject;
}

/** Compares two snapshots: `base` is the old version, `head` the new one. */
export function diffSnapshots(base: KnowledgeSnapshot, head: KnowledgeSnapshot): KnowledgeDiff {
  const mixed = base.side.kind !== head.side.kind;
  const baseTopics = mixed ? publishedTopics(base.topics) : base.topics;
  const headTopics = mixed ? publishedTopics(head.topics) : head.topics;

  const headIds = new Set(headTopics.map((t) => t.id));
  const topicOrder = [...headTopics.map((t) => t.id), ...baseTopics.filter((t) => !headIds.has(t.id)).map((t) => t.id)];
  const orderOf = new Map(topicOrder.map((id, index) => [id, index]));
  const placed = (topics: readonly SnapshotTopic[]): Map<string, Map<string, Placed>> =>
    new Map(topics.map((t) => [t.id, new Map(t.subjects.map((subject) => [subject.slug, { topic: t.id, order: orderOf.get(t.id)!, subject }]))]));
  const baseBy = placed(baseTopics);
  const headBy = placed(headTopics);

  const changed: ChangedSubject[] = [];
  const visibility: (VisibilityChange & { order: number })[] = [];
  const onlyBase: Placed[] = [];
  const onlyHead: Placed[] = [];
  for (const [topic, subjects] of baseBy) {
    for (const [slug, b] of subjects) {
      const h = headBy.get(topic)?.get(slug);
      if (!h) {
        onlyBase.push(b);
        continue;
      }
      if (contentDiffers(b.subject, h.subject)) {
        const { hidden, disabled, learned } = h.subject;
        changed.push({ topic, slug, tokens: tokenDelta(b.subject, h.subject), change: contentChange(b.subject, h.subject), hidden, disabled, learned });
      }
      const flags = visibilityFlags(b.subject, h.subject);
      if (flags.length > 0) visibility.push({ topic, slug, changes: flags, order: h.order });
    }
  }
  for (const [topic, subjects] of headBy) {
    for (const [slug, h] of subjects) if (!baseBy.get(topic)?.has(slug)) onlyHead.push(h);
  }
  onlyBase.sort(comparePlaced);
  onlyHead.sort(comparePlaced);

  const pairs = pairMoves(onlyBase, onlyHead);
  const paired = new Set<Placed>(pairs.flatMap((p) => [p.from, p.to]));
  const moved: MovedSubject[] = pairs
    .sort((x, y) => comparePlaced(x.to, y.to))
    .map(({ from, to, similarity }) => {
      const flags = visibilityFlags(from.subject, to.subject);
      if (flags.length > 0) visibility.push({ topic: to.topic, slug: to.subject.slug, changes: flags, order: to.order });
      return {
        from: refOf(from),
        to: refOf(to),
        similarity,
        tokens: tokenDelta(from.subject, to.subject),
        change: similarity === 1 ? null : contentChange(from.subject, to.subject),
      };
    });
  const added = onlyHead.filter((p) => !paired.has(p)).map(diffSubjectOf);
  const removed = onlyBase.filter((p) => !paired.has(p)).map(diffSubjectOf);
  changed.sort((x, y) => orderOf.get(x.topic)! - orderOf.get(y.topic)! || compareStrings(x.slug, y.slug));
  visibility.sort((x, y) => x.order - y.order || compareStrings(x.slug, y.slug));

  const touched = new Set<string>();
  for (const entry of [...changed, ...visibility, ...added, ...removed]) touched.add(entry.topic);
  for (const entry of moved) touched.add(entry.from.topic).add(entry.to.topic);
  const topics = topicOrder.map((id): TopicDelta => {
    const b = baseTopics.find((t) => t.id === id);
    const h = headTopics.find((t) => t.id === id);
    const status = !b ? 'added' : !h ? 'removed' : touched.has(id) ? 'changed' : 'unchanged';
    return {
      id,
      status,
      tokens: optionalDelta(b && listedTokens(b), h && listedTokens(h)),
      subjects: { base: b?.subjects.length ?? 0, head: h?.subjects.length ?? 0 },
    };
  });

  const knowledge = knowledgeDelta(base.knowledge, head.knowledge);
  const profiles = profileDeltas(base, head);
  const baseTokens = baseTopics.reduce((sum, t) => sum + listedTokens(t), 0);
  const headTokens = headTopics.reduce((sum, t) => sum + listedTokens(t), 0);
  const equal =
    added.length + removed.length + changed.length + moved.length + visibility.length === 0 &&
    topics.every((t) => t.status === 'unchanged') &&
    knowledge.change === null &&
    knowledge.tokens.delta === 0 &&
    profiles.every((p) => p.status === 'unchanged');

  return {
    version: DIFF_FORMAT_VERSION,
    base: base.side,
    head: head.side,
    equal,
    summary: {
      added: added.length,
      removed: removed.length,
      changed: changed.length,
      moved: moved.length,
      visibility: visibility.length,
      tokens: { base: baseTokens, head: headTokens, delta: headTokens - baseTokens },
    },
    topics,
    added,
    removed,
    changed,
    moved,
    visibility: visibility.map(({ order: _order, ...entry }) => entry),
    knowledge,
    profiles,
  };
}

/** A unified line diff of two texts (hunks only), or null when they are equal. */
export function diffText(base: string, head: string): Extract<ContentChange, { type: 'lines' }> | null {
  if (base === head) return null;
  const patch = structuredPatch('', '', asLines(base), asLines(head), undefined, undefined, { context: CONTEXT_LINES });
  let additions = 0;
  let deletions = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) additions++;
      else if (line.startsWith('-')) deletions++;
    }
  }
  return { type: 'lines', patch: formatPatch(patch, OMIT_HEADERS), additions, deletions };
}

/**
 * How much of two texts is the same, from 0 to 1: twice the characters of the lines they share,
 * over the characters of both. 0 when the texts are too different to be worth the work.
 */
export function textSimilarity(base: string, head: string): number {
  const a = asLines(base);
  const b = asLines(head);
  const total = a.length + b.length;
  if (total === 0) return 1;
  // Similarity cannot exceed 2·min/(a+b): pairs of very different sizes are not worth a diff.
  if ((2 * Math.min(a.length, b.length)) / total < MOVE_SIMILARITY) return 0;
  const parts = diffLines(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return 0;
  let kept = 0;
  for (const part of parts) if (!part.added && !part.removed) kept += part.value.length;
  return (2 * kept) / total;
}

/** A text as lines that all end in a line break, so that the last line compares like the others. */
function asLines(text: string): string {
  return text === '' ? '' : `${text}\n`;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparePlaced(a: Placed, b: Placed): number {
  return a.order - b.order || compareStrings(a.subject.slug, b.subject.slug);
}

function listedTokens(topic: SnapshotTopic): number {
  return topic.subjects.reduce((sum, s) => (s.hidden || s.disabled ? sum : sum + s.tokens), 0);
}

function refOf(placed: Placed): SubjectRef {
  return { topic: placed.topic, slug: placed.subject.slug };
}

function diffSubjectOf(placed: Placed): DiffSubject {
  const s = placed.subject;
  return { topic: placed.topic, slug: s.slug, tokens: s.tokens, bytes: s.bytes, skipped: s.skipped, hidden: s.hidden, disabled: s.disabled, learned: s.learned };
}

function tokenDelta(base: SnapshotSubject, head: SnapshotSubject): { base: number; head: number; delta: number } {
  return { base: base.tokens, head: head.tokens, delta: head.tokens - base.tokens };
}

function optionalDelta(base: number | undefined, head: number | undefined): { base: number | null; head: number | null; delta: number } {
  return { base: base ?? null, head: head ?? null, delta: (head ?? 0) - (base ?? 0) };
}

/** Whether a subject at one place changed: its content, or for a skipped file the file itself where the sides can tell. */
function contentDiffers(base: SnapshotSubject, head: SnapshotSubject): boolean {
  if (base.sha256 !== head.sha256) return true;
  if (base.skipped === null || head.skipped === null) return false;
  if (base.bytes !== head.bytes) return true;
  return base.fileSha256 !== null && head.fileSha256 !== null && base.fileSha256 !== head.fileSha256;
}

/** The identity a move is detected by: the content's sha256, or a skipped file's own (null: cannot tell). */
function identityOf(subject: SnapshotSubject): string | null {
  return subject.skipped === null ? subject.sha256 : subject.fileSha256;
}

function contentOf(subject: SnapshotSubject): string {
  if (subject.content === null) throw new Error(`diffSnapshots: the content of "${subject.slug}" was not loaded (see subjectsToLoad)`);
  return subject.content;
}

function contentChange(base: SnapshotSubject, head: SnapshotSubject): ContentChange {
  if (base.skipped !== null || head.skipped !== null) {
    return { type: 'skipped', base: { skipped: base.skipped, bytes: base.bytes }, head: { skipped: head.skipped, bytes: head.bytes } };
  }
  return diffText(contentOf(base), contentOf(head)) ?? { type: 'lines', patch: '', additions: 0, deletions: 0 };
}

function visibilityFlags(base: SnapshotSubject, head: SnapshotSubject): VisibilityChange['changes'] {
  const flags: VisibilityChange['changes'] = [];
  for (const flag of ['hidden', 'disabled', 'learned'] as const) {
    if (base[flag] !== head[flag]) flags.push({ flag, from: base[flag], to: head[flag] });
  }
  return flags;
}

/** Pairs subjects only the base has with subjects only the head has: same content first, then similar content in one topic. */
function pairMoves(onlyBase: readonly Placed[], onlyHead: readonly Placed[]): { from: Placed; to: Placed; similarity: number }[] {
  const pairs: { from: Placed; to: Placed; similarity: number }[] = [];
  const byIdentity = new Map<string, Placed[]>();
  for (const h of onlyHead) {
    const id = identityOf(h.subject);
    if (id !== null) byIdentity.set(id, [...(byIdentity.get(id) ?? []), h]);
  }
  const claimed = new Set<Placed>();
  for (const b of onlyBase) {
    const id = identityOf(b.subject);
    const candidates = id === null ? undefined : byIdentity.get(id)?.filter((h) => !claimed.has(h));
    if (!candidates || candidates.length === 0) continue;
    const to = candidates.find((h) => h.topic === b.topic) ?? candidates[0]!;
    claimed.add(to);
    claimed.add(b);
    pairs.push({ from: b, to, similarity: 1 });
  }

  const topics = new Set(onlyBase.filter((b) => !claimed.has(b)).map((b) => b.topic));
  for (const topic of topics) {
    const removed = onlyBase.filter((b) => b.topic === topic && !claimed.has(b) && b.subject.skipped === null);
    const added = onlyHead.filter((h) => h.topic === topic && !claimed.has(h) && h.subject.skipped === null);
    if (removed.length === 0 || added.length === 0 || removed.length * added.length > MAX_SIMILARITY_PAIRS) continue;
    const candidates: { from: Placed; to: Placed; similarity: number; i: number; j: number }[] = [];
    removed.forEach((from, i) => {
      added.forEach((to, j) => {
        const similarity = textSimilarity(contentOf(from.subject), contentOf(to.subject));
        if (similarity >= MOVE_SIMILARITY) candidates.push({ from, to, similarity, i, j });
      });
    });
    candidates.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
    for (const { from, to, similarity } of candidates) {
      if (claimed.has(from) || claimed.has(to)) continue;
      claimed.add(from);
      claimed.add(to);
      // Rounded so that JSON and markdown agree on every platform; never 1, which means "same content".
      pairs.push({ from, to, similarity: Math.min(Math.round(similarity * 1000) / 1000, 0.999) });
    }
  }
  return pairs;
}

function knowledgeDelta(base: SnapshotKnowledge | undefined, head: SnapshotKnowledge | undefined): KnowledgeDelta {
  return {
    tokens: optionalDelta(base?.prompt == null ? undefined : base.tokens, head?.prompt == null ? undefined : head.tokens),
    change: diffText(base?.prompt ?? '', head?.prompt ?? ''),
  };
}

function profileDeltas(base: KnowledgeSnapshot, head: KnowledgeSnapshot): ProfileDelta[] {
  const names = [...head.profiles.map((p) => p.name)];
  for (const p of base.profiles) if (!names.includes(p.name)) names.push(p.name);
  return names.map((name): ProfileDelta => {
    const b = base.profiles.find((p) => p.name === name)?.knowledge;
    const h = head.profiles.find((p) => p.name === name)?.knowledge;
    const delta = knowledgeDelta(b, h);
    const status = !b ? 'added' : !h ? 'removed' : delta.change !== null ? 'changed' : 'unchanged';
    return { name, status, ...delta };
  });
}
