import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as kb from '../../src/kb/index.ts';

describe('the public surface of src/kb', () => {
  it('exports exactly these names (change on purpose)', () => {
    expect(Object.keys(kb).sort()).toEqual([
      'AGENT_CACHE_VERSION',
      'ASSISTANTS',
      'ASSISTANT_PROMPT',
      'CACHE_FOLDER_NAME',
      'CATALOG_MEMO_VERSION',
      'CONFIG_SCHEMA_FILE',
      'CONFIG_SCHEMA_SITE_PATH',
      'DEFAULT_FIND_LIMIT',
      'DEFAULT_PRUNE_MAX_AGE_DAYS',
      'DIAGNOSTIC_CODES',
      'EVAL_FIND_LIMIT',
      'FORMAT_VERSION',
      'IMAGE_EXTENSIONS',
      'KeywordsFileSchema',
      'KnowledgeFileSchema',
      'LEARNING_CATEGORIES',
      'LEARN_PARAMETERS',
      'LOCK_STALE_MS',
      'LOCK_TIMEOUT_VARIABLE',
      'LOCK_WAIT_MS',
      'MAX_LEARNING_KEYWORDS',
      'PRUNE_CONFIDENCE_BELOW',
      'SKILLS_FOLDER',
      'SiteIndexSchema',
      'SubjectFileSchema',
      'absoluteSiteUrl',
      'addLearning',
      'addressOf',
      'agentCacheKey',
      'answerDigest',
      'answerToolCall',
      'applySeverities',
      'applySummaries',
      'assistantUrl',
      'buildCatalog',
      'buildKeywordsFile',
      'buildKnowledgeFile',
      'buildSiteIndex',
      'buildSkillsIndex',
      'buildSubjectFile',
      'buildSummaryRequest',
      'buildTopicFile',
      'buildTopicNav',
      'callAgentTool',
      'changeAnchor',
      'changesBySubject',
      'chatTools',
      'checkContent',
      'checkLinks',
      'checkMentions',
      'checkNearDuplicates',
      'checkTitles',
      'compareEvaluations',
      'compareStrings',
      'countTokens',
      'createKnowledgeView',
      'createLocalView',
      'decodeSearchDocument',
      'describeAgentFailure',
      'describeEntryProblems',
      'diffPublished',
      'diffSnapshots',
      'displayPath',
      'emptyLearningsStore',
      'encodeAddressSegment',
      'endsAgentRun',
      'endsSummaryCalls',
      'evaluateQuestions',
      'exactNames',
      'findEntriesOf',
      'folderAnchor',
      'folderUrl',
      'formatConfidence',
      'formatDiagnostic',
      'hasConfigErrors',
      'hasContentErrors',
      'isBinary',
      'isMarkdownOutline',
      'isMdxPath',
      'isOutside',
      'isPublishedRaw',
      'knowledgeDigest',
      'knowledgeJsonUrl',
      'learningSlug',
      'learningsStats',
      'listAgentSkills',
      'listAgentTools',
      'listTopicLinks',
      'llmSummaryCandidates',
      'loadConfig',
      'loadContentChecks',
      'loadFrontMatterParser',
      'loadMarkdownParser',
      'loadMdxParser',
      'loadTokenizer',
      'lockWaitFromEnv',
      'makeSkillArtifact',
      'markdownUrl',
      'mcpServerName',
      'mergeConfigFiles',
      'newLearningId',
      'normalizeBase',
      'openKnowledgeBase',
      'parseFindArguments',
      'parseLearnArguments',
      'parseMarkdown',
      'parseMdx',
      'parseSummaryResponse',
      'plural',
      'pruneLearnings',
      'pruneRules',
      'rankSubjects',
      'rawUrl',
      'readCacheEntries',
      'readCheckedQuestionSet',
      'readConfigFiles',
      'readFrontMatter',
      'readLearningsFile',
      'realPathAsMade',
      'realPathOrSelf',
      'renderConfigSchema',
      'renderDiffMarkdown',
      'renderDiffSchema',
      'renderEndpointSchemas',
      'renderEvalSchema',
      'renderFindResults',
      'renderFindSchema',
      'renderIndexText',
      'renderLlmsFullText',
      'renderLlmsText',
      'renderMcpConfig',
      'renderReport',
      'renderSystemMessage',
      'resolveSiteFiles',
      'resolveSubjectLink',
      'runAgentLoop',
      'scoreAgentTranscript',
      'serializeEndpoint',
      'serializeLearningsStore',
      'serializeTopicNav',
      'shardOf',
      'siteUrl',
      'slugOf',
      'snapshotOfBuild',
      'snapshotOfSource',
      'sortDiagnostics',
      'subjectJsonUrl',
      'subjectTitleOf',
      'subjectUrl',
      'subjectsToLoad',
      'summarizeByCode',
      'summaryFailureMessages',
      'topicJsonUrl',
      'topicNavUrl',
      'topicTitlesOf',
      'topicUrl',
      'totalAgentResults',
      'unfenceText',
      'unmetThresholds',
      'withContents',
      'withLearningsLock',
      'writeCacheEntries',
      'writeCacheFile',
      'writeFileAtomically',
    ]);
  });
});

describe('src/kb/index.ts', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');
  const KB = path.join(ROOT, 'src', 'kb');
  const INDEX = path.join(KB, 'index.ts');
  const filesBelow = (folder: string): string[] =>
    fs
      .readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name));

  /** `name → module` of each named import or re-export in `file` whose module lies in src/kb. */
  function coreNamesOf(file: string): Map<string, string> {
    let text = fs.readFileSync(file, 'utf8');
    // An Astro component's imports are in its front matter.
    if (file.endsWith('.astro')) text = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
    const names = new Map<string, string>();
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const module = path.resolve(path.dirname(file), specifier.text);
      if (!module.startsWith(`${KB}${path.sep}`)) continue;
      const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : statement.exportClause;
      if (!bindings || !(ts.isNamedImports(bindings) || ts.isNamedExports(bindings))) continue;
      for (const element of bindings.elements) names.set((element.propertyName ?? element.name).text, module);
    }
    // `const { a, b } = await import('…')`: the braces of a declaration, not of an object literal that a call before it opens.
    for (const match of text.matchAll(/\b(?:const|let)\s*\{([^}]*)\}\s*=\s*await import\(\s*'(\.[^']+)'\s*\)/g)) {
      const module = path.resolve(path.dirname(file), match[2]!);
      if (!module.startsWith(`${KB}${path.sep}`)) continue;
      for (const name of match[1]!
        .split(',')
        .map((part) => part.split(':')[0]!.trim())
        .filter(Boolean))
        names.set(name, module);
    }
    return names;
  }

  const exported = coreNamesOf(INDEX);
  const hostFiles = [...filesBelow(path.join(ROOT, 'src')).filter((f) => !f.startsWith(`${KB}${path.sep}`)), ...filesBelow(path.join(ROOT, 'scripts'))].filter((f) =>
    /\.(ts|astro)$/.test(f),
  );
  const used = new Map<string, string>();
  for (const file of hostFiles) for (const [name, module] of coreNamesOf(file)) used.set(name, module === INDEX ? (exported.get(name) ?? module) : module);

  it('exports every name a host takes from the core, from the module the host takes it from', () => {
    const missing = [...used].filter(([name, module]) => exported.get(name) !== module).map(([name, module]) => `${name} (${path.relative(KB, module)})`);
    expect(missing).toEqual([]);
  });

  it('exports nothing no host takes', () => {
    expect([...exported.keys()].filter((name) => !used.has(name)).sort()).toEqual([]);
  });
});
