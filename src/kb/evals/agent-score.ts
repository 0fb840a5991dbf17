/**
 * The score of one question of the agent evaluation (content/reference/evaluations-agent.md, "What
 * is scored"): the share of its expected subjects the agent loaded, the share of its
 * `answer_includes` strings in the answer, and the judge's verdict on its rubric; the score is the
 * mean of the parts the question has. A question whose call failed scores 0.
 */
import type { EvalQuestion } from './questions.ts';
import type { AgentTranscript } from './agent-loop.ts';
import { resolveTopicId, type TopicIdentity } from '../knowledge/learn.ts';

/** An expected subject as the view gives it. */
export interface ExpectedSubject {
  topic: string;
  slug: string;
  /** What `learn` answers for its exact slug; undefined when it cannot be loaded. */
  content: string | undefined;
  /** Whether the `<knowledge>` section pre-loads it: the agent has it without a call. */
  preloaded: boolean;
}

/** Whether the agent got an expected subject, and how. */
export interface SubjectScore {
  topic: string;
  slug: string;
  /** Pre-loaded, or loaded by a `learn` call. */
  loaded: boolean;
  preloaded: boolean;
  /** Whether a `find` call listed it before the `learn` call that loaded it. */
  foundFirst: boolean;
}

/** How the judge's part went: its verdict, or why there is none (no answer, a reply that is not a verdict). */
export type JudgeScore = { pass: boolean; reason: string } | { error: string };

/** The score of a question and its parts. */
export interface AgentScore {
  /** The mean of the parts, from 0 to 1; 0 when a call failed. */
  score: number;
  subjects: SubjectScore[];
  /** Each `answer_includes` string and whether the answer holds it (in any case). */
  answerIncludes: { text: string; found: boolean }[];
  /** For a question with a rubric. */
  judge: JudgeScore | undefined;
}

/**
 * Scores a transcript. An expected subject is loaded by a successful `learn` call whose topic is
 * its topic (by id or title) and whose answer is the subject's content, alone (one exact slug) or
 * as one of the `<subject "…">` blocks of several.
 */
export function scoreAgentTranscript(question: EvalQuestion, transcript: AgentTranscript, expected: readonly ExpectedSubject[], topics: readonly TopicIdentity[]): AgentScore {
  const subjects = expected.map((subject): SubjectScore => {
    const loadedAt = transcript.toolCalls.findIndex((call) => {
      if (!call.ok || call.learnTopic === undefined || subject.content === undefined) return false;
      const topic = resolveTopicId(topics, call.learnTopic);
      if (!topic.ok || topic.id !== subject.topic) return false;
      return call.text === subject.content || call.text.includes(`<subject "${subject.slug}">\n${subject.content}\n</subject>`);
    });
    const foundFirst =
      loadedAt > 0 && transcript.toolCalls.slice(0, loadedAt).some((call) => call.found?.some((found) => found.topic === subject.topic && found.slug === subject.slug));
    return { topic: subject.topic, slug: subject.slug, loaded: subject.preloaded || loadedAt >= 0, preloaded: subject.preloaded, foundFirst };
  });
  const answer = (transcript.answer ?? '').toLowerCase();
  const answerIncludes = question.answerIncludes.map((text) => ({ text, found: transcript.answer !== null && answer.includes(text.toLowerCase()) }));
  const judge = question.rubric === undefined ? undefined : judgeScore(transcript);

  const parts = [share(subjects.map((s) => s.loaded))];
  if (answerIncludes.length > 0) parts.push(share(answerIncludes.map((a) => a.found)));
  if (judge) parts.push('pass' in judge && judge.pass ? 1 : 0);
  const score = transcript.failure ? 0 : parts.reduce((sum, part) => sum + part, 0) / parts.length;
  return { score, subjects, answerIncludes, judge };
}

function judgeScore(transcript: AgentTranscript): JudgeScore {
  if (transcript.failure) return { error: 'the question failed before the judge was asked' };
  if (transcript.answer === null) return { error: 'no answer to judge: the model was still calling tools after max_turns calls' };
  if (!transcript.judge) return { error: 'the judge was not asked' };
  return transcript.judge.ok ? transcript.judge.verdict : { error: transcript.judge.message };
}

/** The share of true values (1 for none). */
function share(values: readonly boolean[]): number {
  return values.length === 0 ? 1 : values.filter(Boolean).length / values.length;
}
