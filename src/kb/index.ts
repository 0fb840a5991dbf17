/** The public surface of the knowledge core. A test pins this list: change it on purpose. */
export { addressOf, encodeAddressSegment } from './subjects/address.ts';
export { CATALOG_MEMO_VERSION, buildCatalog, memoKey } from './catalog/catalog.ts';
export type { Catalog, CatalogKnowledge, CatalogMemo, CatalogMemoEntry, CatalogOptions, CatalogSubject, CatalogTopic } from './catalog/catalog.ts';
export { checkContent } from './checks/content.ts';
export { checkNearDuplicates, findNearDuplicates } from './checks/near-duplicates.ts';
export type { NearDuplicatePair } from './checks/near-duplicates.ts';
export { checkLinks } from './checks/links.ts';
export { checkMentions } from './checks/mentions.ts';
export { checkTitles } from './checks/titles.ts';
export { dottedPath } from './config/config-error.ts';
export { DEFAULT_SUMMARY_PROMPT } from './config/defaults.ts';
export type { ConfigResult, SyllabusConfig } from './config/merge.ts';
export { loadConfig } from './config/validate.ts';
export { readConfigFiles } from './config/read.ts';
export type { ConfigText } from './config/read.ts';
export { ConfigFileSchema, RESERVED_TOPIC_IDS } from './config/schema.ts';
export type { SiteConfig, SummariesConfig } from './config/schema.ts';
export { escapeProblem } from './config/topics.ts';
export type { PatternOrigin, TopicConfig } from './config/topics.ts';
export { MOVE_SIMILARITY, diffSnapshots, diffText, textSimilarity } from './diff/diff.ts';
export { renderDiffMarkdown } from './diff/markdown.ts';
export type { DiffMarkdownOptions } from './diff/markdown.ts';
export { DIFF_FORMAT_VERSION, KnowledgeDiffSchema, renderDiffSchema } from './diff/schema.ts';
export type {
  ChangedSubject,
  ContentChange,
  DiffSide,
  DiffSubject,
  KnowledgeDelta,
  KnowledgeDiff,
  MovedSubject,
  ProfileDelta,
  SubjectRef,
  TopicDelta,
  VisibilityChange,
} from './diff/schema.ts';
export { publishedSnapshot, snapshotOfBuild, snapshotOfSource, subjectsToLoad, withContents } from './diff/snapshot.ts';
export type { KnowledgeSnapshot, SnapshotKnowledge, SnapshotSubject, SnapshotTopic } from './diff/snapshot.ts';
export { compareStrings, formatDiagnostic, formatPlace, hasConfigErrors, hasContentErrors, sortDiagnostics } from './diagnostics/diagnostics.ts';
export type { Diagnostic, DiagnosticCode, DiagnosticKind } from './diagnostics/diagnostics.ts';
export {
  ENDPOINT_SCHEMAS,
  FORMAT_VERSION,
  KeywordsFileSchema,
  KnowledgeFileSchema,
  LearnToolSchema,
  SiteIndexSchema,
  SubjectEntrySchema,
  SubjectFileSchema,
  TopicEntrySchema,
  TopicFileSchema,
  renderEndpointSchemas,
} from './publish/endpoint-schemas.ts';
export type { KeywordsFile, KnowledgeFile, SiteIndex, SubjectEntry, SubjectFile, TopicEntry, TopicFile } from './publish/endpoint-schemas.ts';
export {
  buildKeywordsFile,
  buildKnowledgeFile,
  buildSiteIndex,
  buildSubjectEntry,
  buildSubjectFile,
  buildTopicEntry,
  buildTopicFile,
  knowledgeJsonUrl,
  serializeEndpoint,
  topicJsonUrl,
} from './publish/endpoints.ts';
export {
  DEFAULT_FIND_LIMIT,
  FIND_DEFINITION,
  FIND_PARAMETERS,
  FindResultSchema,
  FindResultsSchema,
  findEntriesOf,
  parseFindArguments,
  rankSubjects,
  renderFindResults,
  renderFindSchema,
  runFind,
} from './knowledge/find.ts';
export type { FindArguments, FindEntry, FindResult } from './knowledge/find.ts';
export { IMAGE_EXTENSIONS, decodeSubjectText, fenceText, formatOf, isBinary, isPublishedRaw, languageOf, presentSubjectText, skippedMessage } from './subjects/format.ts';
export type { SkipReason, SubjectFormat } from './subjects/format.ts';
export { compilePattern, invalidPatternMessage } from './subjects/glob.ts';
export { markdownHeadings } from './markdown/headings.ts';
export { openKnowledgeBase } from './subjects/knowledge-base.ts';
export type { KnowledgeBase, KnowledgeBaseOptions, Topic } from './subjects/knowledge-base.ts';
export { describeKnowledgeTopic, isListable, learnDefinitionOf, renderKnowledge, renderKnowledgeSection } from './knowledge/section.ts';
export type { KnowledgeTopic, PreloadedSubject } from './knowledge/section.ts';
export {
  LEARN_PARAMETERS,
  listTopic,
  noMatchMessage,
  parseLearnArguments,
  renderLearnDefinition,
  renderListing,
  renderLoaded,
  renderTopicLine,
  resolveTopicId,
  unknownTopicMessage,
} from './knowledge/learn.ts';
export type { LearnArguments, LearnToolDefinition, Outcome, TopicIdentity, TopicListing } from './knowledge/learn.ts';
export { checkKnowledgeRequest, checkKnowledgeValue, extendLearned, patternsByTopic, splitKnowledgeFlag } from './knowledge/extension.ts';
export type { ExtraKnowledge, KnowledgeExtension, KnowledgeOffer, KnowledgeRequest } from './knowledge/extension.ts';
export { createKnowledgeView } from './knowledge/view.ts';
export type { Found, KnowledgeAnswers, KnowledgeReader, KnowledgeView, PublishedKnowledge, ReaderTopic, TopicSubjects } from './knowledge/view.ts';
export { createLocalView } from './knowledge/local-view.ts';
export type { LocalViewOptions } from './knowledge/local-view.ts';
export { KEYWORD_LIMIT, keywordsOf, subjectKeywords, wordSetOf } from './catalog/keywords.ts';
export type { KeywordSource } from './catalog/keywords.ts';
export { readLearningsFile } from './learnings/file.ts';
export type { StoreFileReading } from './learnings/file.ts';
export { writeFileAtomically } from './files/atomic-write.ts';
export type { AtomicWriteOps, AtomicWriteOptions } from './files/atomic-write.ts';
export {
  DEFAULT_PRUNE_MAX_AGE_DAYS,
  INITIAL_CONFIDENCE,
  PRUNE_CONFIDENCE_BELOW,
  addLearning,
  isPrunable,
  learningsStats,
  newLearningId,
  pruneLearnings,
  pruneRules,
} from './learnings/rules.ts';
export type { AddOutcome, DuplicateMatch, LearningsStats, NewLearning, PruneRules } from './learnings/rules.ts';
export {
  LEARNINGS_STORE_VERSION,
  LEARNING_CATEGORIES,
  MAX_LEARNING_KEYWORDS,
  describeEntryProblems,
  emptyLearningsStore,
  learningsSchemas,
  parseLearningsStore,
  serializeLearningsStore,
  validLearnings,
} from './learnings/store.ts';
export type { Learning, LearningCategory, LearningsStore, StoreEntry, StoreReading } from './learnings/store.ts';
export { formatConfidence, learningSlug, learningSlugSegment, learningSubjects, renderLearning } from './learnings/subjects.ts';
export { resolveSubjectLink } from './subjects/relative-links.ts';
export {
  LLM_CONTENT_LIMIT,
  applySummaries,
  buildSummaryRequest,
  endsSummaryCalls,
  llmSummaryCandidates,
  llmSummaryKey,
  parseSummaryResponse,
  summaryFailureMessages,
} from './summaries/llm-summary.ts';
export type { LlmSummarySettings, SummaryAnswer, SummaryCandidate, SummaryFailure, SummaryFailureContext } from './summaries/llm-summary.ts';
export { renderIndexText, renderLlmsFullText, renderLlmsText } from './publish/llms-text.ts';
export type { LinkTarget, LinkTopic } from './subjects/relative-links.ts';
export { readSubjectContent } from './subjects/read-subject.ts';
export type { SubjectContent } from './subjects/read-subject.ts';
export { changesBySubject, diffPublished } from './diff/published-changes.ts';
export type { SubjectChange } from './diff/published-changes.ts';
export { exactNames, exactSlug, resolvePatterns } from './subjects/resolve.ts';
export type { ResolvableSubject, Resolution } from './subjects/resolve.ts';
export { shardOf } from './publish/shard.ts';
export { writeCacheFile } from './publish/cache-file.ts';
export { changeAnchor, folderAnchor, folderUrl, markdownUrl, normalizeBase, rawUrl, siteUrl, subjectJsonUrl, subjectUrl, topicUrl } from './publish/site-urls.ts';
export { dropLeadingDots, slugOf } from './subjects/slug.ts';
export { LINKS_FILE, listTopicLinks, parseLinksFile, readTopicLinks } from './url-sources/links-file.ts';
export type { LinksReading, ListedTopicLinks, SourceLink, TopicLinks } from './url-sources/links-file.ts';
export { sourceSlugOf } from './url-sources/slug.ts';
export type { SourceSlug } from './url-sources/slug.ts';
export { sourceContent, sourceSubjects } from './url-sources/subjects.ts';
export type { SourceDocument, SourceDocuments, SourceFormat, SubjectSource } from './url-sources/document.ts';
export { collectSubjects, removeDisabled } from './subjects/subjects.ts';
export type { Subject } from './subjects/subjects.ts';
export { SUMMARY_LENGTH, cutSummary, summarize } from './summaries/extractive.ts';
export { loadMarkdownParser, markdownText, parseMarkdown } from './markdown/parser.ts';
export type { SummaryInput } from './summaries/extractive.ts';
export { loadFrontMatterParser, readFrontMatter, titleOf } from './catalog/title.ts';
export { countTokens, loadTokenizer } from './catalog/tokens.ts';
export { walkTopicFolder } from './subjects/walk.ts';
