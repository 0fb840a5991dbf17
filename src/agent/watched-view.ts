/**
 * The agent server's view of local files: the local knowledge view (src/kb/view/local-view.ts),
 * kept open between calls and opened again after any change to the config files or a topic's
 * folder, with the LLM summaries the build cached and the content errors reported once each.
 */
import { type Catalog, type CatalogMemo, type CatalogMemoEntry, buildCatalog } from '../kb/catalog/catalog.ts';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import { type Diagnostic, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import type { ExtraKnowledge, KnowledgeRequest } from '../kb/knowledge/extension.ts';
import { createLocalView } from '../kb/view/local-view.ts';
import type { KnowledgeAnswers, KnowledgeView } from '../kb/view/view.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { applySummaries } from '../kb/catalog/llm-summary.ts';
import { listTopicLinks } from '../kb/url-sources/links-file.ts';
import { openLocalKnowledgeBase, sourcesFolderOf } from '../url-sources/local-sources.ts';
import { watchFolders, type FolderWatch, type WatchTargets } from './folder-watch.ts';

/** Options of {@link createWatchedView}. */
export interface WatchedViewOptions {
  /**
   * The profile and `-k` values to pre-load (content/agents/preloading.md), applied at every
   * opening: once the config no longer fits them, every call answers with the message until it
   * does again. Default: none.
   */
  request?: KnowledgeRequest;
  /**
   * Reads the config again after a watched file changed. Throws when the config no longer loads;
   * `describeError` turns that into the message every call answers until the config is fixed.
   * Default: the first config is kept, and only the topic folders are read again.
   */
  reloadConfig?: () => SyllabusConfig | Promise<SyllabusConfig>;
  /** The message of an error `reloadConfig` threw. Default: its `message`. */
  describeError?: (error: unknown) => string;
  /**
   * One line of a configuration error found when opening (a topic folder whose real path leaves
   * its config file's folder). Default: `file:line: message`.
   */
  formatDiagnostic?: (diagnostic: Diagnostic) => string;
  /** Called once for each content error found while answering (content/reference/diagnostics.md: warn and go on). */
  warn?: (diagnostic: Diagnostic) => void;
  /**
   * Whether to watch the files for changes (default true). Without watching, or when the system
   * refuses a watcher, the knowledge base is opened again at every call.
   */
  watch?: boolean;
  /** Called when watching had to be given up, with the reason. */
  watchFailed?: (error: unknown) => void;
  /**
   * Called each time a watcher reports a change to the config files or a topic's folder (often
   * several times for one save): the next call answers from the files as they are now.
   */
  changed?: () => void;
  /**
   * Tokens and summaries computed before, by content (the build's memo): the catalog that `find`
   * and the index read computes only the others. What the view computes is kept in memory.
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

/** A knowledge view that follows the files; `close()` stops watching them. */
export interface WatchedView extends KnowledgeAnswers {
  close(): void;
}

/** An opened knowledge base and what was computed from it. */
interface Opening {
  kb: KnowledgeBase;
  /** How many of the knowledge base's diagnostics were looked at, and the warnings given (each once). */
  seen: number;
  warned: Set<string>;
  catalog?: Promise<Catalog>;
  /** The stamp of the LLM summaries the catalog was made with. */
  summariesStamp?: string;
}

/** An opened knowledge base with its view. */
type Opened = Opening & { ok: true; view: KnowledgeView };

/** An opened knowledge base, or why it cannot be opened. */
type State = Opened | { ok: false; message: string };

/** The error a view method rejects with when the configuration no longer loads. */
export class ConfigurationError extends Error {}

/**
 * A view of the files of `config`, with `options.request` applied. The knowledge base stays open
 * between calls, so an answer costs what the core's own call costs; a change to a config file or
 * below a topic folder makes the next call open it again (and read the config again, with
 * `reloadConfig`). Call `close()` to stop watching.
 */
export function createWatchedView(config: SyllabusConfig, options: WatchedViewOptions = {}): WatchedView {
  const formatDiagnostic = options.formatDiagnostic ?? defaultFormat;
  const describeError = options.describeError ?? ((error: unknown) => (error instanceof Error ? error.message : String(error)));
  let changed = false;
  let watch: FolderWatch | undefined;
  if (options.watch ?? true) {
    watch = watchFolders(() => {
      changed = true;
      options.changed?.();
    });
  }

  // URL sources come from the build's cache: a build that refreshes it counts as a change.
  const targetsOf = (current: SyllabusConfig): WatchTargets => ({
    trees: [...current.topics.filter((t) => t.enable).map((t) => t.dir), ...(listTopicLinks(current).length > 0 ? [sourcesFolderOf(current)] : [])],
    files: current.files,
  });

  // Tokens, summaries and headings by content, kept across openings: after an edit only new contents are computed.
  const known = new Map<string, CatalogMemoEntry>();
  const memo: CatalogMemo = { get: (key) => known.get(key) ?? options.memo?.get(key), set: (key, value) => void known.set(key, value) };

  /**
   * The catalog of the open knowledge base, built once per opening (`-k` and the profile do not
   * change within one). A failure is not kept: the next call tries again.
   */
  const catalogOf = (now: Opening, extra: readonly ExtraKnowledge[]): Promise<Catalog> => {
    if (!now.catalog) {
      const catalog = buildCatalog(now.kb, { memo, extra }).then(({ catalog }) => {
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

  const open = async (current: SyllabusConfig): Promise<State> => {
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
    const opening: Opening = { kb, seen: 0, warned: new Set() };
    // The request is checked before the folders' errors are reported, as the command line does.
    const extended = await createLocalView(kb, { catalog: (_kb, extra) => catalogOf(opening, extra) }).extend(options.request ?? {});
    if (!extended.ok) return { ok: false, message: extended.message };
    const errors = kb.diagnostics().filter((d) => d.kind === 'config-error');
    if (errors.length > 0) return { ok: false, message: sortDiagnostics(errors).map(formatDiagnostic).join('\n') };
    return Object.assign(opening, { ok: true as const, view: extended.view });
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
        state = Promise.resolve({ ok: false, message: describeError(error) });
        return state;
      }
    }
    state = open(config);
    return state;
  };

  const opened = async (): Promise<Opened> => {
    const now = await current();
    if (!now.ok) throw new ConfigurationError(now.message);
    return now;
  };

  /**
   * Reports the content errors found since the last report, each once: topics are walked on first
   * use, and a lookup by exact slug before the walk finds some of the same duplicates.
   */
  const report = (now: Opening): void => {
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

  /** Forgets the catalog when the cached LLM summaries changed since it was made. */
  const followSummaries = (now: Opened): void => {
    if (!options.summaries || !now.kb.config.kb.summaries) return;
    const stamp = options.summaries.stamp();
    if (now.summariesStamp === stamp) return;
    now.summariesStamp = stamp;
    delete now.catalog;
  };

  /** `ask`'s answer from the open view, the content errors it met reported. */
  const answered = async <T>(now: Opened, ask: (view: KnowledgeView) => Promise<T>): Promise<T> => {
    const answer = await ask(now.view);
    report(now);
    return answer;
  };

  return {
    prompt: async () => answered(await opened(), (view) => view.prompt()),
    tool: async () => answered(await opened(), (view) => view.tool()),
    tokens: async () => answered(await opened(), (view) => view.tokens()),
    async learn(args) {
      const now = await current();
      return now.ok ? answered(now, (view) => view.learn(args)) : { ok: false, message: now.message };
    },
    async listing(topic) {
      const now = await current();
      return now.ok ? answered(now, (view) => view.listing(topic)) : { ok: false, message: now.message };
    },
    async find(args) {
      const now = await current();
      if (!now.ok) return { ok: false, message: now.message };
      followSummaries(now);
      return now.view.find(args);
    },
    async index() {
      const now = await opened();
      followSummaries(now);
      return now.view.index();
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
