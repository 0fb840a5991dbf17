/**
 * The report of the offline evaluation (content/reference/cli/eval.md, "JSON") as a Zod schema:
 * `evaluateQuestions` returns a value of this type, `syllabus eval --json` prints it and
 * `syllabus eval --schema` prints its JSON Schema.
 */
import { z } from 'zod';

/** The version of the report's JSON shape; it changes only when the shape does. */
export const EVAL_FORMAT_VERSION = 1;

const share = z.number().min(0).max(1);
const tokens = z.number().int().nonnegative();

/** How the `<knowledge>` section leads an agent to a subject, from strongest to weakest. */
export const SectionReachSchema = z
  .enum(['preloaded', 'index', 'topic', 'none'])
  .describe(
    "preloaded: the subject is in the section itself; index: the section's index of subjects lists it ([kb.prompt] index); topic: the section lists its topic only; none: the section does not name its topic.",
  );

/** One expected subject of a question. */
export const ExpectedResultSchema = z
  .object({
    topic: z.string().describe('The topic id.'),
    slug: z.string().describe('The subject slug.'),
    rank: z
      .number()
      .int()
      .min(1)
      .nullable()
      .describe("Its 1-based place in find's results for the question; null when find does not return it among its first findLimit results (hidden subjects are never found)."),
    section: SectionReachSchema,
    listed: z.boolean().describe("Whether the topic's listing (learn with the topic alone) lists it, as available or as already learned."),
    tokens: tokens.nullable().describe('o200k_base tokens of the subject as learn returns it; null when learn cannot load it.'),
  })
  .describe('An expected subject, as find, the section and learn see it.');

/** One evaluated question. */
export const EvaluatedQuestionSchema = z
  .object({
    id: z.string(),
    ask: z.string().describe('The question, as find was asked it.'),
    rank: z.number().int().min(1).nullable().describe('The best rank of its expected subjects; null when find returns none of them.'),
    hitAt1: z.boolean().describe('rank is 1.'),
    hitAt3: z.boolean().describe('rank is 3 or better.'),
    reciprocalRank: share.describe('1 / rank (0 when rank is null), rounded to 4 decimals.'),
    section: SectionReachSchema.describe('The weakest section reach among its expected subjects.'),
    listed: z.boolean().describe("Whether every expected subject is listed by its topic's listing."),
    tokens: tokens.describe(
      "What an agent reads to reach the expected subjects: the section, each of their topics' listing once, and each subject not pre-loaded, as learn returns it.",
    ),
    expect: z.array(ExpectedResultSchema).describe('Each expected subject, in the order of the question set.'),
  })
  .describe('A question and how the tools reach its answer.');

/** The totals over every question. */
export const EvalTotalsSchema = z
  .object({
    questions: z.number().int().nonnegative(),
    hitAt1: share.describe('The share of questions with hitAt1, rounded to 4 decimals.'),
    hitAt3: share.describe('The share of questions with hitAt3.'),
    mrr: share.describe('The mean reciprocal rank.'),
    meanTokens: tokens.describe("The mean of the questions' tokens, rounded to a whole number."),
    led: share.describe('The share of questions whose expected subjects the section (at least by topic) and the listings all lead to.'),
  })
  .describe('Figures over all questions (0 for a question set without questions).');

/** The whole report. */
export const EvalReportSchema = z
  .object({
    version: z.literal(EVAL_FORMAT_VERSION).describe('The version of this JSON shape.'),
    findLimit: z.number().int().min(1).describe("How many of find's results are read: a subject ranked lower counts as not found."),
    sectionTokens: tokens.describe('o200k_base tokens of the <knowledge> section.'),
    questions: z.array(EvaluatedQuestionSchema).describe('Every question, in the order of the question set.'),
    totals: EvalTotalsSchema,
  })
  .describe(
    'The offline evaluation of syllabus eval: how find, the <knowledge> section and learn lead to the subjects that answer each question (content/reference/evaluations.md).',
  );

export type SectionReach = z.infer<typeof SectionReachSchema>;
export type ExpectedResult = z.infer<typeof ExpectedResultSchema>;
export type EvaluatedQuestion = z.infer<typeof EvaluatedQuestionSchema>;
export type EvalTotals = z.infer<typeof EvalTotalsSchema>;
export type EvalReport = z.infer<typeof EvalReportSchema>;

/** The JSON Schema (draft 2020-12) of `syllabus eval --json`. */
export function renderEvalSchema(): Record<string, unknown> {
  return z.toJSONSchema(EvalReportSchema, { target: 'draft-2020-12' });
}

/** How one question changed between two evaluations. */
export const QuestionDeltaSchema = z
  .object({
    id: z.string(),
    ask: z.string(),
    change: z
      .enum(['better', 'worse', 'tokens'])
      .describe('better: ranked higher (or found where it was not); worse: ranked lower (or no longer found); tokens: the same rank, other tokens.'),
    rank: z
      .object({ base: z.number().int().min(1).nullable(), head: z.number().int().min(1).nullable() })
      .describe('The best rank of its expected subjects on each side; null: not found.'),
    hitAt3: z.object({ base: z.boolean(), head: z.boolean() }),
    tokens: z.object({ base: tokens, head: tokens, delta: z.number().int().describe('head minus base.') }),
  })
  .describe('A question whose rank or tokens changed.');

/** The offline evaluation of both sides of a diff, with the same question set. */
export const EvalDeltaSchema = z
  .object({
    questionSet: z.enum(['base', 'head']).describe("Whose question set both sides were asked: the head's, or the base's when only the base has one."),
    totals: z.object({ base: EvalTotalsSchema, head: EvalTotalsSchema }),
    questions: z.array(QuestionDeltaSchema).describe('The questions whose rank or tokens changed, in the order of the question set.'),
    unchanged: z.number().int().nonnegative().describe('How many questions kept their rank and tokens.'),
    regressions: z
      .array(z.string())
      .describe(
        'The ids of the questions that regressed: ranked in the top 3 on the base and not on the head, or found on the base and not on the head. A review workflow may fail on them.',
      ),
  })
  .describe('How the answers of the question set are reached on each side (content/reference/evaluations.md, "In review").');

export type QuestionDelta = z.infer<typeof QuestionDeltaSchema>;
export type EvalDelta = z.infer<typeof EvalDeltaSchema>;
