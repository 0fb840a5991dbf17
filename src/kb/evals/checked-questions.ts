/**
 * The question set of a knowledge base (`[eval] questions`), read and checked against it: what
 * `check`, `syllabus eval` and a preview build (`build --base`) start from.
 */
import type { KnowledgeBase } from '../subjects/knowledge-base.ts';
import { checkExpectations, expectableTopicsOf } from './check-questions.ts';
import { readQuestionSet, type QuestionSet } from './questions.ts';

/**
 * Reads the question set `[eval] questions` names and checks its expectations against `kb`;
 * undefined when the config names none. Its diagnostics hold both the file's problems and the
 * expectations'; a question with a wrong expectation stays in `questions`.
 */
export function readCheckedQuestionSet(kb: KnowledgeBase): QuestionSet | undefined {
  const file = kb.config.eval.questions;
  if (file === undefined) return undefined;
  const set = readQuestionSet(file);
  return { ...set, diagnostics: [...set.diagnostics, ...checkExpectations(set.questions, file, expectableTopicsOf(kb))] };
}

/** The titles of the enabled topics by id, as evaluateQuestions needs them. */
export function topicTitlesOf(kb: KnowledgeBase): Map<string, string | undefined> {
  return new Map(kb.topicConfigs.map((t) => [t.id, t.title]));
}
