/**
 * `--remote`: reading the knowledge from a published site instead of local files. Loaded only by
 * a command given `--remote`, so that reading local files never loads the remote client.
 */
import type { SiteIndex } from '../kb/publish/endpoint-schemas.ts';
import { RemoteError, timeoutFromEnv } from '../remote/fetch-json.ts';
import { remoteKnowledge, type ExtraKnowledge, type RemoteKnowledge } from '../remote/remote-knowledge.ts';
import { openRemoteSite, siteRoot, type RemoteSite } from '../remote/remote-site.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { checkKnowledgeValue } from './knowledge-flags.ts';

/** What a command asks of the knowledge base: local files, or a published site. */
interface SourceFlags {
  config?: string[] | undefined;
  remote?: string | undefined;
}

/**
 * The published site a command reads with `--remote`. `--remote` with `--config`,
 * a URL that is not http(s) and a malformed SYLLABUS_REMOTE_TIMEOUT_MS are usage errors (exit 2).
 */
export function remoteSiteFor(values: SourceFlags & { remote: string }, io: CommandIo, command: string): RemoteSite {
  if (values.config !== undefined && values.config.length > 0) {
    throw usageError('--remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.', command);
  }
  const root = siteRoot(values.remote);
  if (!root.ok) throw usageError(root.message, command);
  const timeout = timeoutFromEnv(io.env);
  if (!timeout.ok) throw usageError(timeout.message, command);
  return openRemoteSite(root.root, { timeoutMs: timeout.value });
}

/**
 * The `--profile` and `-k` values of a command, checked against a site's catalog: an unknown
 * profile or topic, or a pattern that does not compile, is a usage error (exit 2).
 */
export function remoteKnowledgeFlags(
  values: { knowledge?: string[] | undefined; profile?: string | undefined },
  index: SiteIndex,
  command: string,
): { profile: string | undefined; extra: ExtraKnowledge[] } {
  if (values.profile !== undefined && !Object.hasOwn(index.knowledge.profiles, values.profile)) {
    const names = Object.keys(index.knowledge.profiles);
    throw usageError(
      `Unknown profile ${JSON.stringify(values.profile)}. ${names.length > 0 ? `Valid profiles: ${names.join(', ')}.` : 'The site has no profiles.'}`,
      command,
    );
  }
  const topics = index.topics.map((t) => ({ id: t.id, enable: true }));
  const extra = (values.knowledge ?? []).map((value) => checkKnowledgeValue(value, '-k', topics, command));
  return { profile: values.profile, extra };
}

/** Runs `work`; a site that cannot be read becomes the command's error (exit 1: a failed tool, not a usage error). */
export async function withRemoteErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RemoteError) throw new CliError(error.message, 1);
    throw error;
  }
}

/**
 * The section and the tool of a site with `--profile` and `-k` applied (also for `schema --tool`).
 * The catalog is fetched only when they need it.
 */
export async function readRemoteKnowledge(
  site: RemoteSite,
  values: { knowledge?: string[] | undefined; profile?: string | undefined },
  command: string,
): Promise<RemoteKnowledge> {
  if (values.profile === undefined && (values.knowledge ?? []).length === 0) return remoteKnowledge(site, await site.knowledge());
  const index = await site.index();
  const { profile, extra } = remoteKnowledgeFlags(values, index, command);
  return remoteKnowledge(site, await site.knowledge(profile), { index, extra });
}
