/**
 * The judge of the agent evaluation (content/reference/evaluations-agent.md, "What is scored"): a
 * model asked whether an answer meets a question's rubric, and its strict JSON verdict. Pure: the
 * host makes the call.
 */
import { buildChatRequest, finalAnswer } from './agent-chat.ts';

/** The judge's system message. */
export const JUDGE_INSTRUCTION =
  'You grade an answer to a question against a rubric. Reply with one JSON object and nothing else: {"pass": true or false, "reason": "<one sentence>"}. pass is true only when the answer meets every point of the rubric.';

/** A judge's verdict. */
export interface Verdict {
  pass: boolean;
  reason: string;
}

/** The body of the judge's request: its instruction, then the question, the rubric and the answer. */
export function buildJudgeRequest(model: string, ask: string, rubric: string, answer: string): string {
  return buildChatRequest(model, [
    { role: 'system', content: JUDGE_INSTRUCTION },
    { role: 'user', content: `Question: ${ask}\n\nRubric: ${rubric}\n\nAnswer:\n${answer}` },
  ]);
}

/**
 * Reads the judge's text as a verdict: one JSON object with a boolean `pass` and a string
 * `reason`, possibly in a fenced block or after a `<think>` block; anything else is a message.
 */
export function parseVerdict(content: string | null): { ok: true; verdict: Verdict } | { ok: false; message: string } {
  const text = finalAnswer(content)
    .replace(/^```(?:json)?\s*\n?/, '')
    .replace(/\n?```$/, '')
    .trim();
  try {
    const parsed = JSON.parse(text) as { pass?: unknown; reason?: unknown } | null;
    if (typeof parsed?.pass === 'boolean' && typeof parsed.reason === 'string') return { ok: true, verdict: { pass: parsed.pass, reason: parsed.reason } };
  } catch {
    // Not JSON: said below, as for JSON of another shape.
  }
  const start = text.replace(/\s+/g, ' ').slice(0, 60);
  return { ok: false, message: `the judge did not answer with {"pass": true|false, "reason": "…"} (it answered ${JSON.stringify(start)})` };
}
