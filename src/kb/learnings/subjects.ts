/**
 * From a learnings store to subjects (content/reference/cli/learnings.md, "As a topic"): each
 * valid learning becomes the markdown subject `<category>/<id>`, whose content is a small
 * rendering of the learning. Pure.
 */
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { describeEntryProblems, type Learning, type LearningsStore, type StoreEntry } from './store.ts';
import { isUnsafeName } from '../subjects/slug.ts';
import type { Subject } from '../subjects/subjects.ts';

const encoder = new TextEncoder();

/**
 * One slug segment from a store value: a `~`, `/` or `\`, a control character, a line or paragraph
 * separator, `"`, `<`, `>` (which could break the framing of what agents read) and a leading `.`
 * become `~` plus two upper-case hex digits per UTF-8 byte (as in site addresses), so that every
 * id gives one segment, never hidden, never `.` or `..`, and two different ids never share a
 * segment. `a/b` → `a~2Fb`, `.x` → `~2Ex`, `~` → `~7E`; `learn-lx2abc-def123` stays as it is.
 */
export function learningSlugSegment(value: string): string {
  let out = '';
  let first = true;
  for (const char of value) {
    const encode = char === '~' || char === '/' || char === '\\' || isUnsafeName(char) || (first && char === '.');
    first = false;
    if (!encode) {
      out += char;
      continue;
    }
    for (const byte of encoder.encode(char)) out += `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The slug of a learning: `<category>/<id>`, the id encoded by {@link learningSlugSegment}. */
export function learningSlug(learning: Pick<Learning, 'category' | 'id'>): string {
  return `${learning.category}/${learningSlugSegment(learning.id)}`;
}

/** The title and the rest of a learning's content (see {@link renderLearning}). */
export function splitLearningContent(learning: Pick<Learning, 'content' | 'id'>): { title: string; body: string } {
  const lines = learning.content.replaceAll('\r\n', '\n').split('\n');
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  const first = (lines[0] ?? '').trim();
  const title = first.replace(/^#{1,6}(?:\s+|$)/, '').trim();
  if (title === '' || /^(?:```|~~~)/.test(first)) return { title: oneLine(learning.id), body: lines.join('\n') };
  const rest = lines.slice(1);
  while (rest.length > 0 && rest[0]!.trim() === '') rest.shift();
  return { title, body: rest.join('\n') };
}

/**
 * The text a learning's summary is taken from (its first paragraph): its content without
 * the heading marker, as {@link renderLearning} shows it, so equal renderings summarise alike.
 */
export function learningSummaryText(learning: Pick<Learning, 'content' | 'id'>): string {
  const { title, body } = splitLearningContent(learning);
  return body === '' ? title : `${title}\n${body}`;
}

/**
 * A learning's content as `learn` returns it: a `# ` heading made of the content's first line
 * (a leading `#` heading marker dropped; the id when that line is empty or opens a code fence),
 * the rest of the content, then a list of what the store says about it:
 *
 * ```
 * # This project uses Zod schemas for all API validation
 *
 * - Confidence: 0.75
 * - Used: 5 times, 4 successful
 * - Last used: 2024-01-14T15:30:00.000Z
 * - Created: 2024-01-10T08:00:00.000Z
 * - Keywords: zod, schema, validation, api
 * ```
 *
 * Confidence is rounded to two decimals; a learning never used says `- Used: never`; "Last
 * used", "Keywords", and `- File:`, `- Pattern:` (both as inline code) and `- Approach:` from
 * `structured` appear only when present. Values are written on one line (white space runs
 * become one space).
 */
export function renderLearning(learning: Learning): string {
  const { title, body } = splitLearningContent(learning);
  const keywords = learning.keywords.map(oneLine).filter((k) => k !== '');
  const { file, pattern, approach } = learning.structured ?? {};
  const details = [
    `- Confidence: ${formatConfidence(learning.confidence)}`,
    `- Used: ${formatUsage(learning)}`,
    ...(learning.lastUsedAt !== undefined ? [`- Last used: ${learning.lastUsedAt}`] : []),
    `- Created: ${learning.createdAt}`,
    ...(keywords.length > 0 ? [`- Keywords: ${keywords.join(', ')}`] : []),
    ...(file !== undefined && oneLine(file) !== '' ? [`- File: ${inlineCode(file)}`] : []),
    ...(pattern !== undefined && oneLine(pattern) !== '' ? [`- Pattern: ${inlineCode(pattern)}`] : []),
    ...(approach !== undefined && oneLine(approach) !== '' ? [`- Approach: ${oneLine(approach)}`] : []),
  ];
  return [`# ${title}`, ...(body === '' ? [] : [body]), details.join('\n')].join('\n\n');
}

/**
 * The learning's own words in a content {@link renderLearning} made: everything before the list
 * of details (which every learning has, and which would make short learnings look alike).
 */
export function learningTextOf(rendered: string): string {
  const details = rendered.lastIndexOf('\n\n- Confidence: ');
  return details === -1 ? rendered : rendered.slice(0, details);
}

/** A confidence for people: rounded to two decimals (`0.30000000000000004` → `0.3`). */
export function formatConfidence(confidence: number): string {
  return String(Math.round(confidence * 100) / 100);
}

/** `never`, `1 time, 1 successful`, `5 times, 4 successful`. */
function formatUsage(learning: Pick<Learning, 'usedCount' | 'successCount'>): string {
  if (learning.usedCount === 0) return 'never';
  return `${learning.usedCount} ${learning.usedCount === 1 ? 'time' : 'times'}, ${learning.successCount} successful`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Inline code that holds any text: a fence longer than its longest run of backticks. */
function inlineCode(text: string): string {
  const value = oneLine(text);
  const longest = Math.max(0, ...[...value.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(value) ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}

/** The subjects of a store, sorted by slug, and what was wrong with its entries. */
export interface LearningSubjects {
  subjects: Subject[];
  bySlug: Map<string, Subject>;
  diagnostics: Diagnostic[];
}

/**
 * The subjects of a store read from `file` for topic `topicId`. An invalid entry is a warning
 * (`invalid-learning`, at its line) and is left out; entries with the same category and id share
 * a slug: the first in file order is used, and the collision is a `duplicate-slug` content error
 * at the line of the second, naming every entry involved.
 */
export function learningSubjects(store: LearningsStore, file: string, topicId: string): LearningSubjects {
  const diagnostics: Diagnostic[] = [];
  const bySlug = new Map<string, Subject>();
  const entriesBySlug = new Map<string, StoreEntry[]>();
  const name = path.basename(file);
  for (const entry of store.entries) {
    if (!entry.learning) {
      diagnostics.push({
        kind: 'warning',
        code: 'invalid-learning',
        message: `${describeEntryProblems(entry)} It is left out of topic "${topicId}" until the entry is fixed.`,
        file,
        line: entry.line,
      });
      continue;
    }
    const slug = learningSlug(entry.learning);
    const same = entriesBySlug.get(slug);
    if (same) {
      same.push(entry);
      continue;
    }
    entriesBySlug.set(slug, [entry]);
    bySlug.set(slug, {
      slug,
      path: `${name}#${learningSlugSegment(entry.learning.id)}`,
      file,
      hidden: false,
      extension: 'md',
      format: 'markdown',
      learning: { entry: entry.learning, line: entry.line },
    });
  }
  for (const [slug, entries] of entriesBySlug) {
    if (entries.length < 2) continue;
    const named = entries.map((e) => `learnings[${e.index}] (line ${e.line})`);
    diagnostics.push({
      kind: 'content-error',
      code: 'duplicate-slug',
      message: `Duplicate slug ${JSON.stringify(slug)} in topic "${topicId}": ${named.join(', ')} all have this category and id; ${named[0]} is used. Give each learning its own id, or remove the copies.`,
      file,
      line: entries[1]!.line,
    });
  }
  const subjects = [...bySlug.keys()].sort().map((slug) => bySlug.get(slug)!);
  return { subjects, bySlug, diagnostics };
}
