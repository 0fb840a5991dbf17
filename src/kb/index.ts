/**
 * The public surface of the knowledge core: every name a host (the build, the Astro adapter, the
 * CLI, the agent server, the remote client, the scripts) takes from it. Hosts import the modules
 * themselves, one by one, so that a command loads only what it runs; this list says what they may
 * take. A test pins it: change it on purpose.
 */
export { CATALOG_MEMO_VERSION, buildCatalog } from './catalog/catalog.ts';
export type { Catalog, CatalogMemo, CatalogMemoEntry, CatalogSubject, CatalogTopic } from './catalog/catalog.ts';
export { loadFrontMatterParser, readFrontMatter } from './catalog/title.ts';
export { checkContent } from './checks/content.ts';
export { checkLinks } from './checks/links.ts';
export { checkMentions } from './checks/mentions.ts';
export { checkNearDuplicates } from './checks/near-duplicates.ts';
export { checkTitles } from './checks/titles.ts';
export { mergeConfigFiles } from './config/merge.ts';
export type { SyllabusConfig, ValidatedConfigFile } from './config/merge.ts';
export { CONFIG_SCHEMA_FILE, CONFIG_SCHEMA_SITE_PATH } from './config/published-schema.ts';
export { readConfigFiles } from './config/read.ts';
export type { ConfigText } from './config/read.ts';
export { renderConfigSchema } from './config/schema.ts';
export type { SiteConfig, SummariesConfig } from './config/schema.ts';
export { loadConfig } from './config/validate.ts';
export {
  compareStrings,
  displayPath,
  formatDiagnostic,
  hasConfigErrors,
  hasContentErrors,
  plural,
  sortDiagnostics,
} from './diagnostics/diagnostics.ts';
export type { Diagnostic } from './diagnostics/diagnostics.ts';
export { diffSnapshots } from './diff/diff.ts';
export { renderDiffMarkdown } from './diff/markdown.ts';
export { changesBySubject, diffPublished } from './diff/published-changes.ts';
export type { SubjectChange } from './diff/published-changes.ts';
export { renderDiffSchema } from './diff/schema.ts';
export type { ContentChange, KnowledgeDiff, SubjectRef } from './diff/schema.ts';
export { snapshotOfBuild, snapshotOfSource, subjectsToLoad, withContents } from './diff/snapshot.ts';
export type { KnowledgeSnapshot } from './diff/snapshot.ts';
export { writeFileAtomically } from './files/atomic-write.ts';
export type { ExtraKnowledge, KnowledgeRequest } from './knowledge/extension.ts';
export {
  DEFAULT_FIND_LIMIT,
  FIND_DEFINITION,
  findEntriesOf,
  parseFindArguments,
  rankSubjects,
  renderFindResults,
  renderFindSchema,
} from './knowledge/find.ts';
export type { FindEntry } from './knowledge/find.ts';
export { LEARN_PARAMETERS, parseLearnArguments } from './knowledge/learn.ts';
export type { LearnToolDefinition, Outcome, TopicIdentity } from './knowledge/learn.ts';
export { createLocalView } from './knowledge/local-view.ts';
export type { LocalViewOptions } from './knowledge/local-view.ts';
export { createKnowledgeView } from './knowledge/view.ts';
export type { KnowledgeAnswers, KnowledgeReader, KnowledgeView, ReaderTopic, TopicSubjects } from './knowledge/view.ts';
export { readLearningsFile } from './learnings/file.ts';
export { LOCK_STALE_MS, LOCK_TIMEOUT_VARIABLE, LOCK_WAIT_MS, lockWaitFromEnv, withLearningsLock } from './learnings/lock.ts';
export type { HeldLock } from './learnings/lock.ts';
export {
  DEFAULT_PRUNE_MAX_AGE_DAYS,
  PRUNE_CONFIDENCE_BELOW,
  addLearning,
  learningsStats,
  newLearningId,
  pruneLearnings,
  pruneRules,
} from './learnings/rules.ts';
export type { NewLearning, PruneRules } from './learnings/rules.ts';
export {
  LEARNING_CATEGORIES,
  MAX_LEARNING_KEYWORDS,
  describeEntryProblems,
  emptyLearningsStore,
  serializeLearningsStore,
} from './learnings/store.ts';
export type { Learning, LearningCategory, LearningsStore } from './learnings/store.ts';
export { formatConfidence, learningSlug } from './learnings/subjects.ts';
export { loadMarkdownParser, parseMarkdown } from './markdown/parser.ts';
export { writeCacheFile } from './files/cache-file.ts';
export {
  FORMAT_VERSION,
  KeywordsFileSchema,
  KnowledgeFileSchema,
  SiteIndexSchema,
  SubjectFileSchema,
  renderEndpointSchemas,
} from './publish/endpoint-schemas.ts';
export type { KeywordsFile, KnowledgeFile, SiteIndex, SubjectEntry, SubjectFile, TopicEntry } from './publish/endpoint-schemas.ts';
export {
  buildKeywordsFile,
  buildKnowledgeFile,
  buildSiteIndex,
  buildSubjectFile,
  buildTopicFile,
  knowledgeJsonUrl,
  serializeEndpoint,
  topicJsonUrl,
} from './publish/endpoints.ts';
export { renderIndexText, renderLlmsFullText, renderLlmsText } from './publish/llms-text.ts';
export { shardOf } from './publish/shard.ts';
export {
  changeAnchor,
  folderAnchor,
  folderUrl,
  markdownUrl,
  normalizeBase,
  rawUrl,
  siteUrl,
  subjectJsonUrl,
  subjectUrl,
  topicUrl,
} from './publish/site-urls.ts';
export { addressOf, encodeAddressSegment } from './subjects/address.ts';
export { IMAGE_EXTENSIONS, isBinary, isPublishedRaw, unfenceText } from './subjects/format.ts';
export { openKnowledgeBase } from './subjects/knowledge-base.ts';
export type { KnowledgeBase } from './subjects/knowledge-base.ts';
export { CACHE_FOLDER_NAME, isOutside, realPathOrSelf } from './subjects/paths.ts';
export { resolveSubjectLink } from './subjects/relative-links.ts';
export type { LinkTopic } from './subjects/relative-links.ts';
export { exactNames } from './subjects/resolve.ts';
export { slugOf } from './subjects/slug.ts';
export {
  applySummaries,
  buildSummaryRequest,
  endsSummaryCalls,
  llmSummaryCandidates,
  parseSummaryResponse,
  summaryFailureMessages,
} from './summaries/llm-summary.ts';
export type { SummaryAnswer, SummaryCandidate, SummaryFailure } from './summaries/llm-summary.ts';
export type { SourceDocument, SourceDocuments, SourceFormat } from './url-sources/document.ts';
export { listTopicLinks } from './url-sources/links-file.ts';
