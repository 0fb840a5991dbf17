/** `syllabus mcp`: the agent server on stdio (SPEC 9). stdout carries the protocol; every message goes to stderr. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { formatDiagnostic, openForCommand } from './knowledge-base-options.ts';
import { configWithKnowledge, KNOWLEDGE_HELP, KNOWLEDGE_OPTIONS } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { projectRoot } from './project-root.ts';

export const MCP_HELP = `Usage: syllabus mcp [-k topic/glob]… [--profile NAME] [--config PATH]…

Serves the knowledge base to agents over the Model Context Protocol, on stdin and stdout:

  tool learn               the learn tool, with the same answers as "syllabus learn"
  prompt knowledge         the <knowledge> section, as "syllabus prompt" prints it
  resource syllabus://knowledge   the same section (text/plain)
  resource syllabus://index       the catalog, as /kb/index.json (application/json)

Edits to the config files or below a topic folder apply from the next request on; a config that
stops loading makes every request answer with its error until it is fixed.

Options:
${KNOWLEDGE_HELP}
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -h, --help              show this help

An MCP client starts it, for example: {"command": "npx", "args": ["syllabus", "mcp", "--config", "kb.toml"]}.
It serves until stdin closes. Messages go to stderr: stdout is the protocol.

Exit codes: 0 after the client disconnects, 2 usage or configuration error at start.`;

/** Runs `mcp` until the client disconnects; returns the exit code. */
export async function mcpCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, ...KNOWLEDGE_OPTIONS }, 'mcp');
  if (values.help) {
    io.out(MCP_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`mcp takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'mcp');

  // Configuration errors stop the server before it starts (exit 2), as for every command.
  const config = configWithKnowledge(values, io, 'mcp');
  openForCommand(config, io);

  const [{ createLocalSource }, { createAgentServer }, { StdioServerTransport }] = await Promise.all([
    import('../agent/local-source.ts'),
    import('../agent/mcp-server.ts'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const source = createLocalSource(config, {
    reloadConfig: () => configWithKnowledge(values, io, 'mcp'),
    describeError: errorText,
    formatDiagnostic: (diagnostic) => formatDiagnostic(diagnostic, io.cwd),
    warn: (diagnostic) => io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`),
    watchFailed: (error) => io.err(`warning: cannot watch the knowledge base for changes (${(error as Error).message}); it is read again at every request instead.`),
  });

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

/** The text of a configuration or usage error, as the CLI prints it, without the `error: ` prefixes and usage hints. */
function errorText(error: unknown): string {
  if (!(error instanceof CliError)) return error instanceof Error ? error.message : String(error);
  const further = error.details.filter((line) => line.startsWith('error: ')).map((line) => line.slice('error: '.length));
  return [error.message, ...further].join('\n');
}

/** Syllabus's version, from its package.json. */
function packageVersion(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
