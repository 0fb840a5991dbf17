/**
 * The plain-text endpoints (content/agents/endpoints.md): `/kb/index.txt`, `/llms.txt` and
 * `/llms-full.txt`. Listed subjects only: hidden ones never appear here.
 */
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import type { SiteConfig } from '../config/schema.ts';
import { knowledgeJsonUrl } from './endpoints.ts';
import { markdownUrl, normalizeBase, siteUrl } from './site-urls.ts';

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

/** `/llms.txt`: the site's title and summary, then a section per topic linking each listed subject's markdown. */
export function renderLlmsText(catalog: Catalog, site: SiteConfig): string {
  return renderLlms(catalog, site, (subject, link) => `- ${link}${subject.summary ? `: ${subject.summary}` : ''}`, '\n');
}

/** `/llms-full.txt`: as `/llms.txt`, with every listed subject's content under its own heading. */
export function renderLlmsFullText(catalog: Catalog, site: SiteConfig): string {
  return renderLlms(catalog, site, (subject, link) => `### ${link}\n\n${subject.content}`, '\n\n');
}

function renderLlms(catalog: Catalog, site: SiteConfig, entry: (subject: CatalogSubject, link: string) => string, separator: string): string {
  const base = normalizeBase(site.base);
  const absolute = (path: string): string => (site.url ? new URL(path, `${site.url.replace(/\/+$/, '')}/`).href : path);
  const parts = [`# ${site.title}`];
  if (site.description) parts.push(`> ${site.description.replace(/\s*\n\s*/g, ' ')}`);
  parts.push(
    `The knowledge of this site for agents: ${absolute(siteUrl(base, 'kb/index.json'))} lists every topic and subject with its addresses, ` +
      `and ${absolute(knowledgeJsonUrl(base))} holds the <knowledge> system-prompt section and the learn tool.`,
  );
  for (const topic of catalog.topics) {
    const listed = topic.subjects.filter((s) => !s.hidden);
    if (listed.length === 0) continue;
    const section = [`## ${topic.title ?? topic.id}`];
    if (topic.introduction) section.push(topic.introduction);
    section.push(listed.map((s) => entry(s, `[${escapeLinkText(s.title)}](${absolute(markdownUrl(base, s.topic, s.address))})`)).join(separator));
    parts.push(section.join('\n\n'));
  }
  return `${parts.join('\n\n')}\n`;
}

function escapeLinkText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}
