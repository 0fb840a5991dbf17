/**
 * The knowledge base of a merged config: its enabled topics, each walked on first use, with
 * subjects, disabled ones removed and learned ones resolved. The model every host reads.
 */
import fs from 'node:fs';
import type { SyllabusConfig } from '../config/merge.ts';
import type { PatternOrigin, TopicConfig } from '../config/topics.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { isOutside, realPathOrSelf } from '../files/paths.ts';
import { createLinkJudge } from './link-targets.ts';
import { exactNames, exactSlug, resolvePatterns } from './resolve.ts';
import { readSubjectContent, type SubjectContent } from './read-subject.ts';
import { readLearningsFile } from '../learnings/file.ts';
import { learningSubjects, renderLearning } from '../learnings/subjects.ts';
import { compareCandidates, createSubjectCollector, duplicateSlugDiagnostic, removeDisabled, subjectOf, type Subject } from './subjects.ts';
import { findTopicFiles, visitTopicFolder, type WalkOptions } from './walk.ts';
import { createDisabledMatcher } from './disabled.ts';
import { readTopicLinks } from '../url-sources/links-file.ts';
import type { SourceDocuments } from '../url-sources/document.ts';
import { sourceContent, sourceSubjects } from '../url-sources/subjects.ts';

/** An enabled topic with its subjects. */
export interface Topic {
  id: string;
  title: string | undefined;
  introduction: string | undefined;
  description: string | undefined;
  config: TopicConfig;
  /** Subjects that are not disabled, hidden ones included, sorted by slug. */
  subjects: Subject[];
  bySlug: Map<string, Subject>;
  /** How many subjects `disabled` removed. */
  disabledCount: number;
  /** The subjects `disabled` removed, sorted by slug (for `syllabus diff`, which shows everything of a source). */
  disabledSubjects: Subject[];
  /** Learned slugs in resolution order (hidden ones pre-loaded by exact slug included); resolved on first use. */
  readonly learned: string[];
  /** The same slugs as a set. */
  readonly learnedSet: Set<string>;
}

/** The knowledge base of a config. Topics are walked on first use. */
export interface KnowledgeBase {
  config: SyllabusConfig;
  /** Enabled topics' configs, in config order. */
  topicConfigs: TopicConfig[];
  /** The topic with this id (enabled), walked on first use; undefined for an unknown id. */
  topic(id: string): Topic | undefined;
  /** Every enabled topic, in config order. */
  topics(): Topic[];
  /**
   * The available subject a pattern names by exact equality (content/reference/patterns.md: as
   * given, else with one leading `.` dropped from each component), or undefined. Reads only the
   * folders on the subject's path unless the topic was already walked.
   */
  findExact(topicId: string, pattern: string): Subject | undefined;
  /** Reads a subject's content as `learn` returns it (content/reference/subject-formats.md). */
  read(subject: Subject): SubjectContent;
  /** Diagnostics of the configuration checks and of every topic walked so far. */
  diagnostics(): Diagnostic[];
}

/** Options of {@link openKnowledgeBase}. */
export interface KnowledgeBaseOptions {
  /**
   * The documents of URL sources (content/reference/subject-formats.md), by URL, as the host
   * fetched or cached them. A URL a topic's `links.txt` lists becomes a subject only when it has a
   * document here. Default: none.
   */
  sources?: SourceDocuments;
}

/**
 * Opens the knowledge base of a merged config. Checks every enabled topic's folder at once (a
 * folder whose real path leaves its config file's folder is a configuration error); walks a
 * topic only when it is first asked for. The URLs of a topic's `links.txt` become subjects with
 * the documents `options.sources` holds for them.
 */
export function openKnowledgeBase(config: SyllabusConfig, options: KnowledgeBaseOptions = {}): KnowledgeBase {
  const documents: SourceDocuments = options.sources ?? new Map();
  const diagnostics: Diagnostic[] = [];
  const topicConfigs = config.topics.filter((t) => t.enable);
  // Config files and learnings stores (of every topic, enabled or not) are never subjects of a folder.
  const stores = config.topics.filter((t) => t.kind === 'learnings').map((t) => t.dir);
  const exclude = new Set([...config.files, ...stores].map(realPathOrSelf));
  const realDirs = new Map<string, { dir: string; bound: string } | undefined>();
  const judgeLink = createLinkJudge(config.topics);
  const walkOptions = (bound: string) => ({ bound, exclude, judgeLink: (real: string, kind: 'file' | 'folder') => judgeLink(bound, real, kind) });

  for (const topic of topicConfigs) {
    const where = { file: topic.file, ...(topic.line ? { line: topic.line } : {}) };
    const bound = realPathOrSelf(topic.root);
    if (topic.kind === 'learnings') {
      const problem = storeProblem(topic, bound);
      if (problem) diagnostics.push({ ...problem, ...where });
      realDirs.set(topic.id, problem ? undefined : { dir: realPathOrSelf(topic.dir), bound });
      continue;
    }
    const { stat, code } = statPath(topic.dir);
    if (!stat) {
      diagnostics.push({
        kind: 'content-error',
        code: 'missing-folder',
        message: code
          ? `kb.topic.${topic.id}.subjects: the folder ${JSON.stringify(topic.subjects)} cannot be read (${code}). Fix its permissions, or the symlink on its way.`
          : `kb.topic.${topic.id}.subjects: the folder ${JSON.stringify(topic.subjects)} does not exist (${topic.dir}). Create it, or point subjects at an existing folder.`,
        ...where,
      });
      realDirs.set(topic.id, undefined);
      continue;
    }
    const real = realPathOrSelf(topic.dir);
    if (isOutside(bound, real)) {
      diagnostics.push({
        kind: 'config-error',
        code: 'escaping-subjects',
        message: `kb.topic.${topic.id}.subjects: ${JSON.stringify(topic.subjects)} is a symlink to ${real}, outside the folder of the config file (${bound}). Topic folders must lie inside it, because PR previews build configs from untrusted branches; move the folder there.`,
        ...where,
      });
      realDirs.set(topic.id, undefined);
      continue;
    }
    if (!stat.isDirectory()) {
      diagnostics.push({
        kind: 'content-error',
        code: 'missing-folder',
        message: `kb.topic.${topic.id}.subjects: ${JSON.stringify(topic.subjects)} is a file, not a folder. Point subjects at the folder that holds the topic's files.`,
        ...where,
      });
      realDirs.set(topic.id, undefined);
      continue;
    }
    realDirs.set(topic.id, { dir: real, bound });
  }

  // A topic's URL sources, read from its links.txt on first use (its warnings reported once).
  const sourcesByTopic = new Map<string, Subject[]>();
  const sourcesOf = (topicConfig: TopicConfig): Subject[] => {
    let subjects = sourcesByTopic.get(topicConfig.id);
    if (subjects) return subjects;
    const where = realDirs.get(topicConfig.id);
    const links = where && topicConfig.kind === 'folder' ? readTopicLinks(topicConfig.dir, where.bound) : undefined;
    if (links) diagnostics.push(...links.diagnostics);
    subjects = links ? sourceSubjects(links.links, documents, links.file) : [];
    sourcesByTopic.set(topicConfig.id, subjects);
    return subjects;
  };

  const loaded = new Map<string, Topic>();
  const load = (topicConfig: TopicConfig): Topic => {
    const cached = loaded.get(topicConfig.id);
    if (cached) return cached;
    const where = realDirs.get(topicConfig.id);
    let all: { subjects: Subject[]; bySlug: Map<string, Subject> } = { subjects: [], bySlug: new Map() };
    if (where && topicConfig.kind === 'learnings') {
      const reading = readLearningsFile(topicConfig.dir);
      if (reading.ok) {
        const collected = learningSubjects(reading.store, topicConfig.dir, topicConfig.id);
        diagnostics.push(...collected.diagnostics);
        all = collected;
      } else {
        diagnostics.push({
          kind: 'content-error',
          code: 'invalid-store',
          message: `The learnings store of topic "${topicConfig.id}" ${reading.problem}, so the topic has no subjects. ${reading.fix}`,
          file: topicConfig.dir,
          ...(reading.line ? { line: reading.line } : {}),
          ...(reading.column ? { column: reading.column } : {}),
        });
      }
    } else if (where) {
      const collector = createSubjectCollector(topicConfig.id);
      diagnostics.push(...visitTopicFolder(topicConfig.dir, where.dir, walkOptions(where.bound), collector.add));
      for (const source of sourcesOf(topicConfig)) collector.addSubject(source);
      const collected = collector.finish();
      diagnostics.push(...collected.diagnostics);
      all = collected;
    }
    const enabled = removeDisabled(all.subjects, topicConfig.disabled, all.bySlug);
    const located = (origin: PatternOrigin | undefined) => {
      const file = origin?.file ?? topicConfig.file;
      const line = origin ? origin.line : topicConfig.line;
      return { file, ...(line ? { line } : {}) };
    };
    if (where) {
      for (const pattern of enabled.unmatched) {
        diagnostics.push({
          kind: 'warning',
          code: 'unmatched-disabled',
          message: `kb.topic.${topicConfig.id}.disabled: ${JSON.stringify(pattern)} matches no subject. Fix the pattern or remove it.`,
          ...located(topicConfig.disabledFrom[topicConfig.disabled.indexOf(pattern)]),
        });
      }
    }
    const { subjects, bySlug } = enabled;
    // Learned subjects are resolved on first use: loading one exact slug never needs them.
    let learned: { slugs: string[]; set: Set<string> } | undefined;
    const resolveLearned = (): { slugs: string[]; set: Set<string> } => {
      if (learned) return learned;
      const resolution = resolvePatterns(subjects, bySlug, topicConfig.learned);
      // Config validation and the CLI compile every learned pattern, so resolution cannot fail here.
      if (!resolution.ok) throw new Error(resolution.message);
      if (where) {
        resolution.matches.forEach((match, index) => {
          if (match.slugs.length > 0) return;
          diagnostics.push({
            kind: 'warning',
            code: 'unmatched-learned',
            message: `kb.topic.${topicConfig.id}.learned: ${JSON.stringify(match.pattern)} matches no subject. Fix the pattern or remove it.`,
            ...located(topicConfig.learnedFrom[index]),
          });
        });
      }
      learned = { slugs: resolution.slugs, set: new Set(resolution.slugs) };
      return learned;
    };
    const topic: Topic = {
      id: topicConfig.id,
      title: topicConfig.title,
      introduction: topicConfig.introduction,
      description: topicConfig.description,
      config: topicConfig,
      subjects,
      bySlug,
      disabledCount: all.subjects.length - subjects.length,
      disabledSubjects: subjects.length === all.subjects.length ? [] : all.subjects.filter((s) => bySlug.get(s.slug) !== s),
      get learned() {
        return resolveLearned().slugs;
      },
      get learnedSet() {
        return resolveLearned().set;
      },
    };
    loaded.set(topic.id, topic);
    return topic;
  };

  return {
    config,
    topicConfigs,
    topic(id) {
      const topicConfig = topicConfigs.find((t) => t.id === id);
      return topicConfig && load(topicConfig);
    },
    topics() {
      return topicConfigs.map(load);
    },
    findExact(topicId, pattern) {
      const topicConfig = topicConfigs.find((t) => t.id === topicId);
      const where = realDirs.get(topicId);
      if (!topicConfig || !where) return undefined;
      const walked = topicConfig.kind === 'learnings' ? load(topicConfig) : loaded.get(topicId);
      if (walked) {
        const slug = exactSlug(walked.bySlug, pattern);
        return slug === undefined ? undefined : walked.bySlug.get(slug);
      }
      const found = findExactSubject(topicConfig, { dir: topicConfig.dir, realDir: where.dir, walk: walkOptions(where.bound), sources: sourcesOf(topicConfig) }, pattern);
      diagnostics.push(...found.diagnostics);
      return found.subject;
    },
    read(subject) {
      if (subject.learning) {
        const content = renderLearning(subject.learning.entry);
        return { content, text: content, skipped: null, invalidUtf8: false, bytes: Buffer.byteLength(content), raw: null };
      }
      if (subject.source) {
        const content = sourceContent(subject.source.document);
        return { content, text: content, skipped: null, invalidUtf8: false, bytes: Buffer.byteLength(content), raw: null };
      }
      return readSubjectContent(subject, config.kb.max_subject_bytes);
    },
    diagnostics() {
      return [...diagnostics];
    },
  };
}

/**
 * Why a learnings topic's store cannot be read as one, checked on disk: missing or a folder (a
 * content error), or a real path outside the folder of its config file (a configuration error).
 */
function storeProblem(topic: TopicConfig, bound: string): Omit<Diagnostic, 'file' | 'line'> | undefined {
  const { stat, code } = statPath(topic.dir);
  if (code) {
    return {
      kind: 'content-error',
      code: 'missing-store',
      message: `kb.topic.${topic.id}.learnings: the file ${JSON.stringify(topic.subjects)} cannot be read (${code}). Fix its permissions, or the symlink on its way.`,
    };
  }
  if (!stat) {
    return {
      kind: 'content-error',
      code: 'missing-store',
      message: `kb.topic.${topic.id}.learnings: the file ${JSON.stringify(topic.subjects)} does not exist (${topic.dir}). Create it (syllabus learnings add creates it), or point learnings at an existing store.`,
    };
  }
  const real = realPathOrSelf(topic.dir);
  if (isOutside(bound, real)) {
    return {
      kind: 'config-error',
      code: 'escaping-subjects',
      message: `kb.topic.${topic.id}.learnings: ${JSON.stringify(topic.subjects)} is a symlink to ${real}, outside the folder of the config file (${bound}). Learnings stores must lie inside it, because PR previews build configs from untrusted branches; move the file there.`,
    };
  }
  if (stat.isDirectory()) {
    return {
      kind: 'content-error',
      code: 'missing-store',
      message: `kb.topic.${topic.id}.learnings: ${JSON.stringify(topic.subjects)} is a folder, not a file. Point learnings at the store's JSON file, or use subjects = ${JSON.stringify(topic.subjects)} for a folder of subjects.`,
    };
  }
  return undefined;
}

/** A path's stat, undefined when nothing is there; `code` when it cannot be looked at (EACCES, ELOOP, …). */
function statPath(file: string): { stat: fs.Stats | undefined; code?: string } {
  try {
    return { stat: fs.statSync(file, { throwIfNoEntry: false }) };
  } catch (error) {
    return { stat: undefined, code: (error as NodeJS.ErrnoException).code ?? String(error) };
  }
}

/** Where a topic's files are, for a point lookup. */
interface TopicPlace {
  dir: string;
  realDir: string;
  walk: WalkOptions;
  /** The topic's URL sources. */
  sources: readonly Subject[];
}

/**
 * The exact-equality step of content/reference/patterns.md for one pattern, without walking the
 * whole topic: the files that could carry the slug are found folder by folder, duplicates are
 * settled as in the walk, and `disabled` entries are applied as in the walk.
 */
function findExactSubject(topic: TopicConfig, place: TopicPlace, pattern: string): { subject: Subject | undefined; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const filesWithSlug = (slug: string): Subject[] => {
    const segments = slug.split('/');
    if (segments.some((segment) => segment === '')) return [];
    const depth = segments.length - 1;
    const last = segments[depth]!;
    return findTopicFiles(place.dir, place.realDir, place.walk, depth, {
      folder: (name, level) => (name.startsWith('.') ? name.slice(1) : name) === segments[level],
      file: (name) => name.startsWith(last) || name.startsWith(`.${last}`),
    })
      .map(subjectOf)
      .concat(place.sources)
      .filter((subject) => subject.slug === slug);
  };
  const disabled = createDisabledMatcher(topic.disabled, (slug) => filesWithSlug(slug).length > 0);

  for (const slug of exactNames(pattern)) {
    const candidates = filesWithSlug(slug).sort(compareCandidates);
    if (candidates.length === 0 || disabled.covers(slug)) continue;
    if (candidates.length > 1) diagnostics.push(duplicateSlugDiagnostic(topic.id, slug, candidates));
    return { subject: candidates[0], diagnostics };
  }
  return { subject: undefined, diagnostics };
}
