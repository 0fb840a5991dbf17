// netlify/functions/mcp.mjs: the knowledge of a published Syllabus site as an MCP server at /mcp.
import { createMcpHandler } from 'syllabus-kb';

const handler = createMcpHandler({ site: 'https://kb.example.com/' });

export default (request) => handler(request);

export const config = { path: '/mcp' };
