/**
 * The `learn` tool (content/agents/learn-tool.md): its definition, its arguments, topic resolution,
 * the listing of a topic and the text of loaded subjects, byte for byte. Pure functions over what
 * a knowledge view read; the flow that calls them is the view's (view.ts).
 */
import { checkPatterns } from './call-limits.ts';

/** The `learn` tool's parameters schema, fixed (key order included): content/agents/learn-tool.md. */
export const LEARN_PARAMETERS = {
  type: 'object',
  properties: {
    topic: { type: 'string', description: 'The topic ID or title to learn about.' },
    subjects: {
      type: ['string', 'array', 'null'],
      description: 'Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.',
      items: { type: 'string' },
    },
  },
  required: ['topic'],
  additionalProperties: false,
} as const;

/** The `learn` tool definition. */
export interface LearnToolDefinition {
  name: 'learn';
  description: string;
  parameters: typeof LEARN_PARAMETERS;
}

/** A tool result: text on success, a message on failure. */
export type Outcome = { ok: true; text: string } | { ok: false; message: string };

/** What the tool knows of a topic's identity. */
export interface TopicIdentity {
  id: string;
  title: string | undefined;
}

/** A topic's line in the `<knowledge>` list and the tool's description: `- id (**Title**): introduction`. */
export function renderTopicLine(topic: TopicIdentity, introduction?: string): string {
  let line = `- ${topic.id}`;
  if (topic.title !== undefined) line += ` (**${topic.title}**)`;
  if (introduction !== undefined) line += `: ${introduction}`;
  return line;
}

/** The tool definition listing `listable`, the listable topics; null when there is none. */
export function renderLearnDefinition(listable: readonly TopicIdentity[]): LearnToolDefinition | null {
  if (listable.length === 0) return null;
  const lines = listable.map((t) => renderTopicLine(t)).join('\n');
  return {
    name: 'learn',
    description: `Learn about knowledge base topics and subjects.\n\nAvailable topics:\n${lines}`,
    parameters: LEARN_PARAMETERS,
  };
}

/**
 * Finds the topic asked for: exact id, else the first topic whose title equals it under
 * `toLowerCase()`, else the unknown-topic error listing every enabled topic.
 */
export function resolveTopicId(topics: readonly TopicIdentity[], asked: string): { ok: true; id: string } | { ok: false; message: string } {
  const byId = topics.find((t) => t.id === asked);
  if (byId) return { ok: true, id: byId.id };
  const lower = asked.toLowerCase();
  const byTitle = topics.find((t) => t.title !== undefined && t.title.toLowerCase() === lower);
  if (byTitle) return { ok: true, id: byTitle.id };
  return { ok: false, message: unknownTopicMessage(topics, asked) };
}

/** `Unknown topic "x". Valid topics: a (A), b.` */
export function unknownTopicMessage(topics: readonly TopicIdentity[], asked: string): string {
  if (topics.length === 0) return `Unknown topic ${JSON.stringify(asked)}. There are no topics.`;
  const valid = topics.map((t) => (t.title !== undefined ? `${t.id} (${t.title})` : t.id)).join(', ');
  return `Unknown topic ${JSON.stringify(asked)}. Valid topics: ${valid}.`;
}

/** What a listing shows of a topic. */
export interface TopicListing {
  id: string;
  title: string | undefined;
  description: string | undefined;
  /** Visible, enabled, not learned subjects, in slug order. */
  available: readonly string[];
  /** Visible learned subjects, in slug order. */
  learned: readonly string[];
}

/**
 * What the listing of a topic shows: its visible subjects (slugs in slug order), the learned ones
 * apart.
 */
export function listTopic(topic: TopicIdentity & { description: string | undefined }, visible: readonly string[], learned: ReadonlySet<string>): TopicListing {
  const available: string[] = [];
  const learnedSlugs: string[] = [];
  for (const slug of visible) (learned.has(slug) ? learnedSlugs : available).push(slug);
  return { id: topic.id, title: topic.title, description: topic.description, available, learned: learnedSlugs };
}

/** The listing text of a topic. */
export function renderListing(topic: TopicListing): string {
  const parts = [`# Topic: ${topic.title ?? topic.id}`];
  if (topic.description !== undefined) parts.push(topic.description);
  if (topic.available.length === 0) {
    parts.push('## Available subjects:\n\n(none)');
  } else {
    parts.push(`## Available subjects:\n\n${topic.available.map((s) => `- ${s}`).join('\n')}`);
    parts.push('Use the `learn` tool with the `subjects` argument to learn specific subjects.');
  }
  if (topic.learned.length > 0) {
    parts.push(`## Already learned (in system prompt):\n\n${topic.learned.map((s) => `- ${s}`).join('\n')}`);
  }
  return parts.join('\n\n');
}

/** Renders loaded subjects: one pattern that named its subject exactly → bare; else blocks. */
export function renderLoaded(subjects: readonly { slug: string; content: string }[], bare: boolean): string {
  if (bare && subjects.length === 1) return subjects[0]!.content;
  return subjects.map((s) => `<subject "${s.slug}">\n${s.content}\n</subject>`).join('\n\n');
}

/** `No subjects in topic "x" match "a", "b". Call learn with only the topic to list its subjects.` */
export function noMatchMessage(topicId: string, patterns: readonly string[]): string {
  return `No subjects in topic ${JSON.stringify(topicId)} match ${patterns.map((p) => JSON.stringify(p)).join(', ')}. Call learn with only the topic to list its subjects.`;
}

/** How to call `learn`: the end of every message about wrong arguments. */
export const LEARN_USAGE = 'Call learn with {"topic": "<topic id or title>"} to list a topic, and add "subjects": "<pattern>" or ["<pattern>", …] to load subjects.';

/**
 * The arguments of a `learn` call, checked by {@link parseLearnArguments}, which every surface
 * calls: within the limits of src/kb/knowledge/call-limits.ts.
 */
export interface LearnArguments {
  topic: string;
  /** Non-empty patterns; empty = a listing. */
  patterns: string[];
}

/**
 * Checks raw tool arguments against the parameters schema and the limits of one call
 * ({@link checkPatterns}: the patterns given, empty ones included), with messages a model can act
 * on. Empty strings among the patterns are dropped. The CLI passes its arguments through here too,
 * as `{ topic, subjects: [...] }`.
 */
export function parseLearnArguments(args: unknown): { ok: true; value: LearnArguments } | { ok: false; message: string } {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { ok: false, message: `Invalid arguments: expected an object. ${LEARN_USAGE}` };
  }
  const record = args as Record<string, unknown>;
  const extra = Object.keys(record).filter((k) => k !== 'topic' && k !== 'subjects');
  if (extra.length > 0) {
    return { ok: false, message: `Invalid arguments: unknown argument ${extra.map((k) => JSON.stringify(k)).join(', ')}. ${LEARN_USAGE}` };
  }
  const { topic, subjects } = record;
  if (typeof topic !== 'string') {
    return { ok: false, message: `Invalid arguments: "topic" must be a string${topic === undefined ? ' and is required' : ''}. ${LEARN_USAGE}` };
  }
  let patterns: string[];
  if (subjects === undefined || subjects === null) patterns = [];
  else if (typeof subjects === 'string') patterns = [subjects];
  else if (Array.isArray(subjects) && subjects.every((s) => typeof s === 'string')) patterns = subjects;
  else return { ok: false, message: `Invalid arguments: "subjects" must be a string, an array of strings or null. ${LEARN_USAGE}` };
  const limited = checkPatterns(patterns);
  if (!limited.ok) return limited;
  return { ok: true, value: { topic, patterns: patterns.filter((p) => p !== '') } };
}
