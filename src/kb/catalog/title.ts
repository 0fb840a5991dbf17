/**
 * Subject titles and front matter (content/guide/the-site.md, "How subjects are shown"): front
 * matter `title`, else the first `# ` heading, else front matter `name` (an Agent Skills
 * `SKILL.md`), else the slug's last segment.
 */
import { createFenceReader } from '../markdown/fences.ts';

type ParseDocument = typeof import('yaml').parseDocument;
let parseDocument: ParseDocument | undefined;

/** Loads the YAML parser; call once before {@link readFrontMatter}. Commands that never read front matter never load it. */
export async function loadFrontMatterParser(): Promise<void> {
  parseDocument ??= (await import('yaml')).parseDocument;
}

/** Front matter of a markdown subject, and where it was broken if it was. */
export interface FrontMatter {
  data: Record<string, unknown>;
  /** Lines the front matter block takes, fences included (0 when there is none). */
  lines: number;
  /** A message when the block is not valid YAML (the data is then empty). */
  error: { message: string; line: number } | undefined;
}

/**
 * Where a leading `---` … `---` block ends: the index of its closing `---`'s line break (the
 * YAML is `text.slice(4, end + 1)`), or -1 when the text has no front matter.
 */
function frontMatterEnd(text: string): number {
  if (!text.startsWith('---\n')) return -1;
  const end = text.indexOf('\n---', 3);
  if (end === -1) return -1;
  const after = text.slice(end + 4);
  return after === '' || after.startsWith('\n') ? end : -1;
}

/** Lines a leading `---` … `---` block takes, fences included (0 when there is none), without parsing its YAML. */
export function frontMatterLineCount(text: string): number {
  const end = frontMatterEnd(text);
  return end === -1 ? 0 : text.slice(4, end + 1).split('\n').length + 1;
}

/** Reads a leading `---` … `---` YAML block. */
export function readFrontMatter(text: string): FrontMatter {
  const none: FrontMatter = { data: {}, lines: 0, error: undefined };
  const end = frontMatterEnd(text);
  if (end === -1) return none;
  if (!parseDocument) throw new Error('readFrontMatter called before loadFrontMatterParser');
  const yaml = text.slice(4, end + 1);
  const lines = yaml.split('\n').length + 1;
  const document = parseDocument(yaml);
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    return { data: {}, lines, error: { message: first.message.split('\n')[0] ?? 'invalid YAML', line: (first.linePos?.[0]?.line ?? 1) + 1 } };
  }
  const data = document.toJS() as unknown;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { data: {}, lines, error: data === null ? undefined : { message: 'front matter is not a mapping of keys to values', line: 2 } };
  }
  return { data: data as Record<string, unknown>, lines, error: undefined };
}

/** The text of the first `# ` heading outside code fences, if any. */
export function firstHeading(text: string): string | undefined {
  const inCode = createFenceReader();
  for (const line of text.split('\n')) {
    if (inCode(line)) continue;
    const heading = /^ {0,3}# +(.*?)(?: +#+)? *$/.exec(line);
    if (heading && heading[1] !== '') return heading[1];
  }
  return undefined;
}

/** Where a subject's title came from, in the order {@link titleOf} tries them. */
export type TitleSource = 'front-matter-title' | 'heading' | 'front-matter-name' | 'slug';

/** A subject's title and where it came from. */
export interface SubjectTitle {
  title: string;
  source: TitleSource;
}

/**
 * A subject's title and its source: for markdown, front matter `title`, else its first `# `
 * heading, else front matter `name` (text, trimmed; blank values are skipped); else, and for
 * every other format, the slug's last segment.
 */
export function subjectTitleOf(slug: string, markdown: boolean, text: string, frontMatter: FrontMatter): SubjectTitle {
  if (markdown) {
    const fromMatter = frontMatterText(frontMatter, 'title');
    if (fromMatter !== undefined) return { title: fromMatter, source: 'front-matter-title' };
    const heading = firstHeading(frontMatter.lines > 0 ? text.split('\n').slice(frontMatter.lines).join('\n') : text);
    if (heading !== undefined) return { title: heading, source: 'heading' };
    const name = frontMatterText(frontMatter, 'name');
    if (name !== undefined) return { title: name, source: 'front-matter-name' };
  }
  return { title: slug.slice(slug.lastIndexOf('/') + 1), source: 'slug' };
}

/** A subject's title ({@link subjectTitleOf} without its source). */
export function titleOf(slug: string, markdown: boolean, text: string, frontMatter: FrontMatter): string {
  return subjectTitleOf(slug, markdown, text, frontMatter).title;
}

/** A front matter value that is non-blank text, trimmed. */
function frontMatterText(frontMatter: FrontMatter, key: string): string | undefined {
  const value = frontMatter.data[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
