/**
 * The knowledge diff (content/reference/cli/diff.md, "JSON") as a Zod schema: `diffSnapshots`
 * returns a value of this type, `syllabus diff --json` prints it, and `syllabus diff --schema`
 * prints its JSON Schema.
 */
import { z } from 'zod';
import { EvalDeltaSchema } from '../evals/report-schema.ts';

/** The version of the diff's JSON shape; it changes only when the shape does. */
export const DIFF_FORMAT_VERSION = 1;

const count = z.number().int().nonnegative();
const tokens = z.number().int().nonnegative();
const delta = z.number().int().describe('head minus base.');

const DiffSideSchema = z
  .object({
    kind: z
      .enum(['source', 'build'])
      .describe('source: a kb.toml, where hidden and disabled subjects are visible too; build: a dist/ folder or a site URL, only what was published.'),
    label: z.string().describe('What the side was read from: the kb.toml path, the dist/ folder or the URL, as given.'),
  })
  .describe('One side of the diff.');

const SubjectRefSchema = z.object({
  topic: z.string().describe('The topic id.'),
  slug: z.string().describe('The subject slug (content/guide/concepts/slugs.md).'),
});

const TokenDeltaSchema = z.object({ base: tokens, head: tokens, delta }).describe('o200k_base tokens on each side.');

const OptionalTokenDeltaSchema = z
  .object({
    base: tokens.nullable().describe('null when the base has none.'),
    head: tokens.nullable().describe('null when the head has none.'),
    delta: delta.describe('head minus base, a missing side counting 0.'),
  })
  .describe('o200k_base tokens on each side.');

const SkipReasonSchema = z.enum(['binary', 'too-large', 'unreadable']);

/** How the content of a subject (or a `<knowledge>` section) changed. */
export const ContentChangeSchema = z
  .discriminatedUnion('type', [
    z
      .object({
        type: z.literal('lines'),
        patch: z.string().describe('A unified diff of the content (hunks only, 3 lines of context, no file headers), each line ending in a line break.'),
        additions: count.describe('Lines added.'),
        deletions: count.describe('Lines removed.'),
      })
      .describe('A text change, as a line diff.'),
    z
      .object({
        type: z.literal('skipped'),
        base: z.object({ skipped: SkipReasonSchema.nullable(), bytes: count }),
        head: z.object({ skipped: SkipReasonSchema.nullable(), bytes: count }),
      })
      .describe(
        'The file is binary, too large or unreadable on at least one side: its content is a message (content/reference/subject-formats.md), so there is no line diff; the sizes of the file as stored.',
      ),
  ])
  .describe('How the content changed.');

/** A subject present on one side only. */
export const DiffSubjectSchema = SubjectRefSchema.extend({
  tokens,
  bytes: count.describe('Size of the file as stored.'),
  skipped: SkipReasonSchema.nullable().describe('Why the content is a message instead of the file; null when it is not.'),
  hidden: z.boolean(),
  disabled: z.boolean().describe('Only a source has disabled subjects.'),
  learned: z.boolean(),
}).describe('A subject on one side only.');

/** A subject whose content changed in place. */
export const ChangedSubjectSchema = SubjectRefSchema.extend({
  tokens: TokenDeltaSchema,
  change: ContentChangeSchema,
  hidden: z.boolean().describe('In the head.'),
  disabled: z.boolean().describe('In the head (only a source has disabled subjects).'),
  learned: z.boolean().describe('In the head.'),
}).describe('A subject whose content changed, at the same slug.');

/** A subject found under a new slug. */
export const MovedSubjectSchema = z
  .object({
    from: SubjectRefSchema.describe('Where it was in the base.'),
    to: SubjectRefSchema.describe('Where it is in the head.'),
    similarity: z.number().min(0).max(1).describe('1 when the content is the same (same sha256); otherwise the share of content kept (at least 0.5).'),
    tokens: TokenDeltaSchema,
    change: ContentChangeSchema.nullable().describe('null when the content is the same; else how it changed (moved and edited).'),
  })
  .describe('A subject that left one slug for another: removed from `from` and added at `to` with the same content (or, in the same topic, similar enough content).');

/** A flag of a subject that changed. */
export const VisibilityFlagSchema = z.object({
  flag: z.enum(['hidden', 'disabled', 'learned']),
  from: z.boolean(),
  to: z.boolean(),
});

/** A subject present on both sides whose visibility changed. */
export const VisibilityChangeSchema = SubjectRefSchema.extend({
  changes: z.array(VisibilityFlagSchema).min(1).describe('Each flag that changed, in the order hidden, disabled, learned.'),
}).describe('A subject (at its head place) that became hidden, disabled or learned, or the reverse. Builds show learned only: hidden and disabled subjects are not published.');

/** A topic on either side, with the tokens of its listed subjects. */
export const TopicDeltaSchema = z.object({
  id: z.string(),
  status: z.enum(['added', 'removed', 'changed', 'unchanged']).describe('changed: a subject of the topic was added, removed, changed, moved or changed visibility.'),
  tokens: OptionalTokenDeltaSchema.describe('Tokens of the listed subjects (visible, enabled), as index.json counts them.'),
  subjects: z.object({ base: count, head: count }).describe('How many subjects each side shows (for a source: hidden and disabled ones included).'),
});

/** A `<knowledge>` section on both sides. */
export const KnowledgeDeltaSchema = z.object({
  tokens: OptionalTokenDeltaSchema.describe('Tokens of the section; null for a side without one (no section, or no such profile).'),
  change: ContentChangeSchema.nullable().describe('The line diff of the section text; null when it is the same.'),
});

/** A profile on either side. */
export const ProfileDeltaSchema = KnowledgeDeltaSchema.extend({
  name: z.string(),
  status: z.enum(['added', 'removed', 'changed', 'unchanged']),
});

/** The whole diff. */
export const KnowledgeDiffSchema = z
  .object({
    version: z.literal(DIFF_FORMAT_VERSION).describe('The version of this JSON shape.'),
    base: DiffSideSchema,
    head: DiffSideSchema,
    equal: z.boolean().describe('true when nothing below changed: the markdown says "No changes".'),
    summary: z.object({
      added: count,
      removed: count,
      changed: count,
      moved: count,
      visibility: count,
      tokens: TokenDeltaSchema.describe('Tokens of the listed subjects of every topic.'),
    }),
    topics: z.array(TopicDeltaSchema).describe("Every topic: the head's in config order, then those only the base has."),
    added: z.array(DiffSubjectSchema).describe('Subjects only the head has, in topic order then slug order.'),
    removed: z.array(DiffSubjectSchema).describe('Subjects only the base has.'),
    changed: z.array(ChangedSubjectSchema).describe('Subjects at the same place whose content changed.'),
    moved: z.array(MovedSubjectSchema).describe('Subjects at a new place, in the order of their head places.'),
    visibility: z.array(VisibilityChangeSchema),
    knowledge: KnowledgeDeltaSchema.describe('The <knowledge> section of the config as written.'),
    profiles: z.array(ProfileDeltaSchema).describe("Each [profile.<name>]: the head's in config order, then those only the base has."),
    evals: EvalDeltaSchema.optional().describe('The offline evaluation of both sides; absent when neither side has a question set ([eval] questions).'),
  })
  .describe('The knowledge diff of syllabus diff: what changed between two versions of a knowledge base (content/guide/reviewing-changes.md).');

export type DiffSide = z.infer<typeof DiffSideSchema>;
export type SubjectRef = z.infer<typeof SubjectRefSchema>;
export type ContentChange = z.infer<typeof ContentChangeSchema>;
export type DiffSubject = z.infer<typeof DiffSubjectSchema>;
export type ChangedSubject = z.infer<typeof ChangedSubjectSchema>;
export type MovedSubject = z.infer<typeof MovedSubjectSchema>;
export type VisibilityChange = z.infer<typeof VisibilityChangeSchema>;
export type TopicDelta = z.infer<typeof TopicDeltaSchema>;
export type KnowledgeDelta = z.infer<typeof KnowledgeDeltaSchema>;
export type ProfileDelta = z.infer<typeof ProfileDeltaSchema>;
export type KnowledgeDiff = z.infer<typeof KnowledgeDiffSchema>;

/** The JSON Schema (draft 2020-12) of `syllabus diff --json`. */
export function renderDiffSchema(): Record<string, unknown> {
  return z.toJSONSchema(KnowledgeDiffSchema, { target: 'draft-2020-12' });
}
