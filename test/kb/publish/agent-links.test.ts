/** Links for assistants and agents (src/kb/publish/agent-links.ts): the "Open in" menu and the MCP snippet. */
import { describe, expect, it } from 'vitest';
import { ASSISTANTS, absoluteSiteUrl, assistantUrl, mcpServerName, renderMcpConfig } from '../../../src/kb/publish/agent-links.ts';

describe('assistant links', () => {
  it('open ChatGPT and Claude with a prompt that names the markdown twin', () => {
    const twin = absoluteSiteUrl('https://kb.example.com/', '/docs/guide/a~2Eb.md')!;
    expect(ASSISTANTS.map((a) => assistantUrl(a, twin))).toEqual([
      'https://chatgpt.com/?q=Read%20https%3A%2F%2Fkb.example.com%2Fdocs%2Fguide%2Fa~2Eb.md%20and%20answer%20my%20questions%20about%20it.',
      'https://claude.ai/new?q=Read%20https%3A%2F%2Fkb.example.com%2Fdocs%2Fguide%2Fa~2Eb.md%20and%20answer%20my%20questions%20about%20it.',
    ]);
    expect(absoluteSiteUrl(undefined, '/a.md')).toBeUndefined();
  });
});

describe('the MCP snippet', () => {
  it('serves the published site with syllabus mcp --remote', () => {
    expect(renderMcpConfig(mcpServerName('Fixture Handbook'), 'https://handbook.example.test/')).toBe(
      '{\n  "mcpServers": {\n    "fixture-handbook": {\n      "command": "npx",\n      "args": [\n        "-y",\n        "syllabus-kb",\n        "mcp",\n        "--remote",\n        "https://handbook.example.test/"\n      ]\n    }\n  }\n}',
    );
    expect([mcpServerName('Équipe — Docs!'), mcpServerName('***')]).toEqual(['équipe-docs', 'knowledge']);
  });
});
