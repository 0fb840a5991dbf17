/**
 * The agent server (content/reference/cli/mcp.md): a knowledge view served over the Model Context
 * Protocol. The tools `learn` and `find`, the prompt `knowledge`, the resources
 * `syllabus://knowledge`, `syllabus://index` and one per listed subject (`syllabus://<topic>/<slug>`,
 * also offered as a resource template) each translate a request into one call of the view and its
 * answer into an MCP result. The same server answers on stdio and, one per request, over HTTP.
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
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type GetPromptResult,
  type ListResourcesResult,
  type ListResourceTemplatesResult,
  type ReadResourceResult,
  type Tool,
  type ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serializeEndpoint } from '../kb/publish/endpoints.ts';
import { callAgentTool, listAgentTools } from '../kb/view/tool-call.ts';
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

/** The URI template of a subject's resource: its topic id, then its slug with `/` between segments. */
export const SUBJECT_URI_TEMPLATE = 'syllabus://{topic}/{+slug}';

const SUBJECT_DESCRIPTION = 'A subject of the knowledge base, as the learn tool loads it by its exact slug. Hidden subjects are listed nowhere but can be read by their URI.';

const RESOURCE_TEMPLATES: ListResourceTemplatesResult['resourceTemplates'] = [
  { uriTemplate: SUBJECT_URI_TEMPLATE, name: 'subject', title: 'A subject', description: SUBJECT_DESCRIPTION, mimeType: 'text/markdown' },
];

/**
 * What every tool declares about itself: both only read the knowledge base, change nothing, give
 * the same answer to the same call while it stays as it is, and reach nothing beyond it.
 */
const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

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
  /** The `instructions` of the initialize result: the `<knowledge>` section (none when there is none). */
  instructions?: string | undefined;
  /**
   * Whether the server tells the client when the tools and resources change (it declares
   * `listChanged`; the host sends the notifications). Default false: a server over HTTP answers
   * one request and cannot.
   */
  listChanged?: boolean;
}

/** The `uri` of a subject's resource (content/reference/cli/mcp.md): each slug segment percent-encoded. */
export function subjectUri(topic: string, slug: string): string {
  return `syllabus://${encodeURIComponent(topic)}/${slug.split('/').map(encodeURIComponent).join('/')}`;
}

/** The topic and slug a subject's resource `uri` names, or undefined when it names none. */
export function parseSubjectUri(uri: string): { topic: string; slug: string } | undefined {
  const match = /^syllabus:\/\/([^/]+)\/(.+)$/.exec(uri);
  if (!match) return undefined;
  try {
    return { topic: decodeURIComponent(match[1]!), slug: match[2]!.split('/').map(decodeURIComponent).join('/') };
  } catch {
    return undefined;
  }
}

/** An MCP server over a knowledge view; connect it to a transport to serve. */
export function createAgentServer(view: KnowledgeAnswers, options: AgentServerOptions): Server {
  const listChanged = options.listChanged ?? false;
  const server = new Server(
    { name: options.name, version: options.version },
    {
      capabilities: { tools: { listChanged }, prompts: {}, resources: { listChanged } },
      ...(options.instructions ? { instructions: options.instructions } : {}),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listTools(await view.tool()) }));

  Protocol.prototype.setRequestHandler.call(server, ToolCallRequestSchema, async (request): Promise<CallToolResult> => {
    const params = (request as { params?: { name?: unknown; arguments?: unknown } | null }).params;
    if (typeof params !== 'object' || params === null || typeof params.name !== 'string') {
      throw protocolError(ErrorCode.InvalidParams, 'Invalid tools/call request: params.name must be the name of a tool ("learn" or "find").');
    }
    const { name, arguments: args } = params;
    try {
      const { outcome } = await callAgentTool(view, name, args);
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

  server.setRequestHandler(ListResourcesRequestSchema, async (): Promise<ListResourcesResult> => {
    const index = await view.index();
    const subjects = index.topics.flatMap((topic) =>
      topic.subjects.map((subject) => ({
        uri: subjectUri(topic.id, subject.slug),
        name: `${topic.id}/${subject.slug}`,
        title: subject.title,
        ...(subject.summary ? { description: subject.summary } : {}),
        mimeType: 'text/markdown',
        size: subject.bytes,
      })),
    );
    return { resources: [...RESOURCES, ...subjects] };
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const { uri } = request.params;
    if (uri === KNOWLEDGE_URI) return { contents: [{ uri, mimeType: 'text/plain', text: (await view.prompt()) ?? '' }] };
    if (uri === INDEX_URI) return { contents: [{ uri, mimeType: 'application/json', text: serializeEndpoint(await view.index()) }] };
    const subject = parseSubjectUri(uri);
    if (subject) {
      // learn's own answer for the exact slug: a resource reads what the tool loads, hidden subjects included.
      const outcome = await view.learn({ topic: subject.topic, subjects: subject.slug });
      if (outcome.ok) return { contents: [{ uri, mimeType: 'text/markdown', text: outcome.text }] };
      throw protocolError(RESOURCE_NOT_FOUND, outcome.message);
    }
    throw protocolError(
      RESOURCE_NOT_FOUND,
      `Unknown resource ${JSON.stringify(uri)}. Resources: ${RESOURCES.map((r) => r.uri).join(', ')}, and ${SUBJECT_URI_TEMPLATE} for each subject.`,
    );
  });

  return server;
}

/** The tools as `tools/list` lists them: learn's definition verbatim when it is offered, then find, each marked read-only. */
export function listTools(learn: { name: string; description: string; parameters: unknown } | null): Tool[] {
  return listAgentTools(learn).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters as Tool['inputSchema'], annotations: READ_ONLY }));
}

/**
 * An error the SDK answers as a JSON-RPC error with this code and message. (Not `McpError`: its
 * message starts with "MCP error <code>: ", which the client then adds a second time.)
 */
function protocolError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
