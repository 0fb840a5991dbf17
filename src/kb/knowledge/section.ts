/**
 * The `<knowledge>` system-prompt section (content/agents/knowledge-section.md), byte for byte, and
 * the `learn` tool that agrees with it: which topics are listable, which subjects are pre-loaded.
 */
import { type LearnToolDefinition, renderLearnDefinition, renderLoaded, renderTopicLine } from './learn.ts';

/** A subject pre-loaded into the prompt, with its content as `learn` returns it. */
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
  /** Whether the topic has a visible, enabled subject that is not learned ({@link isListable}). */
  listable: boolean;
  /** Its learned subjects, in resolution order. */
  preloaded: PreloadedSubject[];
}

const AVAILABLE_FOOTER = `Use the \`learn\` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

/**
 * Whether a topic is listable: one of its visible (enabled) subjects, given by slug, is not learned.
 * Only a listable topic is listed in the section and offered by the tool.
 */
export function isListable(visible: readonly string[], learned: ReadonlySet<string>): boolean {
  return visible.some((slug) => !learned.has(slug));
}

/**
 * What the section shows of a topic, from its visible subjects' slugs and its pre-loaded subjects
 * (the learned ones, in resolution order, with their content).
 */
export function describeKnowledgeTopic(
  topic: { id: string; title: string | undefined; introduction: string | undefined; description: string | undefined },
  visible: readonly string[],
  preloaded: PreloadedSubject[],
): KnowledgeTopic {
  return {
    id: topic.id,
    title: topic.title,
    introduction: topic.introduction,
    description: topic.description,
    listable: isListable(visible, new Set(preloaded.map((s) => s.slug))),
    preloaded,
  };
}

/** The tool definition that agrees with the section of `topics`: their listable ones; null when none is. */
export function learnDefinitionOf(topics: readonly Pick<KnowledgeTopic, 'id' | 'title' | 'listable'>[]): LearnToolDefinition | null {
  return renderLearnDefinition(topics.filter((t) => t.listable));
}

/**
 * Renders the section; `''` when no topic is listable and none has pre-loaded subjects. `index`
 * (prompt-index.ts; `''` by default, as the spec's section has none) goes after the list of
 * topics, separated by blank lines.
 */
export function renderKnowledgeSection(topics: readonly KnowledgeTopic[], index = ''): string {
  const preloaded = topics.filter((t) => t.preloaded.length > 0);
  const listable = topics.filter((t) => t.listable);
  if (preloaded.length === 0 && listable.length === 0) return '';
  const parts: string[] = [];
  if (preloaded.length > 0) {
    const blocks = preloaded.map((topic) => {
      const lines = [`<topic "${topic.title ?? topic.id}">`, ''];
      if (topic.description !== undefined) lines.push(topic.description, '');
      lines.push(renderLoaded(topic.preloaded, false));
      lines.push('</topic>');
      return lines.join('\n');
    });
    parts.push(`The following knowledge has been pre-loaded into your system prompt:\n\n${blocks.join('\n\n')}`);
  }
  if (listable.length > 0) {
    const list = listable.map((t) => renderTopicLine(t, t.introduction)).join('\n');
    parts.push(`The following knowledge topics are available to learn:\n\n${list}\n\n${index === '' ? '' : `${index}\n\n`}${AVAILABLE_FOOTER}`);
  }
  return `<knowledge>\n${parts.join('\n\n')}\n</knowledge>`;
}

/** The section of `topics` (`''` for none), with `index` when given, and the tool that agrees with it. */
export function renderKnowledge(topics: readonly KnowledgeTopic[], index = ''): { prompt: string; tool: LearnToolDefinition | null } {
  return { prompt: renderKnowledgeSection(topics, index), tool: learnDefinitionOf(topics) };
}
