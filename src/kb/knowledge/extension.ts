/**
 * Pre-loading more subjects with `-k` values and profiles (content/agents/preloading.md): how a
 * value names a topic and a pattern, which requests are valid, and how the patterns extend a
 * topic's learned subjects. Pure; every host (the CLI, the agent server, the catalog of a build)
 * and both knowledge views (local files, a published site) apply them through here.
 */
import { compilePattern } from '../patterns/glob.ts';
import { type ResolvableSubject, resolvePatterns } from '../subjects/resolve.ts';

/** Splits a `-k` value on its first `/`: `topic` alone and `topic/` mean `topic/**`. */
export function splitKnowledgeFlag(value: string): { topic: string; pattern: string } {
  const slash = value.indexOf('/');
  if (slash === -1) return { topic: value, pattern: '**' };
  const pattern = value.slice(slash + 1);
  return { topic: value.slice(0, slash), pattern: pattern === '' ? '**' : pattern };
}

/** What an agent's host asks to pre-load besides the config's own `learned`. */
export interface KnowledgeRequest {
  /** A profile's name (`--profile`). */
  profile?: string | undefined;
  /** `-k` values, in the order given (after the profile's). */
  knowledge?: readonly string[] | undefined;
}

/** A `-k`-style value, checked: an enabled topic's id and a pattern that compiles. */
export interface ExtraKnowledge {
  topic: string;
  pattern: string;
}

/** What a knowledge base offers to extend: its topics and its profiles. */
export interface KnowledgeOffer {
  /** Every configured topic, disabled ones included (a value naming one gets its own message). */
  topics: readonly { id: string; enable: boolean }[];
  /**
   * The profiles by name, in config order: the `-k`-style entries of each (a config's), or null
   * when the knowledge base holds a profile's pre-loaded subjects itself (a site's knowledge file).
   */
  profiles: ReadonlyMap<string, readonly string[] | null>;
  /** What the unknown-profile message says when there is no profile at all. */
  noProfiles: string;
}

/** A checked request: the profile the knowledge base applies itself, then the patterns to add. */
export interface KnowledgeExtension {
  /** A profile whose pre-loaded subjects the knowledge base holds (offered as null); else undefined. */
  profile: string | undefined;
  /** Patterns appended after each topic's learned ones: a config's profile entries, then `-k` values. */
  extra: ExtraKnowledge[];
}

/**
 * Checks a `-k`-style value against the topics: its topic and pattern, or a message naming
 * `origin` (`-k`, `profile.x.knowledge entry`) and the valid topics.
 */
export function checkKnowledgeValue(
  value: string,
  origin: string,
  topics: readonly { id: string; enable: boolean }[],
): { ok: true; value: ExtraKnowledge } | { ok: false; message: string } {
  const { topic: id, pattern } = splitKnowledgeFlag(value);
  const topic = topics.find((t) => t.id === id);
  const enabled = topics.filter((t) => t.enable).map((t) => t.id);
  const valid = enabled.length > 0 ? `Valid topics: ${enabled.join(', ')}.` : 'There are no topics.';
  if (!topic) return { ok: false, message: `${origin} ${JSON.stringify(value)}: unknown topic ${JSON.stringify(id)}. ${valid}` };
  if (!topic.enable) return { ok: false, message: `${origin} ${JSON.stringify(value)}: topic ${JSON.stringify(id)} is disabled (enable = false). ${valid}` };
  const compiled = compilePattern(pattern);
  if (!compiled.ok) return { ok: false, message: `${origin} ${JSON.stringify(value)}: ${compiled.message}` };
  return { ok: true, value: { topic: id, pattern } };
}

/**
 * Checks a request against what a knowledge base offers, profile first: an unknown profile, or a
 * value (of `-k` or of the profile) naming an unknown or disabled topic or holding a pattern that
 * does not compile, is the message of the first one found.
 */
export function checkKnowledgeRequest(request: KnowledgeRequest, offer: KnowledgeOffer): { ok: true; value: KnowledgeExtension } | { ok: false; message: string } {
  const extension: KnowledgeExtension = { profile: undefined, extra: [] };
  const add = (values: readonly string[], origin: string): string | undefined => {
    for (const value of values) {
      const checked = checkKnowledgeValue(value, origin, offer.topics);
      if (!checked.ok) return checked.message;
      extension.extra.push(checked.value);
    }
    return undefined;
  };
  if (request.profile !== undefined) {
    const name = request.profile;
    if (!offer.profiles.has(name)) {
      const names = [...offer.profiles.keys()];
      return { ok: false, message: `Unknown profile ${JSON.stringify(name)}. ${names.length > 0 ? `Valid profiles: ${names.join(', ')}.` : offer.noProfiles}` };
    }
    const entries = offer.profiles.get(name)!;
    if (entries === null) extension.profile = name;
    else {
      const problem = add(entries, `profile.${name}.knowledge entry`);
      if (problem !== undefined) return { ok: false, message: problem };
    }
  }
  const problem = add(request.knowledge ?? [], '-k');
  if (problem !== undefined) return { ok: false, message: problem };
  return { ok: true, value: extension };
}

/** The patterns of `extra` by topic id, in order. */
export function patternsByTopic(extra: readonly ExtraKnowledge[]): Map<string, string[]> {
  const byTopic = new Map<string, string[]>();
  for (const { topic, pattern } of extra) byTopic.set(topic, [...(byTopic.get(topic) ?? []), pattern]);
  return byTopic;
}

/**
 * A topic's learned subjects with `patterns` appended after its own: `learned` (its own, in
 * resolution order), then the slugs the patterns select among `subjects` (resolved as `learned`
 * entries are: content/reference/patterns.md) that it does not hold yet, in `added`. The same as
 * resolving the topic's own patterns followed by these: each slug once, at its first place.
 */
export function extendLearned(
  learned: readonly string[],
  subjects: readonly ResolvableSubject[],
  bySlug: ReadonlyMap<string, ResolvableSubject>,
  patterns: readonly string[],
): { ok: true; slugs: string[]; added: string[] } | { ok: false; message: string } {
  const resolution = resolvePatterns(subjects, bySlug, patterns);
  if (!resolution.ok) return { ok: false, message: resolution.message };
  const known = new Set(learned);
  const added = resolution.slugs.filter((slug) => !known.has(slug));
  return { ok: true, slugs: [...learned, ...added], added };
}
