/** `syllabus mcp`: the agent server on stdio (SPEC 9). stdout carries the protocol; every message goes to stderr. */
import path from 'node:path';
import type { KnowledgeSource } from '../agent/knowledge-source.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { loadCatalogMemo } from '../build/catalog-memo.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { formatDiagnostic } from '../kb/diagnostics/diagnostics.ts';
import { openForCommand } from './knowledge-base-options.ts';
import { llmSummariesStamp, loadLlmSummaries } from '../build/llm-summaries.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS, REMOTE_HELP, REMOTE_OPTION } from './knowledge-flags.ts';
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

  const source = values.remote !== undefined ? await remoteSource(values.remote, values, io) : await localSource(values, io);
  const [{ createAgentServer }, { StdioServerTransport }] = await Promise.all([import('../agent/mcp-server.ts'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
  const server = createAgentServer(source, { name: 'syllabus', version: packageVersion(), log: io.err });
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
  source.close();
  return 0;
}

type McpValues = { config?: string[] | undefined; knowledge?: string[] | undefined; profile?: string | undefined };

/**
 * The source over local files. Configuration errors stop the server before it starts (exit 2), as
 * for every command. The build's memo of tokens and summaries (`.syllabus-cache/` beside the first
 * config file), when there is one, spares the catalog `find` reads most of its work; the LLM
 * summaries the build cached there are read again whenever a build has written them.
 */
async function localSource(values: McpValues, io: CommandIo): Promise<KnowledgeSource> {
  const config = await configWithKnowledge(values, io, 'mcp');
  openForCommand(config, io);
  const { createLocalSource } = await import('../agent/local-source.ts');
  const cache = cacheFolder(defaultCacheDir(path.resolve(io.cwd, config.files[0]!)));
  return createLocalSource(config, {
    memo: loadCatalogMemo(cache.catalogMemo),
    summaries: { stamp: () => llmSummariesStamp(cache.llmSummaries), load: () => loadLlmSummaries(cache.llmSummaries) },
    reloadConfig: () => configWithKnowledge(values, io, 'mcp'),
    describeError: errorText,
    formatDiagnostic: (diagnostic) => formatDiagnostic(diagnostic, io.cwd),
    warn: (diagnostic) => io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`),
    watchFailed: (error) => io.err(`warning: cannot watch the knowledge base for changes (${(error as Error).message}); it is read again at every request instead.`),
  });
}

/**
 * The source over a published site. Without a profile or -k values, the site is not read before
 * the first request: one that is down at start answers with errors until it is back. With them,
 * the catalog is read at start to check them (a site that cannot be read then stops the server,
 * exit 1).
 */
async function remoteSource(url: string, values: McpValues, io: CommandIo): Promise<KnowledgeSource> {
  if (values.config !== undefined && values.config.length > 0) {
    throw usageError('--remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.', 'mcp');
  }
  const [{ createRemoteSource }, { RemoteError }] = await Promise.all([import('../remote/remote-source.ts'), import('../remote/fetch-json.ts')]);
  try {
    if (values.profile === undefined && (values.knowledge ?? []).length === 0) return createRemoteSource(url, { env: io.env });
    // Checking a profile and -k values needs the catalog: read it now, so a mistake stops the server at start.
    const probe = createRemoteSource(url, { env: io.env });
    const index = await probe.index().catch((error: unknown) => {
      throw error instanceof RemoteError ? new CliError(error.message, 1) : error;
    });
    probe.close();
    const { remoteKnowledgeFlags } = await import('./remote-flags.ts');
    const { profile, extra } = remoteKnowledgeFlags(values, index, 'mcp');
    return createRemoteSource(url, { env: io.env, profile, extra });
  } catch (error) {
    if (error instanceof RemoteError) throw usageError(error.message, 'mcp');
    throw error;
  }
}

/** The text of a configuration or usage error, as the CLI prints it, without the `error: ` prefixes and usage hints. */
function errorText(error: unknown): string {
  if (!(error instanceof CliError)) return error instanceof Error ? error.message : String(error);
  const further = error.details.filter((line) => line.startsWith('error: ')).map((line) => line.slice('error: '.length));
  return [error.message, ...further].join('\n');
}

