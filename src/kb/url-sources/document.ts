/** What the host fetched for a URL source, as the core places it into a subject (types only). */

/** The formats a URL source can have: markdown (HTML pages are converted to it) or plain text. */
export type SourceFormat = 'markdown' | 'text';

/** What the host fetched for one URL, fully resolved: converted, and ready to be a subject's content. */
export interface SourceDocument {
  /** The content: markdown converted from an HTML page, or the text of a markdown or plain-text page. */
  content: string;
  format: SourceFormat;
  /** When this content was fetched (ISO 8601); a page fetched again unchanged keeps its first date. */
  fetchedAt: string;
}

/** Documents by the URL of their source (`SourceLink.url`). */
export type SourceDocuments = ReadonlyMap<string, SourceDocument>;

/** What a subject from a URL source carries (see `Subject.source`). */
export interface SubjectSource {
  url: string;
  /** Line of the URL in its `links.txt` (the subject's `file`). */
  line: number;
  document: SourceDocument;
}
