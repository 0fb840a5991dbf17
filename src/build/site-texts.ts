/**
 * The files of the site whose text grows with the whole knowledge base: the site index, the
 * knowledge files, each topic's file and navigation, the keywords, index.txt, llms.txt and
 * llms-full.txt (content/agents/endpoints.md). endpoints.ts lists them with the site's other
 * files; a build makes them in the catalog's thread when it can (catalog-worker.ts).
 */
import { hash } from 'node:crypto';
import type { Catalog } from '../kb/catalog/catalog.ts';
import type { SiteConfig } from '../kb/config/schema.ts';
import { buildKeywordsFile, buildKnowledgeFile, buildSiteIndex, buildTopicFile, knowledgeJsonUrl, serializeEndpoint, topicJsonUrl } from '../kb/publish/endpoints.ts';
import { renderIndexText, renderLlmsFullText, renderLlmsText } from '../kb/publish/llms-text.ts';
import { buildTopicNav, serializeTopicNav, topicNavUrl } from '../kb/publish/topic-nav.ts';
import type { SearchDocumentMemo } from '../kb/view/search-terms.ts';

/** What {@link siteTextsOf} makes its texts from: the catalog, `[site]` and the site's base. */
export interface SiteTextsInput {
  catalog: Catalog;
  site: SiteConfig;
  base: string;
}

/** A file of the site made from the whole catalog: its path below the base, and its text, made when asked. */
export interface SiteText {
  path: string;
  make: () => string;
}

/** The site's texts of `input`, in listing order; the keywords use `searchMemo`'s search documents. */
export function siteTextsOf({ catalog, site, base }: SiteTextsInput, searchMemo?: SearchDocumentMemo): SiteText[] {
  const local = (url: string): string => decodeURIComponent(url.slice(base.length));
  return [
    { path: 'kb/index.json', make: () => serializeEndpoint(buildSiteIndex(catalog, site)) },
    { path: local(knowledgeJsonUrl(base)), make: () => serializeEndpoint(buildKnowledgeFile(catalog.knowledge)) },
    ...[...catalog.profiles].map(([name, knowledge]) => ({ path: local(knowledgeJsonUrl(base, name)), make: () => serializeEndpoint(buildKnowledgeFile(knowledge, name)) })),
    ...catalog.topics.map((topic) => ({ path: local(topicJsonUrl(base, topic.id)), make: () => serializeEndpoint(buildTopicFile(topic, base)) })),
    ...catalog.topics.map((topic) => ({ path: local(topicNavUrl(base, topic.id)), make: () => serializeTopicNav(buildTopicNav(topic, base)) })),
    { path: 'kb/keywords.json', make: () => serializeEndpoint(buildKeywordsFile(catalog, searchMemo)) },
    { path: 'kb/index.txt', make: () => renderIndexText(catalog) },
    { path: 'llms.txt', make: () => renderLlmsText(catalog, site) },
    { path: 'llms-full.txt', make: () => renderLlmsFullText(catalog, site) },
  ];
}

/** A text made and keyed: its bytes (UTF-8) and their key. */
export interface KeyedText {
  key: string;
  bytes: Uint8Array;
}

/** Encodes `text` and keys its bytes. */
export function keyText(text: string): KeyedText {
  // An encoder's bytes own their buffer (Buffer.from may share a pool): a thread can pass them on.
  const bytes = new TextEncoder().encode(text);
  return { key: `text:${hash('sha1', bytes)}`, bytes };
}
