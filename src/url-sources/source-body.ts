/**
 * A fetched body to a URL source's content (content/reference/subject-formats.md, "URL sources"),
 * by its content type: HTML becomes markdown, markdown and plain text are kept as they are;
 * anything else is refused.
 */
import { isBinary } from '../kb/subjects/format.ts';
import type { SourceFormat } from '../kb/url-sources/document.ts';
import { htmlToMarkdown } from './html-to-markdown.ts';
import { absoluteMarkdownLinks } from './markdown-links.ts';
import type { FetchProblem } from './url-fetch.ts';

/**
 * The version of the conversion: part of every cached copy, so that a copy made by an older
 * conversion is fetched and converted again instead of being revalidated.
 */
export const SOURCE_CONVERSION_VERSION = 2;

/** A converted body, or why there is none. */
export type ConvertedBody = { ok: true; format: SourceFormat; content: string } | ({ ok: false } & FetchProblem);

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown']);

/**
 * Converts the body of `url` (its final address, after redirects) by its `Content-Type`:
 * - `text/html`, `application/xhtml+xml` → markdown (see `htmlToMarkdown`);
 * - `text/markdown`, `text/x-markdown` → markdown, as it is but for its relative links, made
 *   absolute (see `absoluteMarkdownLinks`);
 * - `text/plain` → plain text as it is, or markdown (as above) when the URL's path ends in `.md`
 *   or `.markdown` (raw file hosts serve markdown as text/plain);
 * - anything else, a missing type, or a body with a NUL byte in its first 8192 bytes, is refused.
 * Text is decoded by the type's `charset` (for HTML also a `<meta charset>`), else as UTF-8 (a BOM
 * dropped); the core turns line breaks into `\n` when it reads the content.
 */
export function convertBody(body: Buffer, contentType: string | undefined, url: string): ConvertedBody {
  const { mime, charset } = parseContentType(contentType);
  const html = HTML_TYPES.has(mime);
  if (!html && !MARKDOWN_TYPES.has(mime) && mime !== 'text/plain') {
    return {
      ok: false,
      problem: mime === '' ? 'the server sent no Content-Type' : `the server sent ${mime}, not HTML, markdown or plain text`,
      fix: 'List a web page, a markdown file or a text file.',
    };
  }
  if (isBinary(body)) {
    return { ok: false, problem: `the body is binary although the server calls it ${mime}`, fix: 'List a web page, a markdown file or a text file.' };
  }
  const text = decode(body, charset ?? (html ? metaCharset(body) : undefined));
  if (html) return { ok: true, format: 'markdown', content: htmlToMarkdown(text, url).markdown };
  const markdown = MARKDOWN_TYPES.has(mime) || /\.(?:md|markdown)$/i.test(new URL(url).pathname);
  return markdown ? { ok: true, format: 'markdown', content: absoluteMarkdownLinks(text, url) } : { ok: true, format: 'text', content: text };
}

function parseContentType(value: string | undefined): { mime: string; charset: string | undefined } {
  const [type = '', ...parameters] = (value ?? '').split(';');
  const charset = parameters.map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?\s*$/i.exec(p)?.[1]).find((c) => c !== undefined);
  return { mime: type.trim().toLowerCase(), charset };
}

/** The charset a page declares in its first 1024 bytes (`<meta charset>` or `http-equiv`). */
function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 1024).toString('latin1');
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1];
}

function decode(body: Buffer, charset: string | undefined): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    // An unknown label: UTF-8 is the web's default.
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(body);
}
