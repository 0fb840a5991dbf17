/** `syllabus mcp`: the agent server on stdio (content/reference/cli/mcp.md). stdout carries the protocol; every message goes to stderr. */
import path from 'node:path';
import type { KnowledgeAnswers } from '../kb/view/view.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { loadCatalogMemo } from '../build/catalog-memo.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { formatDiagnostic } from '../kb/diagnostics/diagnostics.ts';
import { configForCommand } from './knowledge-base-options.ts';
import { llmSummariesStamp, loadLlmSummaries } from '../build/llm-summaries.ts';
import { KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, localViewFor, REMOTE_HELP, REMOTE_OPTION, requestOf } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { packageVersion } from '../build/package-info.ts';

export const MCP_HELP = `Usage: syllabus mcp [-k topic/glob]… [--profile NAME] [--config PATH… | --remote URL]

Serves the knowledge base to agents over the Model Context Protocol, on stdin and stdout:

  tool learn               the learn tool, with the same answers as "syllabus learn"
  tool find                the find tool, with the same answers as "syllabus find"
  prompt knowledge         the <knowledge> section, as "syllabus prompt" prints it
  resource syllabus://knowledge   the same section (text/plain)
  resource syllabus://index       the catalog, as /kb/index.json (application/json)

Edits to the config files or below a topic folder apply from the next request on; a config that
stops loading makes every request answer with its error until it is fixed. With --remote, the
site's catalog is fetched again at most every 30 seconds.

Options:
${KNOWLEDGE_HELP}
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
  -h, --help              show this help

An MCP client starts it, for example: {"command": "npx", "args": ["syllabus", "mcp", "--config", "kb.toml"]}.
It serves until stdin closes. Messages go to stderr: stdout is the protocol.

Exit codes: 0 after the client disconnects, 2 usage or configuration error at start.`;

/** Runs `mcp` until the client disconnects; returns the exit code. */
export async function mcpCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, ...REMOTE_OPTION }, 'mcp');
  if (values.help) {
    io.out(MCP_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`mcp takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'mcp');

  const served = values.remote !== undefined ? await remoteView(values.remote, values, io) : await localView(values, io);
  const [{ createAgentServer }, { StdioServerTransport }] = await Promise.all([import('../agent/mcp-server.ts'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const server = createAgentServer(served.view, { name: 'syllabus', version: packageVersion(), log: io.err });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const stop = (): void => {
    void server.close();
  };
  // The client ends the session by closing stdin; a client gone without closing it breaks stdout.
  process.stdin.once('end', stop);
  process.stdout.once('error', stop);
  await server.connect(new StdioServerTransport());
  await closed;
  served.close();
  return 0;
}

type McpValues = { config?: string[] | undefined; knowledge?: string[] | undefined; profile?: string | undefined };

/** The view the server answers from, and what to release when it stops. */
interface ServedView {
  view: KnowledgeAnswers;
  close(): void;
}

/**
 * The view of local files, followed as they change. Configuration errors, and an unknown profile
 * or topic in `-k`, stop the server before it starts (exit 2), as for every command. The build's
 * memo of tokens and summaries (`.syllabus-cache/` beside the first config file), when there is
 * one, spares the catalog `find` reads most of its work; the LLM summaries the build cached there
 * are read again whenever a build has written them.
 */
async function localView(values: McpValues, io: CommandIo): Promise<ServedView> {
  const { kb } = await localViewFor(values, io, 'mcp');
  const { createWatchedView } = await import('../agent/watched-view.ts');
  const cache = cacheFolder(defaultCacheDir(path.resolve(io.cwd, kb.config.files[0]!)));
  const view = createWatchedView(kb.config, {
    request: requestOf(values),
    memo: loadCatalogMemo(cache.catalogMemo),
    summaries: { stamp: () => llmSummariesStamp(cache.llmSummaries), load: () => loadLlmSummaries(cache.llmSummaries) },
    reloadConfig: () => configForCommand(values.config, io),
    describeError: errorText,
    formatDiagnostic: (diagnostic) => formatDiagnostic(diagnostic, io.cwd),
    warn: (diagnostic) => io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`),
    watchFailed: (error) => io.err(`warning: cannot watch the knowledge base for changes (${(error as Error).message}); it is read again at every request instead.`),
  });
  return { view, close: () => view.close() };
}

/**
 * The view of a published site. Without a profile or -k values, the site is not read before the
 * first request: one that is down at start answers with errors until it is back. With them, the
 * catalog is read at start to check them (a site that cannot be read then stops the server,
 * exit 1).
 */
async function remoteView(url: string, values: McpValues, io: CommandIo): Promise<ServedView> {
  if (values.config !== undefined && values.config.length > 0) {
    throw usageError('--remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.', 'mcp');
  }
  const [{ openRemoteView }, { RemoteError }] = await Promise.all([import('../remote/remote-view.ts'), import('../remote/fetch-json.ts')]);
  let view;
  try {
    view = openRemoteView(url, { env: io.env });
  } catch (error) {
    if (error instanceof RemoteError) throw usageError(error.message, 'mcp');
    throw error;
  }
  const extended = await view.extend(requestOf(values)).catch((error: unknown) => {
    throw error instanceof RemoteError ? new CliError(error.message, 1) : error;
  });
  if (!extended.ok) throw usageError(extended.message, 'mcp');
  return { view: extended.view, close: () => {} };
}

/** The text of a configuration or usage error, as the CLI prints it, without the `error: ` prefixes and usage hints. */
function errorText(error: unknown): string {
  if (!(error instanceof CliError)) return error instanceof Error ? error.message : String(error);
  const further = error.details.filter((line) => line.startsWith('error: ')).map((line) => line.slice('error: '.length));
  return [error.message, ...further].join('\n');
}
