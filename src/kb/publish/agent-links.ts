/**
 * What a page offers for AI assistants and agents (content/guide/the-site.md, "For agents and
 * assistants"): links that open a subject's markdown twin in a chat assistant, and the MCP client
 * configuration that serves the site to an agent (`syllabus mcp --remote`).
 */

/** A chat assistant that takes a prompt in its address. */
export interface Assistant {
  name: string;
  /** The address before the encoded prompt. */
  prefix: string;
}

/** The assistants of the "Open in" menu, in the order shown. */
export const ASSISTANTS: readonly Assistant[] = [
  { name: 'ChatGPT', prefix: 'https://chatgpt.com/?q=' },
  { name: 'Claude', prefix: 'https://claude.ai/new?q=' },
];

/** The prompt that hands a subject to an assistant; `{url}` stands for its markdown twin's absolute address. */
export const ASSISTANT_PROMPT = 'Read {url} and answer my questions about it.';

/** The address that opens `assistant` with the prompt for the markdown twin at `markdownUrl`. */
export function assistantUrl(assistant: Assistant, markdownUrl: string): string {
  return `${assistant.prefix}${encodeURIComponent(ASSISTANT_PROMPT.replace('{url}', markdownUrl))}`;
}

/**
 * The absolute address of `path` (a path from the domain root) on the site published at
 * `siteUrl` (`[site] url`), or undefined without one: the browser then resolves it.
 */
export function absoluteSiteUrl(siteUrl: string | undefined, path: string): string | undefined {
  return siteUrl ? new URL(path, `${siteUrl.replace(/\/+$/, '')}/`).href : undefined;
}

/** The name of the site's server in an MCP client's configuration: its title in lower-case words joined by `-`. */
export function mcpServerName(title: string): string {
  const name = title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return name === '' ? 'knowledge' : name;
}

/** The MCP client configuration (`mcpServers`) that serves the site at `siteUrl` to an agent, as JSON with two-space indents. */
export function renderMcpConfig(name: string, siteUrl: string): string {
  return JSON.stringify({ mcpServers: { [name]: { command: 'npx', args: ['-y', 'syllabus-kb', 'mcp', '--remote', siteUrl] } } }, null, 2);
}
