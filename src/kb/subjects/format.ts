/** Subject content and format handling (content/reference/subject-formats.md). Pure functions over bytes and strings. */

/** How a subject is shown: passed through as it is, or fenced as code. */
export type SubjectFormat = 'markdown' | 'text' | 'code';

/** Why a subject's content was replaced by a message. */
export type SkipReason = 'binary' | 'too-large' | 'unreadable';

const MARKDOWN_EXTENSIONS = new Set(['md', 'markdown', 'mdx']);
const TEXT_EXTENSIONS = new Set(['txt', 'text', '']);
const LANGUAGES: Readonly<Record<string, string>> = {
  yml: 'yaml',
  rs: 'rust',
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
};

/** The number of leading bytes searched for a NUL to call a file binary. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Whether the site copies a subject's stored file to `/raw/`: files whose content is not shown
 * as text (binary or oversized), and SVG files only when `[site] allow_html` trusts them, since an
 * SVG opened on its own runs its scripts in the site's origin. `extension` as `slugOf` gives it.
 */
export function isPublishedRaw(skipped: SkipReason | null, extension: string, allowHtml: boolean): boolean {
  if (skipped === 'binary' || skipped === 'too-large') return true;
  return extension === 'svg' && allowHtml;
}

/** Extensions of binary subjects the site shows as images on their page. */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico']);

/** The format of a subject from its (lower-case) extension. */
export function formatOf(extension: string): SubjectFormat {
  if (MARKDOWN_EXTENSIONS.has(extension)) return 'markdown';
  if (TEXT_EXTENSIONS.has(extension)) return 'text';
  return 'code';
}

/**
 * Whether a subject's file is MDX (`.mdx`): markdown for agents as written, which the site renders
 * with its components mapped (content/reference/subject-formats.md, "MDX"). `relativePath` as
 * the subject's `path`.
 */
export function isMdxPath(relativePath: string): boolean {
  return /\.mdx$/i.test(relativePath);
}

/** Whether a format is passed through as it is (as opposed to fenced). */
export function isPassThrough(format: SubjectFormat): boolean {
  return format !== 'code';
}

/** The fence language of a fenced subject, or `null` for pass-through ones. */
export function languageOf(extension: string): string | null {
  if (formatOf(extension) !== 'code') return null;
  return LANGUAGES[extension] ?? extension;
}

/** Whether the first 8192 bytes hold a NUL byte. */
export function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The decoded text of a subject file and whether it held invalid UTF-8. */
export interface DecodedText {
  text: string;
  invalidUtf8: boolean;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });
const lenientDecoder = new TextDecoder('utf-8');

/**
 * Decodes bytes as UTF-8 (a BOM dropped, invalid bytes as U+FFFD), turns `\r\n` into `\n` and
 * removes trailing `\n`s. A lone `\r` is kept.
 */
export function decodeSubjectText(bytes: Uint8Array): DecodedText {
  let text: string;
  let invalidUtf8 = false;
  try {
    text = strictDecoder.decode(bytes);
  } catch {
    text = lenientDecoder.decode(bytes);
    invalidUtf8 = true;
  }
  return { text: normalizeText(text), invalidUtf8 };
}

/** `\r\n` → `\n`, then trailing `\n`s removed. */
export function normalizeText(text: string): string {
  return text.replaceAll('\r\n', '\n').replace(/\n+$/, '');
}

/** The length of the longest run of backticks in a text. */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

/**
 * Wraps text in a fenced block whose info string is the language. The fence is three backticks,
 * or one more than the longest run of backticks in the text, so it always closes where it should.
 */
export function fenceText(text: string, language: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return text === '' ? `${fence}${language}\n${fence}` : `${fence}${language}\n${text}\n${fence}`;
}

/** The text a block made by {@link fenceText} holds. */
export function unfenceText(fenced: string): string {
  const start = fenced.indexOf('\n');
  const end = fenced.lastIndexOf('\n');
  return start === end ? '' : fenced.slice(start + 1, end);
}

/** The content of a decoded subject as `learn` returns it: as it is, or fenced. */
export function presentSubjectText(text: string, extension: string): string {
  const language = languageOf(extension);
  return language === null ? text : fenceText(text, language);
}

/** The message that replaces the content of a skipped subject. */
export function skippedMessage(slug: string, reason: SkipReason, maxBytes: number): string {
  const quoted = JSON.stringify(slug);
  switch (reason) {
    case 'binary':
      return `Subject ${quoted} is a binary file and was skipped.`;
    case 'too-large':
      return `Subject ${quoted} is larger than ${maxBytes} bytes and was skipped.`;
    case 'unreadable':
      return `Subject ${quoted} could not be read and was skipped.`;
  }
}
