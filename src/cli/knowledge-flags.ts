/**
 * The knowledge view a command answers from: the local files of `--config`, or with `--remote` a
 * published site, with `-k` and `--profile` pre-loading more subjects (content/agents/preloading.md).
 * Shared by every command whose answer depends on what is learned — `prompt`, `learn`,
 * `schema --tool` and `mcp` — so that an agent given a prompt built with them gets a `learn` tool
 * that agrees with it.
 */
import type { KnowledgeRequest } from '../kb/knowledge/extension.ts';
import { createLocalView, type LocalViewOptions } from '../kb/view/local-view.ts';
import type { KnowledgeView } from '../kb/view/view.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { openLocalKnowledgeBase } from '../url-sources/local-sources.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, failOnConfigErrors, warnContentErrors } from './knowledge-base-options.ts';

/** The options, for `parseCommandArgs`. */
export const KNOWLEDGE_OPTIONS = {
  knowledge: { type: 'string', short: 'k', multiple: true },
  profile: { type: 'string', short: 'p' },
} as const;

/** Help lines of the options. */
export const KNOWLEDGE_HELP = `  -k, --knowledge VALUE   pre-load more subjects: "topic/glob" appends glob to the
                          topic's learned patterns; "topic" alone means topic/** (repeatable)
  -p, --profile NAME      pre-load the subjects of [profile.NAME] (before any -k)`;

/** The `--remote` option, for `parseCommandArgs`. */
export const REMOTE_OPTION = {
  remote: { type: 'string' },
} as const;

/** Help lines of `--remote`. */
export const REMOTE_HELP = `      --remote URL        read the published site at URL (its root, with any base path)
                          instead of local files: the same answers (not with --config)`;

/** The values of the options a command may take. */
export interface KnowledgeValues {
  config?: string[] | undefined;
  knowledge?: string[] | undefined;
  profile?: string | undefined;
  remote?: string | undefined;
}

/** The `--profile` and `-k` values of a command, as a request to pre-load more. */
export function requestOf(values: KnowledgeValues): KnowledgeRequest {
  return { profile: values.profile, knowledge: values.knowledge };
}

/** The view a command answers from, and how to report what reading met. */
export interface CommandView {
  view: KnowledgeView;
  /** Prints the content errors met so far as warnings (local files; a site has none to report). */
  reportContentErrors: () => void;
}

/**
 * The view of a command, with `request` (default: its `--profile` and `-k`) applied; `local` are
 * the options of a view of local files. A site is read only with `--remote`, and its client loaded
 * only then. Configuration and usage errors throw (exit 2), a site that cannot be read too (exit
 * 1), from here and from every call of the view.
 */
export async function viewForCommand(
  values: KnowledgeValues,
  io: CommandIo,
  command: string,
  request: KnowledgeRequest = requestOf(values),
  local: LocalViewOptions = {},
): Promise<CommandView> {
  if (values.remote !== undefined) {
    const remote = await import('./remote-flags.ts');
    return { view: await remote.remoteViewFor({ ...values, remote: values.remote }, io, command, request), reportContentErrors: () => {} };
  }
  const { view, kb } = await localViewFor(values, io, command, request, local);
  return { view, reportContentErrors: () => warnContentErrors(kb, io) };
}

/**
 * The view of the local files of `--config` (or `SYLLABUS_CONFIG`), with `request` applied. Errors
 * come in the order a reader fixes them: the config's, then the request's (exit 2 both), then a
 * topic folder leaving the config's folder (exit 2).
 */
export async function localViewFor(
  values: KnowledgeValues,
  io: CommandIo,
  command: string,
  request: KnowledgeRequest = requestOf(values),
  options: LocalViewOptions = {},
): Promise<{ view: KnowledgeView; kb: KnowledgeBase }> {
  const { kb } = openLocalKnowledgeBase(await configForCommand(values.config, io));
  const extended = await createLocalView(kb, options).extend(request);
  if (!extended.ok) throw usageError(extended.message, command);
  failOnConfigErrors(kb.diagnostics(), io);
  return { view: extended.view, kb };
}
