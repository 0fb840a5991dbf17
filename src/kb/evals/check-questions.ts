/**
 * Checking a question set against a knowledge base (content/reference/evaluations.md, "What
 * check checks"): every expected subject must exist in an enabled topic and not be disabled. A
 * hidden subject is a valid expectation: an agent loads it by its exact name
 * (content/reference/decisions.md, "Evaluations").
 */
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { suggestName } from '../diagnostics/suggest.ts';
import type { KnowledgeBase } from '../subjects/knowledge-base.ts';
import type { EvalQuestion } from './questions.ts';

/** What checking an expectation needs of one configured topic. */
export interface ExpectableTopic {
  id: string;
  /** false for a topic with `enable = false`. */
  enabled: boolean;
  /** Its subjects that are not disabled, hidden ones included. */
  subjects: ReadonlySet<string>;
  /** The subjects its `disabled` removes. */
  disabled: ReadonlySet<string>;
}

/** The topics of a knowledge base as {@link checkExpectations} reads them (enabled topics are walked). */
export function expectableTopicsOf(kb: KnowledgeBase): ExpectableTopic[] {
  return kb.config.topics.map((config) => {
    const topic = config.enable ? kb.topic(config.id) : undefined;
    return {
      id: config.id,
      enabled: topic !== undefined,
      subjects: new Set(topic?.subjects.map((s) => s.slug) ?? []),
      disabled: new Set(topic?.disabledSubjects.map((s) => s.slug) ?? []),
    };
  });
}

/**
 * The problems of each question's `expect` (`file` is the question set): an unknown or disabled
 * topic, an unknown subject (with the nearest slug when one is close) and a disabled subject.
 */
export function checkExpectations(questions: readonly EvalQuestion[], file: string, topics: readonly ExpectableTopic[]): Diagnostic[] {
  const byId = new Map(topics.map((t) => [t.id, t]));
  const enabledIds = topics.filter((t) => t.enabled).map((t) => t.id);
  const diagnostics: Diagnostic[] = [];
  for (const question of questions) {
    for (const { topic: topicId, slug } of question.expect) {
      const named = `question ${JSON.stringify(question.id)}: expect ${JSON.stringify(`${topicId}/${slug}`)}`;
      const report = (code: Diagnostic['code'], message: string): void => {
        diagnostics.push({ kind: 'content-error', code, message: `${named} ${message}`, file, line: question.line });
      };
      const topic = byId.get(topicId);
      if (!topic) {
        const suggestion = suggestName(topicId, enabledIds);
        report(
          'unknown-expected',
          `names no topic ${JSON.stringify(topicId)}.${suggestion ? ` Did you mean ${JSON.stringify(suggestion)}?` : ''} Use a topic of [kb.topic.*]: ${enabledIds.join(', ') || '(none)'}.`,
        );
        continue;
      }
      if (!topic.enabled) {
        report(
          'unknown-expected',
          `names the topic ${JSON.stringify(topicId)}, which is disabled (enable = false): no agent can learn from it. Expect a subject of an enabled topic, or enable it.`,
        );
        continue;
      }
      if (topic.subjects.has(slug)) continue;
      if (topic.disabled.has(slug)) {
        report('disabled-expected', `is a disabled subject: no agent can ever load it. Expect the subject that replaced it, or remove it from kb.topic.${topicId}.disabled.`);
        continue;
      }
      const suggestion = suggestName(slug, [...topic.subjects]);
      report(
        'unknown-expected',
        `names no subject of topic ${JSON.stringify(topicId)}.${suggestion ? ` Did you mean ${JSON.stringify(`${topicId}/${suggestion}`)}?` : ''} Use a slug that "syllabus learn ${topicId}" lists, or a hidden subject's exact slug.`,
      );
    }
  }
  return diagnostics;
}
