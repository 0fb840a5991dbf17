/** The question set of a knowledge base (content/reference/evaluations.md): its parsed form. */

/** One question of the question set (content/reference/evaluations.md). */
export interface EvalQuestion {
  id: string;
  ask: string;
  expect: { topic: string; slug: string }[];
  answerIncludes: string[];
  rubric: string | undefined;
  /** 1-based line of its [[question]] header in the file, for messages. */
  line: number;
}
