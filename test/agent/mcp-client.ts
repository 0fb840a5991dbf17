/**
 * Starts `syllabus mcp` and talks to it with the SDK's own client: the real bin as a child process,
 * or the command line's own `main` in this process, speaking over a pair of in-memory streams.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { BIN, ROOT, runCliInProcess, userEnv } from '../helpers/run-cli.ts';

/** What every tool declares about itself (content/reference/cli/mcp.md): read-only, closed world. */
export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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
  annotations: READ_ONLY_ANNOTATIONS,
};

/** A tool result with this text. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** An error result with this message. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * What the CLI's answer to `args` is as a tool result: stdout (exit 0), or the `error: ` message
 * (exit 1). The command line runs in this process (its `main`; test/cli/fixtures.test.ts proves the
 * bin prints what `main` does).
 */
export async function cliResult(args: readonly string[]): Promise<CallToolResult> {
  const run = await runCliInProcess(args);
  if (run.code === 0) {
    expect(run.stderr).toBe('');
    return textResult(run.stdout.replace(/\n$/, ''));
  }
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^error: [^\n]*\n$/);
  return errorResult(run.stderr.slice('error: '.length, -1));
}

/** `schema --tool` output as MCP lists it (`parameters` served as `inputSchema`, annotated read-only), then the find tool. */
export async function listedTools(args: readonly string[]): Promise<unknown[]> {
  const run = await runCliInProcess(['schema', '--tool', ...args]);
  expect(run.code).toBe(0);
  const definition = JSON.parse(run.stdout) as { name: string; description: string; parameters: unknown } | null;
  return definition
    ? [{ name: definition.name, description: definition.description, inputSchema: definition.parameters, annotations: READ_ONLY_ANNOTATIONS }, FIND_TOOL]
    : [FIND_TOOL];
}

/** `syllabus prompt` output, without the newline the CLI adds. */
export async function cliPrompt(args: readonly string[]): Promise<string> {
  const run = await runCliInProcess(['prompt', ...args]);
  expect(run.code).toBe(0);
  return run.stdout.replace(/\n$/, '');
}

/** A running server and a connected client. */
export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool with any arguments (the SDK's types allow only objects; the server must not care). */
  call(name: string, args?: unknown): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Runs `syllabus mcp <args>` (the real bin) in the project folder and connects a client to it. */
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

/**
 * The client's side of a stdio server whose stdin is `output` and stdout is `input`: what the SDK's
 * StdioClientTransport does over a child's pipes, over streams of this process.
 */
class StreamClientTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private closed = false;

  private readonly input: Readable;
  private readonly output: Writable;

  constructor(input: Readable, output: Writable) {
    this.input = input;
    this.output = output;
  }

  async start(): Promise<void> {
    this.input.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
    this.input.on('end', () => this.end());
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.output.write(serializeMessage(message));
  }

  async close(): Promise<void> {
    this.output.end();
    this.end();
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * Runs `syllabus mcp <args>` as {@link startMcp} does, through the command line's own `main` in this
 * process (src/cli/main.ts, given the folder, the environment of `userEnv` and two streams for
 * stdin and stdout): the same command without the cost of starting a process. The tests of
 * test/agent/mcp.test.ts "starting and stopping" run the bin itself. Closing the session closes
 * the server's stdin, and waits for the command to end; it must end with exit 0.
 */
export async function startMcpInProcess(args: readonly string[], options: { cwd?: string } = {}): Promise<McpSession> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  let stderr = '';
  let stdout = '';
  const exit = main(['mcp', ...args], {
    cwd: options.cwd ?? ROOT,
    env: userEnv(),
    out: (text) => {
      stdout += text;
    },
    err: (line) => {
      stderr += `${line}\n`;
    },
    stdio: { input: toServer, output: toClient },
  });
  const client = new Client({ name: 'syllabus-test', version: '0.0.0' });
  // A command that stops before it serves (a configuration error) never answers the handshake.
  const stopped = exit.then((code) => {
    throw new Error(`syllabus mcp ${args.join(' ')} ended (exit ${code}) before it served:\n${stderr}`);
  });
  await Promise.race([client.connect(new StreamClientTransport(toClient, toServer)), stopped]);
  stopped.catch(() => undefined);
  return {
    client,
    stderr: () => stderr,
    call: async (name, callArgs) => (await client.callTool({ name, arguments: callArgs } as { name: string; arguments: Record<string, unknown> })) as CallToolResult,
    close: async () => {
      await client.close();
      const code = await exit;
      expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    },
  };
}
