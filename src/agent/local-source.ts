/**
 * A knowledge source over local files: the core's own answers (SPEC 4), kept open between calls
 * and opened again after any change to the config files or a topic's folder.
 */
import { type Catalog, type CatalogMemo, type CatalogMemoEntry, buildCatalog } from '../kb/catalog/catalog.ts';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import { type Diagnostic, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import type { SiteIndex } from '../kb/publish/endpoint-schemas.ts';
import { buildSiteIndex } from '../kb/publish/endpoints.ts';
import { type FindEntry, findEntriesOf, parseFindArguments, renderFindResults, runFind } from '../kb/knowledge/find.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { buildKnowledgeSection } from '../kb/knowledge/section.ts';
import { type LearnToolDefinition, buildLearnDefinition, parseLearnArguments, runLearn } from '../kb/knowledge/learn.ts';
import { applySummaries } from '../kb/summaries/llm-summary.ts';
import { listTopicLinks } from '../kb/url-sources/links-file.ts';
import { openLocalKnowledgeBase, sourcesFolderOf } from '../url-sources/local-sources.ts';
import { watchFolders, type FolderWatch, type WatchTargets } from './folder-watch.ts';
import type { KnowledgeSource } from './knowledge-source.ts';

/** Options of {@link createLocalSource}. */
export interface LocalSourceOptions {
  /**
   * Reads the config again after a watched file changed (the host applies its `-k` and
   * `--profile` here too). Throws when the config no longer loads; `describeError` turns that
   * into the message every call answers until the config is fixed. Default: the first config is
   * kept, and only the topic folders are read again.
   */
  reloadConfig?: () => SyllabusConfig | Promise<SyllabusConfig>;
  /** The message of an error `reloadConfig` threw. Default: its `message`. */
  describeError?: (error: unknown) => string;
  /**
   * One line of a configuration error found when opening (a topic folder whose real path leaves
   * its config file's folder). Default: `file:line: message`.
   */
  formatDiagnostic?: (diagnostic: Diagnostic) => string;
  /** Called once for each content error found while answering (SPEC 5: warn and go on). */
  warn?: (diagnostic: Diagnostic) => void;
  /**
   * Whether to watch the files for changes (default true). Without watching, or when the system
   * refuses a watcher, the knowledge base is opened again at every call.
   */
  watch?: boolean;
  /** Called when watching had to be given up, with the reason. */
  watchFailed?: (error: unknown) => void;
  /**
   * Tokens and summaries computed before, by content (the build's memo): the catalog that `find`
   * and the index read computes only the others. What the source computes is kept in memory.
   */
  memo?: CatalogMemo;
  /**
   * The LLM summaries the build cached (`[kb.summaries]`), by key: `load` reads them, `stamp`
   * changes whenever the cache does. With them, `find` and the index show what the site published;
   * a new stamp (a build wrote the cache) makes the next call compute its catalog again. No model
   * is ever called.
   */
  summaries?: { stamp: () => string; load: () => ReadonlyMap<string, string> };
}

/** An opened knowledge base and what was computed from it, or why it cannot be opened. */
type State =
  | {
      ok: true;
      kb: KnowledgeBase;
      /** How many of the knowledge base's diagnostics were looked at, and the warnings given (each once). */
      seen: number;
      warned: Set<string>;
      tool?: LearnToolDefinition | null;
      prompt?: string | null;
      catalog?: Promise<Catalog>;
      index?: Promise<SiteIndex>;
      findEntries?: Promise<FindEntry[]>;
      /** The stamp of the LLM summaries the catalog was made with. */
      summariesStamp?: string;
    }
  | { ok: false; message: string };

/** The error a source method rejects with when the configuration no longer loads. */
export class ConfigurationError extends Error {}

/**
 * A knowledge source over the files of `config` (its `-k` and profile patterns already applied).
 * The knowledge base stays open between calls, so an answer costs what the core's own call costs;
 * a change to a config file or below a topic folder makes the next call open it again (and read
 * the config again, with `reloadConfig`). Call `close()` to stop watching.
 */
export function createLocalSource(config: SyllabusConfig, options: LocalSourceOptions = {}): KnowledgeSource {
  const formatDiagnostic = options.formatDiagnostic ?? defaultFormat;
  const describeError = options.describeError ?? ((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let changed = false;
  let watch: FolderWatch | undefined;
  if (options.watch ?? true) {
    watch = watchFolders(() => {
      changed = true;
    });
  }

  // URL sources come from the build's cache: a build that refreshes it counts as a change.
  const targetsOf = (current: SyllabusConfig): WatchTargets => ({
    trees: [...current.topics.filter((t) => t.enable).map((t) => t.dir), ...(listTopicLinks(current).length > 0 ? [sourcesFolderOf(current)] : [])],
    files: current.files,
  });

  const open = (current: SyllabusConfig): State => {
    if (watch) {
      try {
        // Watch first, open second: a change made while opening still counts.
        watch.update(targetsOf(current));
      } catch (error) {
        watch.close();
        watch = undefined;
        options.watchFailed?.(error);
      }
    }
    const { kb } = openLocalKnowledgeBase(current);
    const errors = kb.diagnostics().filter((d) => d.kind === 'config-error');
    if (errors.length > 0) return { ok: false, message: sortDiagnostics(errors).map(formatDiagnostic).join('\n') };
    return { ok: true, kb, seen: 0, warned: new Set() };
  };

  let state = open(config);

  /** The current state, opened again first when something changed (or when nothing is watched). */
  const current = async (): Promise<State> => {
    if (!changed && watch) return state;
    changed = false;
    if (options.reloadConfig) {
      try {
        config = await options.reloadConfig();
      } catch (error) {
        // The config files stay watched as they were: fixing them is the next change.
        state = { ok: false, message: describeError(error) };
        return state;
      }
    }
    state = open(config);
    return state;
  };

  const opened = async (): Promise<Extract<State, { ok: true }>> => {
    const now = await current();
    if (!now.ok) throw new ConfigurationError(now.message);
    return now;
  };

  /**
   * Reports the content errors found since the last report, each once: topics are walked on first
   * use, and a lookup by exact slug before the walk finds some of the same duplicates.
   */
  const report = (now: Extract<State, { ok: true }>): void => {
    if (!options.warn) return;
    const diagnostics = now.kb.diagnostics();
    for (const diagnostic of diagnostics.slice(now.seen)) {
      const key = `${diagnostic.file}\0${diagnostic.line}\0${diagnostic.message}`;
      if (diagnostic.kind !== 'content-error' || now.warned.has(key)) continue;
      now.warned.add(key);
      options.warn(diagnostic);
    }
    now.seen = diagnostics.length;
  };

  // Tokens, summaries and headings by content, kept across openings: after an edit only new contents are computed.
  const known = new Map<string, CatalogMemoEntry>();
  const memo: CatalogMemo = { get: (key) => known.get(key) ?? options.memo?.get(key), set: (key, value) => void known.set(key, value) };

  /**
   * The catalog of the open knowledge base, built once per opening. A failure is not kept: the
   * next call tries again.
   */
  const catalogOf = (now: Extract<State, { ok: true }>): Promise<Catalog> => {
    if (!now.catalog) {
      const catalog = buildCatalog(now.kb, { memo }).then(({ catalog }) => {
        report(now);
        const settings = now.kb.config.kb.summaries;
        return settings && options.summaries ? applySummaries(catalog, settings, options.summaries.load()) : catalog;
      });
      now.catalog = catalog;
      catalog.catch(() => {
        if (now.catalog === catalog) delete now.catalog;
      });
    }
    return now.catalog;
  };

  /** Forgets what was computed from the catalog when the cached LLM summaries changed since. */
  const followSummaries = (now: Extract<State, { ok: true }>): void => {
    if (!options.summaries || !now.kb.config.kb.summaries) return;
    const stamp = options.summaries.stamp();
    if (now.summariesStamp === stamp) return;
    now.summariesStamp = stamp;
    delete now.catalog;
    delete now.findEntries;
    delete now.index;
  };

  return {
    async tool() {
      const now = await opened();
      if (now.tool === undefined) {
        now.tool = buildLearnDefinition(now.kb);
        report(now);
      }
      return now.tool;
    },
    async learn(args) {
      const now = await current();
      if (!now.ok) return { ok: false, message: now.message };
      const parsed = parseLearnArguments(args);
      if (!parsed.ok) return parsed;
      const outcome = runLearn(now.kb, parsed.value);
      report(now);
      return outcome;
    },
    async find(args) {
      const now = await current();
      if (!now.ok) return { ok: false, message: now.message };
      const parsed = parseFindArguments(args);
      if (!parsed.ok) return parsed;
      followSummaries(now);
      const entries = (now.findEntries ??= catalogOf(now).then(findEntriesOf));
      entries.catch(() => {
        if (now.findEntries === entries) delete now.findEntries;
      });
      const found = runFind(await entries, now.kb.topicConfigs, parsed.value);
      return found.ok ? { ok: true, text: renderFindResults(found.results) } : found;
    },
    async prompt() {
      const now = await opened();
      if (now.prompt === undefined) {
        const section = buildKnowledgeSection(now.kb);
        now.prompt = section === '' ? null : section;
        report(now);
      }
      return now.prompt;
    },
    async index() {
      const now = await opened();
      // A failed catalog is not kept (catalogOf), and neither is the index made from it.
      followSummaries(now);
      const index = (now.index ??= catalogOf(now).then((catalog) => buildSiteIndex(catalog, now.kb.config.site)));
      index.catch(() => {
        if (now.index === index) delete now.index;
      });
      return index;
    },
    close() {
      watch?.close();
      watch = undefined;
    },
  };
}

function defaultFormat(diagnostic: Diagnostic): string {
  if (!diagnostic.file) return diagnostic.message;
  const place = [diagnostic.file, diagnostic.line, diagnostic.line ? diagnostic.column : undefined].filter((p) => p !== undefined).join(':');
  return `${place}: ${diagnostic.message}`;
}
