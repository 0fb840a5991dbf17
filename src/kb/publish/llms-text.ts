/**
 * The plain-text endpoints (content/agents/endpoints.md): `/kb/index.txt`, `/llms.txt` and
 * `/llms-full.txt`. Listed subjects only: hidden ones never appear here.
 */
import type { Catalog, CatalogSubject, CatalogTopic } from '../catalog/catalog.ts';
import { firstHeading, frontMatterLineCount } from '../catalog/title.ts';
import type { SiteConfig } from '../config/schema.ts';
import { demoteHeadings } from '../markdown/demote-headings.ts';
import { knowledgeJsonUrl } from './endpoints.ts';
import { markdownUrl, normalizeBase, siteUrl } from './site-urls.ts';

/** The heading level of each subject in `/llms-full.txt`; the subject's own headings go below it. */
const FULL_SUBJECT_LEVEL = 2;

/**
 * `/kb/index.txt`: per listed subject an id line `kb:<topic>/<path>` (`kb:<url>` for a URL
 * source), then its summary (its title when it has none), entries separated by a blank line.
 */
export function renderIndexText(catalog: Catalog): string {
  const entries: string[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      if (subject.hidden) continue;
      const id = subject.source ? `kb:${subject.source.url}` : `kb:${topic.id}/${subject.path}`;
      entries.push(`${id}\n${subject.summary || subject.title}`);
    }
  }
  return entries.length === 0 ? '' : `${entries.join('\n\n')}\n`;
}

/**
 * Whether `/llms.txt` lists a subject under `## Optional` rather than its topic
 * (content/reference/decisions.md): a binary or oversized file (agents get a one-line message, not
 * its content), or a code or data file (a fenced subject) in a topic that also has prose, where it
 * supports the prose (a skill's scripts, a config example). A topic of code alone keeps its files.
 */
export function isOptionalSubject(subject: CatalogSubject, topicHasProse: boolean): boolean {
  return subject.skipped !== null || (subject.format === 'code' && topicHasProse);
}

/**
 * `/llms.txt`, under the llmstxt.org format: the site title as the one H1, a blockquote summary
 * (the site description, else a sentence naming the topics), text (the agent endpoints and each
 * topic's introduction), then one H2 section per topic holding only `- [title](url): summary`
 * items, and a last `## Optional` section with what an agent may skip
 * ({@link isOptionalSubject}, and `/llms-full.txt`). Links are absolute when `[site] url` is set.
 */
export function renderLlmsText(catalog: Catalog, site: SiteConfig): string {
  const { base, absolute, head } = llmsHead(catalog, site);
  const parts = [...head];
  const introductions = catalog.topics.filter((t) => listedOf(t).length > 0 && t.introduction !== undefined);
  if (introductions.length > 0) parts.push(`Topics:\n\n${introductions.map((t) => `- ${topicName(t)}: ${oneLine(t.introduction!)}`).join('\n')}`);
  const item = (subject: CatalogSubject, prefix = ''): string => {
    const notes = oneLine(`${prefix}${subject.summary}`);
    return `- [${linkText(subject.title)}](${absolute(markdownUrl(base, subject.topic, subject.address))})${notes === '' ? '' : `: ${notes}`}`;
  };
  const optional: string[] = [];
  for (const topic of catalog.topics) {
    const listed = listedOf(topic);
    const hasProse = listed.some((s) => s.format !== 'code' && s.skipped === null);
    const items: string[] = [];
    for (const subject of listed) {
      if (isOptionalSubject(subject, hasProse)) optional.push(item(subject, `${topicName(topic)}: `));
      else items.push(item(subject));
    }
    if (items.length > 0) parts.push(`## ${heading(topicName(topic))}\n\n${items.join('\n')}`);
  }
  if (listedCount(catalog) > 0) {
    optional.push(`- [Everything in one file](${absolute(siteUrl(base, 'llms-full.txt'))}): The content of every subject listed here, in one markdown file.`);
  }
  if (optional.length > 0) parts.push(`## Optional\n\n${optional.join('\n')}`);
  return `${parts.join('\n\n')}\n`;
}

/**
 * `/llms-full.txt`: the head of `/llms.txt`, then every listed subject in catalog order under one
 * `## <title>` heading, a line with its topic and markdown URL, and its content without front
 * matter, its own headings two levels lower (a first `# ` heading that repeats the title is
 * dropped), so that the file's outline is one H1 and one H2 per subject.
 */
export function renderLlmsFullText(catalog: Catalog, site: SiteConfig): string {
  const { base, absolute, head } = llmsHead(catalog, site);
  const parts = [...head];
  for (const topic of catalog.topics) {
    for (const subject of listedOf(topic)) {
      const url = absolute(markdownUrl(base, subject.topic, subject.address));
      const body = subject.format === 'markdown' && subject.skipped === null ? fullMarkdownBody(subject) : subject.content;
      parts.push([`${'#'.repeat(FULL_SUBJECT_LEVEL)} ${heading(subject.title)}`, `Topic: ${topicName(topic)} · ${url}`, ...(body === '' ? [] : [body])].join('\n\n'));
    }
  }
  return `${parts.join('\n\n')}\n`;
}

/** A markdown subject's content for `/llms-full.txt`: front matter stripped, a title heading dropped, headings demoted. */
function fullMarkdownBody(subject: CatalogSubject): string {
  let lines = subject.content.split('\n').slice(frontMatterLineCount(subject.content));
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  if (lines.length > 0 && /^ {0,3}# /.test(lines[0]!) && firstHeading(lines[0]!) === subject.title) {
    lines = lines.slice(1);
    while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  }
  return demoteHeadings(lines.join('\n'), FULL_SUBJECT_LEVEL);
}

/** The base, the URL maker and the H1, blockquote and text that both files start with. */
function llmsHead(catalog: Catalog, site: SiteConfig): { base: string; absolute: (path: string) => string; head: string[] } {
  const base = normalizeBase(site.base);
  const absolute = (path: string): string => (site.url ? new URL(path, `${site.url.replace(/\/+$/, '')}/`).href : path);
  const topics = catalog.topics.filter((t) => listedOf(t).length > 0).map(topicName);
  const summary = site.description
    ? oneLine(site.description)
    : topics.length === 0
      ? 'A knowledge base with nothing listed yet.'
      : `A knowledge base for people and agents, in ${topics.length === 1 ? 'one topic' : `${topics.length} topics`}: ${topics.join(', ')}.`;
  return {
    base,
    absolute,
    head: [
      `# ${heading(site.title)}`,
      `> ${summary}`,
      `The knowledge of this site for agents: ${absolute(siteUrl(base, 'kb/index.json'))} lists every topic and subject with its addresses, ` +
        `and ${absolute(knowledgeJsonUrl(base))} holds the <knowledge> system-prompt section and the learn tool.`,
    ],
  };
}

function listedOf(topic: CatalogTopic): CatalogSubject[] {
  return topic.subjects.filter((s) => !s.hidden);
}

function listedCount(catalog: Catalog): number {
  return catalog.topics.reduce((sum, t) => sum + listedOf(t).length, 0);
}

function topicName(topic: CatalogTopic): string {
  return topic.title ?? topic.id;
}

/** Text on one line: runs of white space (line breaks included) become one space. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Heading text on one line. */
function heading(text: string): string {
  return oneLine(text);
}

/**
 * Link text that every llms.txt parser reads whole: square brackets, which the reference
 * parser's `[^\]]+` cannot hold even escaped, become round ones.
 */
function linkText(text: string): string {
  return oneLine(text).replace(/\[/g, '(').replace(/\]/g, ')');
}
