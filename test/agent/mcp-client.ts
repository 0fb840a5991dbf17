/** Starts the real `syllabus mcp` bin as a child process and talks to it with the SDK's own client. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN, ROOT, userEnv } from '../helpers/run-cli.ts';

/** The find tool as the server lists it (content/reference/cli/mcp.md), written out whole. */
export const FIND_TOOL = {
  name: 'find',
  description:
    'Find the subjects of the knowledge base that match a query, best first. A subject whose title or name is the query comes first; the others rank by how well the query\'s words (stemmed) match the subject\'s title, name, summary, headings and text (BM25F). Each line of the result is "- <topic>/<slug> (**<title>**): <summary>"; load a subject with the learn tool: {"topic": "<topic>", "subjects": "<slug>"}. An empty result: nothing matched.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'The words to look for, or the exact title or name of a subject.' },
      limit: { type: 'integer', minimum: 1, description: 'The most subjects to return (default 5).' },
      topic: { type: 'string', description: 'Search only this topic (its ID or title).' },
    },
    required: ['query'],
    additionalProperties: false,
  },
};

/** A running server and a connected client. */
export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool with any arguments (the SDK's types allow only objects; the server must not care). */
  call(name: string, args?: unknown): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Runs `syllabus mcp <args>` in the project folder and connects a client to it. */
export function startMcp(args: readonly string[]): Promise<McpSession> {
  return startServer(process.execPath, [BIN, 'mcp', ...args]);
}

/** Runs a server command as an MCP client configuration states it, in `cwd` (default: the project), and connects. */
export async function startServer(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command,
    args: [...args],
    cwd: options.cwd ?? ROOT,
    env: userEnv(),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'syllabus-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs } as { name: string; arguments: Record<string, unknown> })) as CallToolResult,
    close: () => client.close(),
  };
}
