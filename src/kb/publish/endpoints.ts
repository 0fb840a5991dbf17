/**
 * The machine endpoints of the site (content/agents/endpoints.md) as values, from the catalog: the
 * JSON files in the shapes of `publish/endpoint-schemas.ts`, and their addresses. The hosts write or serve them as they are.
 */
import { encodeAddressSegment } from '../subjects/address.ts';
import type { SiteConfig } from '../config/schema.ts';
import type { Catalog, CatalogKnowledge, CatalogSubject, CatalogTopic } from '../catalog/catalog.ts';
import { FORMAT_VERSION, type KeywordsFile, type KnowledgeFile, type SiteIndex, type SubjectEntry, type SubjectFile, type TopicEntry, type TopicFile } from './endpoint-schemas.ts';
import { encodedSearchDocumentOfSubject, type SearchDocumentMemo } from '../view/search-terms.ts';
import { markdownUrl, normalizeBase, siteUrl, subjectJsonUrl, subjectUrl, topicUrl } from './site-urls.ts';

/** `/kb/topics/<topic>.json`. */
export function topicJsonUrl(base: string, topic: string): string {
  return `${base}kb/topics/${topic}.json`;
}

/** `/kb/knowledge.json`, or `/kb/knowledge/<profile>.json` (the name encoded as an address segment). */
export function knowledgeJsonUrl(base: string, profile?: string): string {
  return profile === undefined ? `${base}kb/knowledge.json` : `${base}kb/knowledge/${encodeAddressSegment(profile)}.json`;
}

/** The catalog's listing entry of a subject. */
export function buildSubjectEntry(subject: CatalogSubject, base: string): SubjectEntry {
  return {
    slug: subject.slug,
    title: subject.title,
    summary: subject.summary,
    format: subject.format,
    language: subject.language,
    skipped: subject.skipped,
    path: subject.path,
    bytes: subject.bytes,
    tokens: subject.tokens,
    sha256: subject.sha256,
    learned: subject.learned,
    url: subjectUrl(base, subject.topic, subject.address),
    markdown: markdownUrl(base, subject.topic, subject.address),
    json: subjectJsonUrl(base, subject.topic, subject.address),
  };
}

/** A topic with its listed subjects (hidden ones are never listed). */
export function buildTopicEntry(topic: CatalogTopic, base: string): TopicEntry {
  return {
    id: topic.id,
    title: topic.title ?? null,
    introduction: topic.introduction ?? null,
    description: topic.description ?? null,
    url: topicUrl(base, topic.id),
    json: topicJsonUrl(base, topic.id),
    tokens: topic.tokens,
    subjects: topic.subjects.filter((s) => !s.hidden).map((s) => buildSubjectEntry(s, base)),
  };
}

/** `/kb/index.json`: every topic, every listed subject, and every address an agent needs. */
export function buildSiteIndex(catalog: Catalog, site: SiteConfig): SiteIndex {
  const base = normalizeBase(site.base);
  return {
    version: FORMAT_VERSION,
    site: { title: site.title, description: site.description ?? null, url: site.url ?? null, base },
    knowledge: {
      json: knowledgeJsonUrl(base),
      tokens: catalog.knowledge.tokens,
      profiles: Object.fromEntries([...catalog.profiles.keys()].map((name) => [name, knowledgeJsonUrl(base, name)])),
    },
    addresses: {
      page: `${base}{topic}/{address}/`,
      markdown: `${base}{topic}/{address}.md`,
      subject: `${base}kb/subjects/{topic}/{address}.json`,
      topic: `${base}kb/topics/{topic}.json`,
      encoding:
        'address = each slug segment with ASCII letters, digits, "-", "_" and non-ASCII letters and digits kept, and every other character (also "." and "~") written as "~" plus two upper-case hex digits per UTF-8 byte; segments joined by "/".',
    },
    endpoints: {
      indexText: siteUrl(base, 'kb/index.txt'),
      llms: siteUrl(base, 'llms.txt'),
      llmsFull: siteUrl(base, 'llms-full.txt'),
      keywords: siteUrl(base, 'kb/keywords.json'),
      schemas: siteUrl(base, 'kb/schema/'),
    },
    topics: catalog.topics.map((t) => buildTopicEntry(t, base)),
  };
}

/**
 * `/kb/keywords.json`: every listed subject's keywords, confidence and the terms `find` ranks by
 * (view/search-terms.ts, encoded), in catalog order (hidden ones never). A `memo` keeps the
 * encoded documents between runs.
 */
export function buildKeywordsFile(catalog: Catalog, memo?: SearchDocumentMemo): KeywordsFile {
  return {
    version: FORMAT_VERSION,
    topics: catalog.topics.map((topic) => ({
      id: topic.id,
      subjects: topic.subjects.filter((s) => !s.hidden).map((s) => ({ slug: s.slug, keywords: s.keywords, confidence: s.confidence, ...encodedSearchDocumentOfSubject(s, memo) })),
    })),
  };
}

/** `/kb/knowledge.json` (profile undefined) or `/kb/knowledge/<profile>.json`. */
export function buildKnowledgeFile(knowledge: CatalogKnowledge, profile?: string): KnowledgeFile {
  return {
    version: FORMAT_VERSION,
    profile: profile ?? null,
    prompt: knowledge.prompt,
    tool: knowledge.tool,
    tokens: knowledge.tokens,
    topics: knowledge.topics,
    // Left out without an index, so that a site without one publishes what it always did.
    ...(knowledge.indexBudget === null ? {} : { index: { budget_tokens: knowledge.indexBudget } }),
  };
}

/** `/kb/topics/<topic>.json`: the topic's listing entry and its `learn` listing text. */
export function buildTopicFile(topic: CatalogTopic, base: string): TopicFile {
  return { version: FORMAT_VERSION, ...buildTopicEntry(topic, base), listing: topic.listing };
}

/** `/kb/subjects/<topic>/<address>.json`: one subject (hidden ones too) with its content. */
export function buildSubjectFile(subject: CatalogSubject, base: string): SubjectFile {
  return {
    version: FORMAT_VERSION,
    topic: subject.topic,
    address: subject.address,
    hidden: subject.hidden,
    ...buildSubjectEntry(subject, base),
    content: subject.content,
  };
}

/** Serialises an endpoint's JSON as the site publishes it: two-space indents, a final newline. */
export function serializeEndpoint(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
