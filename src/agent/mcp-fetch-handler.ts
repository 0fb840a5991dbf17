/**
 * The agent server over Streamable HTTP, on the Web `fetch` API (content/reference/cli/mcp.md,
 * "Over HTTP"): one function from a `Request` to a `Response`, stateless as the MCP SDK documents
 * it — a new server and transport per request, answered in JSON — so that any number of copies
 * can serve behind a load balancer, and a serverless host can run it as it is.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { KnowledgeAnswers } from '../kb/view/view.ts';
import { createAgentServer, type AgentServerOptions } from './mcp-server.ts';

/** A handler of MCP requests: what a `fetch`-style host (a serverless function, a worker) calls. */
export type McpFetchHandler = (request: Request) => Promise<Response>;

/** The largest request body read, in bytes: a tool call is a few hundred; larger bodies get 413. */
export const MAX_MCP_BODY_BYTES = 1_048_576;

/** Options of {@link createMcpFetchHandler}. */
export type McpFetchHandlerOptions = Omit<AgentServerOptions, 'instructions' | 'listChanged'> & {
  /** The largest request body read, in bytes (default {@link MAX_MCP_BODY_BYTES}). */
  maxBodyBytes?: number;
};

/**
 * A handler that answers each MCP request over `view`, whatever its path (the host routes).
 * POST carries the protocol; GET and DELETE, which a stateless server has no stream or session
 * for, get 405, as does any other method. Malformed JSON, a body over the bound or wrong headers
 * get the SDK's 4xx JSON-RPC errors; a failure of the server itself is a 500, logged. It never
 * rejects.
 */
export function createMcpFetchHandler(view: KnowledgeAnswers, options: McpFetchHandlerOptions): McpFetchHandler {
  const { maxBodyBytes = MAX_MCP_BODY_BYTES, ...serverOptions } = options;
  return async (request) => {
    if (request.method !== 'POST') {
      return jsonRpcError(405, -32000, `Method not allowed: this MCP server is stateless and answers POST only (got ${request.method}).`, { Allow: 'POST' });
    }
    try {
      // A site that cannot be read leaves the instructions out; the calls then say what failed.
      const instructions = await view.prompt().then(
        (text) => text ?? undefined,
        () => undefined,
      );
      const server = createAgentServer(view, { ...serverOptions, instructions });
      // No sessionIdGenerator: the SDK's stateless mode.
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true, maxRequestBodySize: maxBodyBytes });
      await server.connect(transport);
      try {
        return await transport.handleRequest(request);
      } finally {
        await server.close();
      }
    } catch (error) {
      options.log?.(`error: MCP request failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return jsonRpcError(500, -32603, 'Internal error: the server could not answer this request; its log says why.');
    }
  };
}

/** A JSON-RPC error without a request id, as the SDK's transport answers a request it refuses. */
function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}
