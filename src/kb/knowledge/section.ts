/** The `<knowledge>` system-prompt section (SPEC 4), byte for byte. */
import type { KnowledgeBase, Topic } from '../subjects/knowledge-base.ts';

/** A subject pre-loaded into the prompt, with its section-4 content. */
export interface PreloadedSubject {
  slug: string;
  content: string;
}

/** What the section shows of one enabled topic. */
export interface KnowledgeTopic {
  id: string;
  title: string | undefined;
  introduction: string | undefined;
  description: string | undefined;
  /** Whether the topic has a visible, enabled subject that is not learned. */
  listable: boolean;
  /** Its learned subjects, in resolution order. */
  preloaded: PreloadedSubject[];
}

const AVAILABLE_FOOTER = `Use the \`learn\` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

/** A topic's line in the `<knowledge>` list: `- id (**Title**): introduction`. */
export function renderTopicLine(topic: { id: string; title: string | undefined }, introduction?: string): string {
  let line = `- ${topic.id}`;
  if (topic.title !== undefined) line += ` (**${topic.title}**)`;
  if (introduction !== undefined) line += `: ${introduction}`;
  return line;
}

/** Renders the section; `''` when no topic is listable and none has pre-loaded subjects. */
export function renderKnowledgeSection(topics: readonly KnowledgeTopic[]): string {
  const preloaded = topics.filter((t) => t.preloaded.length > 0);
  const listable = topics.filter((t) => t.listable);
  if (preloaded.length === 0 && listable.length === 0) return '';
  const parts: string[] = [];
  if (preloaded.length > 0) {
    const blocks = preloaded.map((topic) => {
      const lines = [`<topic "${topic.title ?? topic.id}">`, ''];
      if (topic.description !== undefined) lines.push(topic.description, '');
      lines.push(topic.preloaded.map((s) => `<subject "${s.slug}">\n${s.content}\n</subject>`).join('\n\n'));
      lines.push('</topic>');
      return lines.join('\n');
    });
    parts.push(`The following knowledge has been pre-loaded into your system prompt:\n\n${blocks.join('\n\n')}`);
  }
  if (listable.length > 0) {
    const list = listable.map((t) => renderTopicLine(t, t.introduction)).join('\n');
    parts.push(`The following knowledge topics are available to learn:\n\n${list}\n\n${AVAILABLE_FOOTER}`);
  }
  return `<knowledge>\n${parts.join('\n\n')}\n</knowledge>`;
}

/** Whether a topic has a visible, enabled subject that is not learned. */
export function isListable(topic: Topic): boolean {
  return topic.subjects.some((s) => !s.hidden && !topic.learnedSet.has(s.slug));
}

/**
 * What the section shows of a local topic. `contentOf` gives a learned subject's section-4
 * content; by default the file is read.
 */
export function describeKnowledgeTopic(
  kb: KnowledgeBase,
  topic: Topic,
  contentOf: (slug: string) => string = (slug) => kb.read(topic.bySlug.get(slug)!).content,
): KnowledgeTopic {
  return {
    id: topic.id,
    title: topic.title,
    introduction: topic.introduction,
    description: topic.description,
    listable: isListable(topic),
    preloaded: topic.learned.map((slug) => ({ slug, content: contentOf(slug) })),
  };
}

/** The `<knowledge>` section of a local knowledge base. */
export function buildKnowledgeSection(kb: KnowledgeBase): string {
  return renderKnowledgeSection(kb.topics().map((topic) => describeKnowledgeTopic(kb, topic)));
}
