/**
 * Merging `[kb.topic.<id>]` tables (content/reference/configuration.md, "Several config files"):
 * topics merge by id in the order they first appear, scalars of a later file replace, `learned`
 * and `disabled` are appended with where each entry was written, and the latest `subjects` or
 * `learnings` says where the subjects come from, resolved against the folder of the file that
 * set it and checked to stay inside it.
 */
import path from 'node:path';
import { configError } from './config-error.ts';
import { TOPIC_DEFAULTS } from './defaults.ts';
import { locatePath } from './locate.ts';
import type { ConfigText } from './read.ts';
import type { DefaultedKeys, Merged, TopicTable } from './schema.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { isOutside } from '../files/paths.ts';

/** The file and line a pattern entry was written at. */
export interface PatternOrigin {
  file: string;
  line: number | undefined;
}

/** One topic after merging: its table with defaults applied, and where its subjects come from. */
export type TopicConfig = Merged<Omit<TopicTable, 'learnings'>, DefaultedKeys<typeof TOPIC_DEFAULTS> | 'subjects'> & {
  id: string;
  /** Where the subjects come from: a `subjects` folder, or a `learnings` store. */
  kind: 'folder' | 'learnings';
  /** `subjects` (or, for a learnings topic, `learnings`) as written. */
  subjects: string;
  /** Absolute folder of the subjects, or of a learnings topic the store file (not yet checked on disk). */
  dir: string;
  /** Folder of the config file that named `subjects`: the bound for the folder and its symlinks. */
  root: string;
  /** The config file that named `subjects` (or `learnings`). */
  file: string;
  /** Line of the `subjects` (or `learnings`) key in `file`, when found. */
  line: number | undefined;
  /** Where each `learned` entry was written (same indexes; entries added by `-k` have none). */
  learnedFrom: PatternOrigin[];
  /** Where each `disabled` entry was written (same indexes). */
  disabledFrom: PatternOrigin[];
};

/** Where a topic's subjects come from, as the latest file that set `subjects` or `learnings` said. */
type TopicLocation = Pick<TopicConfig, 'kind' | 'subjects' | 'dir' | 'root' | 'file' | 'line'>;

/** A topic while files are merged. */
interface TopicDraft {
  scalars: Pick<TopicTable, 'enable' | 'title' | 'introduction' | 'description'>;
  location: TopicLocation | undefined;
  learned: string[];
  disabled: string[];
  learnedFrom: PatternOrigin[];
  disabledFrom: PatternOrigin[];
  /** The last file that has the topic's table: where a missing `subjects` is reported. */
  lastText: ConfigText;
}

/** Topics by id, in the order they first appear, as the files merged so far leave them. */
export type TopicDrafts = Map<string, TopicDraft>;

/** Merges the topic tables of one more file (`configText`) into `drafts`. */
export function addTopicTables(drafts: TopicDrafts, tables: Readonly<Record<string, TopicTable>>, configText: ConfigText): void {
  for (const [id, table] of Object.entries(tables)) {
    const draft = drafts.get(id) ?? {
      scalars: {},
      location: undefined,
      learned: [...TOPIC_DEFAULTS.learned],
      disabled: [...TOPIC_DEFAULTS.disabled],
      learnedFrom: [],
      disabledFrom: [],
      lastText: configText,
    };
    draft.lastText = configText;
    const { learned, disabled, subjects, learnings, ...scalars } = table;
    Object.assign(draft.scalars, scalars);
    // A later file's subjects or learnings replaces where the topic's subjects come from.
    const location = learnings ?? subjects;
    if (location !== undefined) {
      const kind = learnings !== undefined ? 'learnings' : 'folder';
      const root = path.dirname(configText.file);
      const line = locatePath(configText.text, ['kb', 'topic', id, kind === 'learnings' ? 'learnings' : 'subjects'])?.line;
      draft.location = { kind, subjects: location, dir: path.resolve(root, location), root, file: configText.file, line };
    }
    const origin = (key: string): PatternOrigin => ({ file: configText.file, line: locatePath(configText.text, ['kb', 'topic', id, key])?.line });
    if (learned) {
      const from = origin('learned');
      draft.learned.push(...learned);
      draft.learnedFrom.push(...learned.map(() => from));
    }
    if (disabled) {
      const from = origin('disabled');
      draft.disabled.push(...disabled);
      draft.disabledFrom.push(...disabled.map(() => from));
    }
    drafts.set(id, draft);
  }
}

/**
 * The merged topics, with defaults applied, and a configuration error for each topic without
 * `subjects` (or `learnings`) or whose path may not be used. Paths are checked here, on every
 * load: a folder may become a symlink while the file stays the same.
 */
export function resolveTopics(drafts: TopicDrafts): { topics: TopicConfig[]; diagnostics: Diagnostic[] } {
  const topics: TopicConfig[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const [id, draft] of drafts) {
    const at = draft.location;
    if (!at) {
      diagnostics.push(
        configError(
          draft.lastText,
          'missing-subjects',
          ['kb', 'topic', id],
          `kb.topic.${id}.subjects: missing. Every topic needs subjects = "<folder>", a folder relative to the config file that names it (or learnings = "<file>.json", a learnings store).`,
        ),
      );
      continue;
    }
    const escape = escapeProblem(at.subjects, at.root, at.dir, at.kind);
    if (escape) {
      const key = at.kind === 'learnings' ? 'learnings' : 'subjects';
      diagnostics.push(configError(draft.lastText, 'escaping-subjects', ['kb', 'topic', id, key], `kb.topic.${id}.${key}: ${escape}`));
      continue;
    }
    const { scalars } = draft;
    topics.push({
      id,
      kind: at.kind,
      enable: scalars.enable ?? TOPIC_DEFAULTS.enable,
      title: scalars.title ?? TOPIC_DEFAULTS.title,
      introduction: scalars.introduction ?? TOPIC_DEFAULTS.introduction,
      description: scalars.description ?? TOPIC_DEFAULTS.description,
      subjects: at.subjects,
      dir: at.dir,
      root: at.root,
      file: at.file,
      line: at.line,
      learned: draft.learned,
      disabled: draft.disabled,
      learnedFrom: draft.learnedFrom,
      disabledFrom: draft.disabledFrom,
    });
  }
  return { topics, diagnostics };
}

/** Why a `subjects` (or `learnings`) path may not be used as written, judged on the path alone. */
export function escapeProblem(subjects: string, root: string, dir: string, kind: 'folder' | 'learnings' = 'folder'): string | undefined {
  const fix =
    kind === 'folder'
      ? `Topic folders must lie inside the folder of the config file (${root}), because PR previews build configs from untrusted branches; move the folder there and use a relative path.`
      : `Learnings stores must lie inside the folder of the config file (${root}), because PR previews build configs from untrusted branches; move the file there and use a relative path.`;
  if (path.isAbsolute(subjects)) return `${JSON.stringify(subjects)} is an absolute path. ${fix}`;
  if (isOutside(root, dir)) return `${JSON.stringify(subjects)} leaves the folder of the config file. ${fix}`;
  return undefined;
}
