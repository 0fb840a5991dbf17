/**
 * `syllabus mcp`: the agent server on stdio, or with `--http` over Streamable HTTP at `/mcp`
 * (content/reference/cli/mcp.md). On stdio, stdout carries the protocol; every message goes to stderr.
 */
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
import { waitForStopSignal } from './stop-signal.ts';

export const MCP_HELP = `Usage: syllabus mcp [-k topic/glob]… [--profile NAME] [--config PATH… | --remote URL]
                    [--http [--host HOST] [--port N]]

Serves the knowledge base to agents over the Model Context Protocol, on stdin and stdout, or
with --http over Streamable HTTP at http://HOST:PORT/mcp:

  tool learn               the learn tool, with the same answers as "syllabus learn"
  tool find                the find tool, with the same answers as "syllabus find"
  prompt knowledge         the <knowledge> section, as "syllabus prompt" prints it
  resource syllabus://knowledge   the same section (text/plain)
  resource syllabus://index       the catalog, as /kb/index.json (application/json)
  resource syllabus://{topic}/{+slug}   each subject, as "syllabus learn <topic> <slug>" prints it

The initialize result's instructions are the <knowledge> section; both tools are read-only.
Edits to the config files or below a topic folder apply from the next request on, and the stdio
server tells the client that its tools and resources changed; a config that stops loading makes
every request answer with its error until it is fixed. With --remote, the site's catalog is
fetched again at most every 30 seconds.

Options:
${KNOWLEDGE_HELP}
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
      --http              serve over Streamable HTTP (stateless: any number of copies may
                          serve behind a load balancer) instead of stdio
      --host HOST         address to listen on with --http (default 127.0.0.1: this machine only)
      --port N            port to listen on with --http (default 3000; 0 picks a free one)
  -h, --help              show this help

An MCP client starts it, for example: {"command": "npx", "args": ["syllabus", "mcp", "--config", "kb.toml"]}.
It serves until stdin closes. Messages go to stderr: stdout is the protocol. With --http, it
serves until Ctrl-C (SIGINT) or SIGTERM and prints its address on stderr.

Exit codes: 0 after the client disconnects (or the HTTP server stops), 2 usage or configuration
error at start (a bad --host or --port included).`;

/** The port `mcp --http` listens on when none is given. */
export const DEFAULT_MCP_PORT = 3000;

const HTTP_OPTIONS = { http: { type: 'boolean' }, host: { type: 'string' }, port: { type: 'string' } } as const;

/** Runs `mcp` until the client disconnects; returns the exit code. */
export async function mcpCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS, ...REMOTE_OPTION, ...HTTP_OPTIONS }, 'mcp');
  if (values.help) {
    io.out(MCP_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`mcp takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'mcp');
  if (!values.http && (values.host !== undefined || values.port !== undefined)) {
    throw usageError(`--${values.host !== undefined ? 'host' : 'port'} needs --http: without it the server speaks on stdin and stdout. Add --http.`, 'mcp');
  }
  const port = Number(values.port ?? String(DEFAULT_MCP_PORT));
  if (values.http && (values.port?.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)) {
    throw usageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)}).`, 'mcp');
  }
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw usageError('--host must name an address, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface).', 'mcp');

  // Checked before the knowledge base is read: a host without streams has no stdio to serve on.
  if (!values.http && io.stdio === undefined) throw new CliError('mcp on stdio needs the streams of a process, and this host gives none. Run it with --http instead.', 2);
  const served = values.remote !== undefined ? await remoteView(values.remote, values, io) : await localView(values, io);
  if (values.http) return serveHttp(served, host, port, io);
  const stdio = io.stdio!;
  const [{ createAgentServer }, { StdioServerTransport }] = await Promise.all([import('../agent/mcp-server.ts'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const instructions = (await served.view.prompt().catch(() => null)) ?? undefined;
  const server = createAgentServer(served.view, { name: 'syllabus', version: packageVersion(), log: io.err, instructions, listChanged: served.onChange !== undefined });
  served.onChange?.(() => {
    // A client that has not finished connecting, or has gone, misses nothing it could use.
    void server.sendToolListChanged().catch(() => {});
    void server.sendResourceListChanged().catch(() => {});
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const stop = (): void => {
    void server.close();
  };
  // The client ends the session by closing stdin; a client gone without closing it breaks stdout.
  stdio.input.once('end', stop);
  stdio.output.once('error', stop);
  await server.connect(new StdioServerTransport(stdio.input, stdio.output));
  await closed;
  served.close();
  return 0;
}

/** How long the files must stay unchanged before the client is told they changed, in milliseconds. */
const CHANGE_SETTLE_MS = 100;

type McpValues = { config?: string[] | undefined; knowledge?: string[] | undefined; profile?: string | undefined };

/** The view the server answers from, and what to release when it stops. */
interface ServedView {
  view: KnowledgeAnswers;
  close(): void;
  /** Calls `listener` after the knowledge base changed (local files only). */
  onChange?: (listener: () => void) => void;
}

/** Serves `served` over HTTP until SIGINT or SIGTERM; a bad address is a usage error (exit 2). */
async function serveHttp(served: ServedView, host: string, port: number, io: CommandIo): Promise<number> {
  const [{ createMcpFetchHandler }, { serveMcpHttp, ListenError }] = await Promise.all([import('../agent/mcp-fetch-handler.ts'), import('../agent/mcp-http-server.ts')]);
  const handler = createMcpFetchHandler(served.view, { name: 'syllabus', version: packageVersion(), log: io.err });
  let server;
  try {
    server = await serveMcpHttp(handler, host, port, io.err);
  } catch (error) {
    served.close();
    if (error instanceof ListenError) throw usageError(error.message, 'mcp');
    throw error;
  }
  const stopped = waitForStopSignal();
  io.err(`Serving MCP at ${server.url} (Ctrl-C stops)`);
  await stopped;
  await server.close();
  served.close();
  return 0;
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
  const listeners: (() => void)[] = [];
  let settling: NodeJS.Timeout | undefined;
  const view = createWatchedView(kb.config, {
    // One save makes several watcher events: listeners hear of it once things are quiet.
    changed: () => {
      clearTimeout(settling);
      settling = setTimeout(() => {
        for (const listener of listeners) listener();
      }, CHANGE_SETTLE_MS);
    },
    request: requestOf(values),
    memo: loadCatalogMemo(cache.catalogMemo),
    summaries: { stamp: () => llmSummariesStamp(cache.llmSummaries), load: () => loadLlmSummaries(cache.llmSummaries) },
    reloadConfig: () => configForCommand(values.config, io),
    describeError: errorText,
    formatDiagnostic: (diagnostic) => formatDiagnostic(diagnostic, io.cwd),
    warn: (diagnostic) => io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`),
    watchFailed: (error) => io.err(`warning: cannot watch the knowledge base for changes (${(error as Error).message}); it is read again at every request instead.`),
  });
  return {
    view,
    close: () => {
      clearTimeout(settling);
      view.close();
    },
    onChange: (listener) => void listeners.push(listener),
  };
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
