/**
 * Broken `topic/slug` mentions (`check`, content/reference/cli/check.md): inline code that names
 * a subject of this knowledge base the way an agent would pass it to `learn`, but names none.
 */
import type { Catalog, CatalogSubject, CatalogTopic } from '../catalog/catalog.ts';
import { isCheckedMarkdown, outlineOf, placeIn, type OutlineMemo } from './markdown-facts.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { resolvePatterns } from '../subjects/resolve.ts';

/** A whole inline code span of the form `<topic id>/<rest>`, `<rest>` without white space. */
const MENTION = /^([A-Za-z][A-Za-z0-9_-]*)\/(\S+)$/;
/** Characters that make a mention a placeholder (`guide/<slug>`, `guide/…`), not a name. */
const PLACEHOLDER = /[<>…]/;
/** Characters with a meaning in globs (content/reference/patterns.md). */
const GLOB_SYNTAX = /[*?[\]{}\\]/;

/** What mentions can name in one topic. */
interface MentionTargets {
  topic: CatalogTopic;
  bySlug: Map<string, CatalogSubject>;
  paths: Set<string>;
  folders: Set<string>;
}

/**
 * A `broken-mention` warning for every mention in a markdown subject that names nothing.
 *
 * A mention is an inline code span whose whole value (as CommonMark reads it: one surrounding
 * space stripped) is `<topic>/<rest>`, where `<topic>` is the id of an enabled topic and `<rest>`
 * holds no white space and no placeholder character (`<`, `>`, `…`). It resolves when `<rest>`,
 * read as a `learn` pattern (content/reference/patterns.md: an exact slug, hidden subjects
 * included, else a glob over the visible subjects; a trailing `/` reads as `/**`), selects a
 * subject, or when `<rest>` is the path of a subject's file in the topic folder
 * (`guide/concepts/slugs.md`). Disabled subjects do not exist, so a mention of one is broken. Code
 * blocks are not read; write `./guide/x` for a path that is not a mention. `outlines` keeps the
 * subjects' outlines between runs.
 */
export function checkMentions(catalog: Catalog, outlines?: OutlineMemo): Diagnostic[] {
  const topics = new Map(catalog.topics.map((topic) => [topic.id, topic]));
  const targets = new Map<string, MentionTargets>();
  const targetsOf = (topic: CatalogTopic): MentionTargets => {
    let found = targets.get(topic.id);
    if (!found) targets.set(topic.id, (found = mentionTargets(topic)));
    return found;
  };
  // Cheap test first: a backtick, then a topic id and a slash.
  const ids = catalog.topics.map((t) => t.id.replace(/-/g, '\\-')).join('|');
  const candidate = ids === '' ? undefined : new RegExp(`\`\\s?(?:${ids})/`);
  const diagnostics: Diagnostic[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      if (!candidate || !isCheckedMarkdown(subject) || !candidate.test(subject.content)) continue;
      for (const code of outlineOf(subject, outlines).codes) {
        const match = MENTION.exec(code.value);
        if (!match || PLACEHOLDER.test(match[2]!)) continue;
        const named = topics.get(match[1]!);
        if (!named) continue;
        const problem = mentionProblem(targetsOf(named), match[2]!);
        if (problem === undefined) continue;
        diagnostics.push({
          kind: 'warning',
          code: 'broken-mention',
          message: `Broken mention ${JSON.stringify(code.value)}: ${problem}`,
          file: subject.file,
          ...placeIn(subject, code),
        });
      }
    }
  }
  return diagnostics;
}

function mentionTargets(topic: CatalogTopic): MentionTargets {
  const folders = new Set<string>();
  for (const subject of topic.subjects) {
    for (let slash = subject.slug.indexOf('/'); slash !== -1; slash = subject.slug.indexOf('/', slash + 1)) folders.add(subject.slug.slice(0, slash));
  }
  return { topic, bySlug: new Map(topic.subjects.map((s) => [s.slug, s])), paths: new Set(topic.subjects.map((s) => s.path)), folders };
}

/** Why `rest` names nothing in the topic (the rest of the message), or undefined when it names something. */
function mentionProblem({ topic, bySlug, paths, folders }: MentionTargets, rest: string): string | undefined {
  if (paths.has(rest)) return undefined;
  const pattern = rest.endsWith('/') ? `${rest}**` : rest;
  const resolution = resolvePatterns(topic.subjects, bySlug, [pattern]);
  if (!resolution.ok) return `${resolution.message} Fix the pattern.`;
  if (resolution.slugs.length > 0) return undefined;
  const inTopic = `topic ${JSON.stringify(topic.id)}`;
  if (GLOB_SYNTAX.test(pattern)) {
    return `the pattern ${JSON.stringify(pattern)} matches no listed subject of ${inTopic} (globs never select hidden subjects). Fix the pattern.`;
  }
  if (folders.has(rest)) return `${JSON.stringify(rest)} is a folder of ${inTopic}, not a subject. Write "${topic.id}/${rest}/*" for its subjects.`;
  return `${inTopic} has no subject ${JSON.stringify(rest)} (it is missing or disabled). Fix the slug; start a path that is not a subject with "./".`;
}
