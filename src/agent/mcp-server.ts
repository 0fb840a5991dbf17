/**
 * The agent server (content/reference/cli/mcp.md): a knowledge view served over the Model Context
 * Protocol. The tools `learn` and `find`, the prompt `knowledge` and the resources
 * `syllabus://knowledge` and `syllabus://index` each translate a request into one call of the view
 * and its answer into an MCP result.
 *
 * The SDK's low-level `Server` is used rather than `McpServer`, which would list a schema derived
 * from Zod instead of the fixed one of content/agents/learn-tool.md, and answer wrong arguments
 * with its own texts instead of ours. (The SDK marks `Server` deprecated for ordinary servers
 * and keeps it for cases like this one.)
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ListResourcesResult,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serializeEndpoint } from '../kb/publish/endpoints.ts';
import { FIND_DEFINITION, renderFindResults } from '../kb/view/find.ts';
import type { Outcome } from '../kb/knowledge/learn.ts';
import type { KnowledgeAnswers } from '../kb/view/view.ts';

/** The prompt that holds the `<knowledge>` section. */
export const KNOWLEDGE_PROMPT = 'knowledge';
/** The resource that holds the `<knowledge>` section (text/plain). */
export const KNOWLEDGE_URI = 'syllabus://knowledge';
/** The resource that holds the catalog, as `/kb/index.json` (application/json). */
export const INDEX_URI = 'syllabus://index';

const KNOWLEDGE_DESCRIPTION =
  'The <knowledge> section of the system prompt: the pre-loaded subjects and the topics the learn tool can load. Empty when the knowledge base has nothing to offer.';

const RESOURCES: ListResourcesResult['resources'] = [
  { uri: KNOWLEDGE_URI, name: 'knowledge', title: 'The <knowledge> section', description: KNOWLEDGE_DESCRIPTION, mimeType: 'text/plain' },
  {
    uri: INDEX_URI,
    name: 'index',
    title: 'The catalog',
    description: 'Every topic and listed subject with its summary, size, tokens and addresses, as /kb/index.json of the published site.',
    mimeType: 'application/json',
  },
];

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/**
 * `tools/call` with any `arguments`. The SDK's `Server` checks calls against its own schema
 * (arguments: an object) and answers anything else with a protocol error before a handler runs;
 * the tools answer wrong arguments of every kind with their own error results instead, which tell
 * a model how to call them.
 */
const ToolCallRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown() });

/** Options of {@link createAgentServer}. */
export interface AgentServerOptions {
  /** The server's name and version, as the client sees them. */
  name: string;
  version: string;
  /** Writes a message line for the operator (stderr: stdout carries the protocol). */
  log?: (line: string) => void;
}

/** An MCP server over a knowledge view; connect it to a transport to serve. */
export function createAgentServer(view: KnowledgeAnswers, options: AgentServerOptions): Server {
  const server = new Server({ name: options.name, version: options.version }, { capabilities: { tools: {}, prompts: {}, resources: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tool = await view.tool();
    // find is always offered: learned subjects, which leave learn unlisted, can still be found.
    const find = { name: FIND_DEFINITION.name, description: FIND_DEFINITION.description, inputSchema: FIND_DEFINITION.parameters };
    return { tools: tool ? [{ name: tool.name, description: tool.description, inputSchema: tool.parameters }, find] : [find] };
  });

  Protocol.prototype.setRequestHandler.call(server, ToolCallRequestSchema, async (request): Promise<CallToolResult> => {
    const params = (request as { params?: { name?: unknown; arguments?: unknown } | null }).params;
    if (typeof params !== 'object' || params === null || typeof params.name !== 'string') {
      throw protocolError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be the name of a tool ("learn" or "find").');
    }
    const { name, arguments: args } = params;
    if (name !== 'learn' && name !== 'find') return errorResult(`Unknown tool ${JSON.stringify(name)}. The tools are "learn" and "find".`);
    try {
      const outcome = await (name === 'learn' ? view.learn(args) : findText(view, args));
      return outcome.ok ? { content: [{ type: 'text', text: outcome.text }] } : errorResult(outcome.message);
    } catch (error) {
      options.log?.(`error: ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      return errorResult(error instanceof Error ? error.message : String(error));
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: [{ name: KNOWLEDGE_PROMPT, title: 'Knowledge', description: KNOWLEDGE_DESCRIPTION }],
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request): Promise<GetPromptResult> => {
    const { name } = request.params;
    if (name !== KNOWLEDGE_PROMPT) {
      throw protocolError(ErrorCode.InvalidParams, `Unknown prompt ${JSON.stringify(name)}. The only prompt is "${KNOWLEDGE_PROMPT}".`);
    }
    const text = (await view.prompt()) ?? '';
    return { description: KNOWLEDGE_DESCRIPTION, messages: [{ role: 'user', content: { type: 'text', text } }] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: RESOURCES }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    if (uri === KNOWLEDGE_URI) return { contents: [{ uri, mimeType: 'text/plain', text: (await view.prompt()) ?? '' }] };
    if (uri === INDEX_URI) return { contents: [{ uri, mimeType: 'application/json', text: serializeEndpoint(await view.index()) }] };
    throw protocolError(RESOURCE_NOT_FOUND, `Unknown resource ${JSON.stringify(uri)}. Resources: ${RESOURCES.map((r) => r.uri).join(', ')}.`);
  });

  return server;
}

/**
 * An error the SDK answers as a JSON-RPC error with this code and message. (Not `McpError`: its
 * message starts with "MCP error <code>: ", which the client then adds a second time.)
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** `find`'s answer as the tool returns it: the text of the subjects found (`''` for none). */
async function findText(view: KnowledgeAnswers, args: unknown): Promise<Outcome> {
  const found = await view.find(args);
  return found.ok ? { ok: true, text: renderFindResults(found.results) } : found;
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
