/**
 * `--remote`: answering from a published site instead of local files. Loaded only by a command
 * given `--remote`, so that reading local files never loads the remote client.
 */
import type { KnowledgeRequest } from '../kb/knowledge/extension.ts';
import type { KnowledgeView } from '../kb/view/view.ts';
import { RemoteError, timeoutFromEnv } from '../remote/fetch-json.ts';
import { openRemoteSite, siteRoot } from '../remote/remote-site.ts';
import { createRemoteView } from '../remote/remote-view.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';

/**
 * The knowledge view of the site a command reads with `--remote`, with `request` applied (checked
 * against the site's catalog, fetched for it). `--remote` with `--config`, a URL that is not
 * http(s), a malformed SYLLABUS_REMOTE_TIMEOUT_MS, an unknown profile or topic and a pattern that
 * does not compile are usage errors (exit 2); a site that cannot be read, there or at any call of
 * the view, is the command's error (exit 1).
 */
export async function remoteViewFor(values: { config?: string[] | undefined; remote: string }, io: CommandIo, command: string, request: KnowledgeRequest): Promise<KnowledgeView> {
  if (values.config !== undefined && values.config.length > 0) {
    throw usageError('--remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.', command);
  }
  const root = siteRoot(values.remote);
  if (!root.ok) throw usageError(root.message, command);
  const timeout = timeoutFromEnv(io.env);
  if (!timeout.ok) throw usageError(timeout.message, command);
  const view = failingAsCommand(createRemoteView(openRemoteSite(root.root, { timeoutMs: timeout.value })));
  const extended = await view.extend(request);
  if (!extended.ok) throw usageError(extended.message, command);
  return extended.view;
}

/** Runs `work`; a site that cannot be read becomes the command's error (exit 1: a failed tool, not a usage error). */
async function withRemoteErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RemoteError) throw new CliError(error.message, 1);
    throw error;
  }
}

/** `view`, each of whose calls turns a site that cannot be read into the command's error. */
function failingAsCommand(view: KnowledgeView): KnowledgeView {
  return {
    prompt: () => withRemoteErrors(() => view.prompt()),
    tool: () => withRemoteErrors(() => view.tool()),
    tokens: () => withRemoteErrors(() => view.tokens()),
    learn: (args) => withRemoteErrors(() => view.learn(args)),
    listing: (topic) => withRemoteErrors(() => view.listing(topic)),
    find: (args) => withRemoteErrors(() => view.find(args)),
    index: () => withRemoteErrors(() => view.index()),
    extend: async (request) => {
      const extended = await withRemoteErrors(() => view.extend(request));
      return extended.ok ? { ok: true, view: failingAsCommand(extended.view) } : extended;
    },
  };
}
