/**
 * From the URLs of a `links.txt` and the documents the host fetched for them to subjects
 * (content/reference/subject-formats.md). Pure: the host fetches, converts and caches; the core
 * only places the results.
 */
import { normalizeText } from '../subjects/format.ts';
import type { SourceLink } from './links-file.ts';
import { sourceSlugOf } from './slug.ts';
import type { Subject } from '../subjects/subjects.ts';
import type { SourceDocument, SourceDocuments } from './document.ts';

/**
 * The subjects of a topic's URL sources, in file order: one per link that has a document
 * (a URL not fetched yet is not a subject). `file` is the `links.txt` they were listed in; each
 * subject's path is its URL, its extension `md` or `txt` by format. Duplicate slugs are the
 * caller's to settle, with the topic's files.
 */
export function sourceSubjects(links: readonly SourceLink[], documents: SourceDocuments, file: string): Subject[] {
  const subjects: Subject[] = [];
  for (const link of links) {
    const document = documents.get(link.url);
    if (!document) continue;
    const { slug, hidden } = sourceSlugOf(link.url);
    subjects.push({
      slug,
      path: link.url,
      file,
      hidden,
      extension: document.format === 'markdown' ? 'md' : 'txt',
      format: document.format,
      source: { url: link.url, line: link.line, document },
    });
  }
  return subjects;
}

/** A URL source's content as `learn` returns it: its document's content with `\r\n` → `\n` and trailing line breaks removed. */
export function sourceContent(document: SourceDocument): string {
  return normalizeText(document.content);
}
