/**
 * A parser of the llms.txt format, written from https://llmstxt.org ("Format"): in order, an H1
 * with the name of the project or site (the only required part), an optional blockquote with a
 * short summary, zero or more markdown sections of any kind except headings, then zero or more
 * sections delimited by H2 headings, each a "file list": a markdown list whose items hold a
 * required link `[name](url)`, optionally followed by `:` and notes. A section named `Optional`
 * lists what may be skipped. Anything else is a problem, reported with its line.
 */

/** One file-list item. */
export interface LlmsLink {
  name: string;
  url: string;
  notes: string | undefined;
}

/** A file parsed under the format; `problems` is empty when it conforms. */
export interface LlmsFile {
  title: string | undefined;
  summary: string | undefined;
  /** The text between the summary and the first H2, trimmed. */
  info: string;
  sections: { name: string; links: LlmsLink[] }[];
  h1Count: number;
  problems: string[];
}

/** A file-list item, as the reference implementation reads it: a link whose name holds no `]` and whose URL holds no `)`. */
const ITEM = /^- \[([^\]]+)\]\(([^)\s]+)\)(?::[ \t]*(.*))?$/;

/** Parses `text` under the llms.txt format. */
export function parseLlmsTxt(text: string): LlmsFile {
  const lines = text.replace(/\n$/, '').split('\n');
  const file: LlmsFile = { title: undefined, summary: undefined, info: '', sections: [], h1Count: 0, problems: [] };
  const problem = (index: number, what: string): void => {
    file.problems.push(`line ${index + 1}: ${what}: ${JSON.stringify(lines[index])}`);
  };
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const h1 = /^# (.+)$/.exec(lines[i] ?? '');
  if (!h1) {
    problem(i, 'the first line is not an H1');
    return file;
  }
  file.title = h1[1];
  file.h1Count = 1;
  i++;
  while (i < lines.length && lines[i]!.trim() === '') i++;
  const quote: string[] = [];
  while (i < lines.length && lines[i]!.startsWith('>')) quote.push(lines[i++]!.replace(/^> ?/, ''));
  if (quote.length > 0) file.summary = quote.join(' ').trim();
  const info: string[] = [];
  let fence = false;
  for (; i < lines.length && (fence || !lines[i]!.startsWith('## ')); i++) {
    const line = lines[i]!;
    if (/^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    if (!fence && /^ {0,3}#{1,6}(\s|$)/.test(line)) {
      if (line.startsWith('# ')) file.h1Count++;
      problem(i, 'a heading before the first H2 section');
    }
    info.push(line);
  }
  file.info = info.join('\n').trim();
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    const h2 = /^## (.+)$/.exec(line);
    if (h2) {
      file.sections.push({ name: h2[1]!, links: [] });
      continue;
    }
    if (line.trim() === '') continue;
    const item = ITEM.exec(line);
    if (!item) {
      if (line.startsWith('# ')) file.h1Count++;
      problem(i, 'a line in a file-list section that is not a "- [name](url): notes" item');
      continue;
    }
    file.sections.at(-1)!.links.push({ name: item[1]!, url: item[2]!, notes: item[3] });
  }
  return file;
}

/** The ATX headings of a markdown text outside code fences, with their levels. */
export function outlineOf(text: string): { level: number; text: string; line: number }[] {
  const headings: { level: number; text: string; line: number }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const heading = /^ {0,3}(#{1,6})[ \t]+(.*)$/.exec(line);
    if (heading) headings.push({ level: heading[1]!.length, text: heading[2]!, line: index + 1 });
  });
  return headings;
}
