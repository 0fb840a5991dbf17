/** The public surface of the knowledge core. A test pins this list: change it on purpose. */
export { addressOf, encodeAddressSegment } from './address.ts';
export { CATALOG_MEMO_VERSION, buildCatalog, memoKey } from './catalog.ts';
export type { Catalog, CatalogKnowledge, CatalogMemo, CatalogMemoEntry, CatalogOptions, CatalogSubject, CatalogTopic } from './catalog.ts';
export { checkContent } from './check-content.ts';
export { checkNearDuplicates, findNearDuplicates } from './check-duplicates.ts';
export type { NearDuplicatePair } from './check-duplicates.ts';
export { checkLinks } from './check-links.ts';
export { checkMentions } from './check-mentions.ts';
export { checkTitles } from './check-titles.ts';
export { DEFAULT_SUMMARY_PROMPT, dottedPath, escapeProblem, splitKnowledgeFlag } from './config-load.ts';
export { loadConfig } from './config-validate.ts';
export type { ConfigResult, ConfigSource, PatternOrigin, SiteConfig, SummariesConfig, SyllabusConfig, TopicConfig } from './config-load.ts';
export { readConfigFiles } from './config-read.ts';
export { ConfigFileSchema, RESERVED_TOPIC_IDS } from './config-schema.ts';
export { MOVE_SIMILARITY, diffSnapshots, diffText, textSimilarity } from './diff.ts';
export { renderDiffMarkdown } from './diff-markdown.ts';
export type { DiffMarkdownOptions } from './diff-markdown.ts';
export { DIFF_FORMAT_VERSION, KnowledgeDiffSchema, renderDiffSchema } from './diff-schema.ts';
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
} from './diff-schema.ts';
export { publishedSnapshot, snapshotOfBuild, snapshotOfSource, subjectsToLoad, withContents } from './diff-snapshot.ts';
export type { KnowledgeSnapshot, SnapshotKnowledge, SnapshotSubject, SnapshotTopic } from './diff-snapshot.ts';
export { compareStrings, formatDiagnostic, formatPlace, hasConfigErrors, hasContentErrors, sortDiagnostics } from './diagnostics.ts';
export type { Diagnostic, DiagnosticCode, DiagnosticKind } from './diagnostics.ts';
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
} from './endpoint-schemas.ts';
export type { KeywordsFile, KnowledgeFile, SiteIndex, SubjectEntry, SubjectFile, TopicEntry, TopicFile } from './endpoint-schemas.ts';
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
} from './endpoints.ts';
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
} from './find.ts';
export type { FindArguments, FindEntry, FindResult } from './find.ts';
export { IMAGE_EXTENSIONS, decodeSubjectText, fenceText, formatOf, isBinary, isPublishedRaw, languageOf, presentSubjectText, skippedMessage } from './format.ts';
export type { SkipReason, SubjectFormat } from './format.ts';
export { compilePattern, invalidPatternMessage } from './glob.ts';
export { markdownHeadings } from './headings.ts';
export { openKnowledgeBase } from './knowledge-base.ts';
export type { KnowledgeBase, KnowledgeBaseOptions, Topic } from './knowledge-base.ts';
export { buildKnowledgeSection, describeKnowledgeTopic, isListable, renderKnowledgeSection } from './knowledge-section.ts';
export type { KnowledgeTopic } from './knowledge-section.ts';
export {
  LEARN_PARAMETERS,
  buildLearnDefinition,
  listTopic,
  noMatchMessage,
  parseLearnArguments,
  renderLearnDefinition,
  renderListing,
  renderLoaded,
  resolveTopicId,
  runLearn,
  unknownTopicMessage,
} from './learn-tool.ts';
export type { LearnArguments, LearnToolDefinition, Outcome, TopicListing } from './learn-tool.ts';
export { KEYWORD_LIMIT, keywordsOf, subjectKeywords, wordSetOf } from './keywords.ts';
export type { KeywordSource } from './keywords.ts';
export { readLearningsFile, writeFileAtomically } from './learnings-file.ts';
export type { AtomicWriteOps, StoreFileReading } from './learnings-file.ts';
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
} from './learnings-rules.ts';
export type { AddOutcome, DuplicateMatch, LearningsStats, NewLearning, PruneRules } from './learnings-rules.ts';
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
} from './learnings-store.ts';
export type { Learning, LearningCategory, LearningsStore, StoreEntry, StoreReading } from './learnings-store.ts';
export { formatConfidence, learningSlug, learningSlugSegment, learningSubjects, renderLearning } from './learnings-subjects.ts';
export { resolveSubjectLink } from './links.ts';
export {
  LLM_CONTENT_LIMIT,
  applySummaries,
  buildSummaryRequest,
  endsSummaryCalls,
  llmSummaryCandidates,
  llmSummaryKey,
  parseSummaryResponse,
  summaryFailureMessages,
} from './llm-summary.ts';
export type { LlmSummarySettings, SummaryAnswer, SummaryCandidate, SummaryFailure, SummaryFailureContext } from './llm-summary.ts';
export { renderIndexText, renderLlmsFullText, renderLlmsText } from './llms-text.ts';
export type { LinkTarget, LinkTopic } from './links.ts';
export { readSubjectContent } from './read-subject.ts';
export type { SubjectContent } from './read-subject.ts';
export { changesBySubject, diffPublished } from './published-changes.ts';
export type { SubjectChange } from './published-changes.ts';
export { resolvePatterns } from './resolve.ts';
export type { Resolution } from './resolve.ts';
export { shardOf } from './shard.ts';
export { writeCacheFile } from './cache-file.ts';
export { changeAnchor, folderAnchor, folderUrl, markdownUrl, normalizeBase, rawUrl, siteUrl, subjectJsonUrl, subjectUrl, topicUrl } from './site-urls.ts';
export { dropLeadingDots, slugOf } from './slug.ts';
export { LINKS_FILE, listTopicLinks, parseLinksFile, readTopicLinks } from './source-links.ts';
export type { LinksReading, ListedTopicLinks, SourceLink, TopicLinks } from './source-links.ts';
export { sourceSlugOf } from './source-slug.ts';
export type { SourceSlug } from './source-slug.ts';
export { sourceContent, sourceSubjects } from './source-subjects.ts';
export type { SourceDocument, SourceDocuments, SourceFormat, SubjectSource } from './source-subjects.ts';
export { collectSubjects, removeDisabled } from './subjects.ts';
export type { Subject } from './subjects.ts';
export { SUMMARY_LENGTH, cutSummary, summarize } from './summary.ts';
export { loadMarkdownParser, markdownText, parseMarkdown } from './markdown-parser.ts';
export type { SummaryInput } from './summary.ts';
export { loadFrontMatterParser, readFrontMatter, titleOf } from './title.ts';
export { countTokens, loadTokenizer } from './tokens.ts';
export { walkTopicFolder } from './walk.ts';
