/** The slug of a URL source, from its host and path (content/reference/subject-formats.md, "Slugs"). Pure. */
import { domainToUnicode } from 'node:url';
import { isUnsafeName } from '../subjects/slug.ts';

/**
 * Extensions that name how a page is served rather than what it is about: removed from the last
 * segment of a URL source's slug (`intro.html` → `intro`), matched case-insensitively. Any other
 * dot stays (`/releases/v1.2` → `v1.2`), so that versions and file names keep their meaning.
 */
const PAGE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'shtml', 'php', 'asp', 'aspx', 'jsp', 'md', 'markdown', 'txt', 'text']);

/** A URL source's slug, and whether the source is hidden. */
export interface SourceSlug {
  slug: string;
  /** True when a segment of the URL's path starts with `.`, as for a file (content/guide/concepts/hidden-subjects.md). */
  hidden: boolean;
}

/**
 * The slug of a URL source: its host, then the segments of its path, `/`-separated.
 *
 * - The host is lower case (the URL parser's), an internationalised one in Unicode
 *   (`xn--caf-dma.example` → `café.example`); a port other than the scheme's default follows it
 *   (`localhost:8080`). The scheme is not part of the slug: `http://` and `https://` of one page
 *   share it.
 * - Path segments keep their case; each is percent-decoded (`caf%C3%A9` → `café`) unless it does
 *   not decode or would decode to a `/`. Empty segments (`a//b`) are dropped.
 * - A path ending in `/` (the bare host included) ends in `index`: `https://example.com/docs/` →
 *   `example.com/docs/index`, `https://example.com` → `example.com/index`.
 * - The last segment loses one page extension (`.html`, `.htm`, `.xhtml`, `.shtml`, `.php`,
 *   `.asp`, `.aspx`, `.jsp`, `.md`, `.markdown`, `.txt`, `.text`, in any case):
 *   `https://example.com/docs/intro.html` → `example.com/docs/intro`.
 * - As for files, one leading `.` is dropped from each segment and makes the source hidden:
 *   `https://example.com/.notes/a` → `example.com/notes/a`, hidden.
 * - A query string is kept after the last segment, as written (a `/` in it as `%2F`):
 *   `https://example.com/list?page=2` → `example.com/list?page=2`. A `#fragment` is not part of
 *   the source.
 */
export function sourceSlugOf(href: string): SourceSlug {
  const url = new URL(href);
  const host = url.port === '' ? hostOf(url.hostname) : `${hostOf(url.hostname)}:${url.port}`;
  const segments = url.pathname
    .split('/')
    .filter((segment) => segment !== '')
    .map(decodeSegment);
  if (url.pathname.endsWith('/') || segments.length === 0) segments.push('index');
  const last = segments.length - 1;
  const dot = segments[last]!.lastIndexOf('.');
  if (dot > 0 && PAGE_EXTENSIONS.has(segments[last]!.slice(dot + 1).toLowerCase())) segments[last] = segments[last]!.slice(0, dot);
  let hidden = false;
  const undotted = segments.map((segment) => {
    if (!segment.startsWith('.') || segment.length === 1) return segment;
    hidden = true;
    return segment.slice(1);
  });
  const query = url.search.replaceAll('/', '%2F');
  return { slug: `${[host, ...undotted].join('/')}${query}`, hidden };
}

function hostOf(hostname: string): string {
  if (hostname.startsWith('[')) return hostname;
  const unicode = domainToUnicode(hostname);
  return unicode === '' ? hostname : unicode;
}

function decodeSegment(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    // Decoding never makes one segment two, nor a name agents could be misled by.
    return decoded.includes('/') || isUnsafeName(decoded) ? segment : decoded;
  } catch {
    return segment;
  }
}
