/**
 * The agent server over Streamable HTTP (content/reference/cli/mcp.md, "Over HTTP"): the real
 * `syllabus mcp --http` on 127.0.0.1, driven by the SDK's own HTTP client, answers as the CLI
 * does and survives whatever a client sends; the package's `createMcpHandler`, called directly with
 * `Request`s over a published site, answers as `--remote` does. One server each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSiteData } from '../../src/build/site-data.ts';
import { listStaticFiles } from '../../src/build/endpoints.ts';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { createMcpHandler } from '../../src/index.ts';
import { BIN, ROOT, runCli, runCliAsync, stopChild, userEnv } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { cliPrompt, cliResult, listedTools } from './mcp-client.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'spec-example');
const CONFIG = ['--config', path.join(FIXTURE, 'kb.toml')];
const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '0' } } };

/** A JSON-RPC request after initialization, as a stateless client sends it. */
function rpc(id: number, method: string, params?: unknown): RequestInit {
  return {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
  };
}

/** A JSON-RPC error response body, whole. */
const rpcError = (code: number, message: string) => ({ jsonrpc: '2.0', error: { code, message }, id: null });

describe('syllabus mcp --http', () => {
  let child: ChildProcess;
  let url: string;
  let stderr = '';
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0', ...CONFIG], { cwd: ROOT, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    url = await new Promise<string>((resolve, reject) => {
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
        const match = /^Serving MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp) \(Ctrl-C stops\)\n/.exec(stderr);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`mcp --http exited (${code}): ${stderr}`)));
    });
    transport = new StreamableHTTPClientTransport(new URL(url));
    client = new Client({ name: 'syllabus-test', version: '0.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
    expect(await stopChild(child, 'SIGTERM')).toBe(0);
  });

  it('negotiates the newest protocol version, with the <knowledge> section as instructions and no listChanged (one request per server)', async () => {
    expect(transport.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.getServerVersion()?.name).toBe('syllabus');
    expect(client.getInstructions()).toBe(await cliPrompt(CONFIG));
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: false }, prompts: {}, resources: { listChanged: false } });
  });

  it('lists the tools as stdio does, and answers learn and find as the CLI prints them', async () => {
    const tools = await listedTools(CONFIG);
    expect((await client.listTools()).tools).toEqual(tools);
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
    const cases = [];
    // The CLI's answers first: the calls then follow each other as a client's would.
    for (const [topic, patterns] of [
      ['project', []],
      ['project', ['code-quality']],
      ['project', ['**']],
      ['skills', ['ast-grep/rules']],
      ['nope', []],
    ] as const) {
      cases.push({ args: patterns.length === 0 ? { topic } : { topic, subjects: patterns[0] }, expected: await cliResult(['learn', topic, ...patterns, ...CONFIG]) });
    }
    const found = await cliResult(['find', 'linter', ...CONFIG]);
    for (const { args, expected } of cases) expect(await call('learn', args)).toEqual(expected);
    expect(await call('find', { query: 'linter' })).toEqual(found);
    const { contents } = await client.readResource({ uri: 'syllabus://project/code-quality' });
    expect(contents).toEqual([{ uri: 'syllabus://project/code-quality', mimeType: 'text/markdown', text: '# Code quality\n\nRun the linter before you push.' }]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['syllabus://{topic}/{+slug}']);
  });

  it('answers what is not a request with a 4xx, and keeps serving', async () => {
    const answer = async (init: RequestInit, target = url) => {
      const response = await fetch(target, init);
      return { status: response.status, body: await response.text() };
    };
    expect(await answer({ method: 'POST', headers: JSON_HEADERS, body: '{not json' })).toEqual({
      status: 400,
      body: JSON.stringify(rpcError(-32700, 'Parse error: Invalid JSON')),
    });
    expect(await answer({ method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ hello: 'world' }) })).toEqual({
      status: 400,
      body: JSON.stringify(rpcError(-32700, 'Parse error: Invalid JSON-RPC message')),
    });
    expect(await answer({ method: 'GET' })).toEqual({
      status: 405,
      body: JSON.stringify(rpcError(-32000, 'Method not allowed: this MCP server is stateless and answers POST only (got GET).')),
    });
    expect(await answer({ method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(INITIALIZE) }, url.replace(/\/mcp$/, '/other'))).toEqual({
      status: 404,
      body: 'Not found: the MCP endpoint is /mcp.\n',
    });
    const huge = await answer({ method: 'POST', headers: JSON_HEADERS, body: `{"jsonrpc":"2.0","id":1,"method":"x","params":"${'a'.repeat(2_000_000)}"}` });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    // A page of another site, through DNS rebinding: a Host that is not loopback (fetch cannot set Host).
    const rebound = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const request = http.request(url, { method: 'POST', headers: { ...JSON_HEADERS, host: 'attacker.example' } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', reject);
      request.end(JSON.stringify(INITIALIZE));
    });
    expect(rebound).toEqual({ status: 403, body: 'Forbidden: this server listens on a loopback address and answers only local clients.\n' });
    expect(await answer(rpc(3, 'no/such/method'))).toEqual({
      status: 200,
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'Method not found' } }),
    });
    // Still serving, without a session: a bare tools/call is answered.
    const response = await fetch(url, rpc(4, 'tools/call', { name: 'learn', arguments: { topic: 'project', subjects: 'code-quality' } }));
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: '# Code quality\n\nRun the linter before you push.' }] } });
    expect(child.exitCode).toBeNull();
  });
});

describe('mcp --http: bad addresses and flags', () => {
  it.each([
    [['--http', '--port', '70000'], 'error: --port must be a whole number from 0 to 65535 (got "70000").'],
    [['--http', '--port', 'x'], 'error: --port must be a whole number from 0 to 65535 (got "x").'],
    [
      ['--http', '--host', '203.0.113.7', '--port', '0'],
      'error: "203.0.113.7" is not an address of this machine. Give --host 127.0.0.1 (this machine only) or an address of one of its interfaces (0.0.0.0 for all).',
    ],
    [['--port', '3000'], 'error: --port needs --http: without it the server speaks on stdin and stdout. Add --http.'],
  ])('%j: exit 2 with what to do', (flags, message) => {
    expect(runCli(['mcp', ...flags, ...CONFIG])).toEqual({ stdout: '', stderr: `${message}\nRun "syllabus mcp --help" for usage.\n`, code: 2 });
  });
});

/**
 * The CLI's answer with --remote, as a tool result. (Run without blocking: the site is served by
 * this process.)
 */
async function remoteResult(args: readonly string[]): Promise<CallToolResult> {
  const run = await runCliAsync(args);
  if (run.code === 0) return { content: [{ type: 'text', text: run.stdout.replace(/\n$/, '') }] };
  expect(run.code, run.stderr).toBe(1);
  return { content: [{ type: 'text', text: run.stderr.replace(/^error: /, '').replace(/\n$/, '') }], isError: true };
}

describe('createMcpHandler over a published site', () => {
  let site: RunningServer;
  let handler: (request: Request) => Promise<Response>;
  beforeAll(async () => {
    const dist = makeTree({});
    writeStaticFiles(dist, listStaticFiles(await readSiteData(['kb.toml'], FIXTURE)));
    site = await serveStatic(dist);
    handler = createMcpHandler({ site: `${site.url}/` });
  });
  afterAll(() => site.close());

  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await handler(new Request('https://mcp.example/anything', { method: 'POST', headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) }));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('initializes with the site’s <knowledge> section as instructions', async () => {
    expect(await post(INITIALIZE)).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: 1,
        result: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: { tools: { listChanged: false }, prompts: {}, resources: { listChanged: false } },
          serverInfo: { name: 'syllabus', version: expect.any(String) as string },
          instructions: ((await remoteResult(['prompt', '--remote', `${site.url}/`])).content[0] as { text: string }).text,
        },
      },
    });
  });

  it('answers tools/list and tools/call exactly as the CLI does with --remote, and as it does from local files', async () => {
    const headers = { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    const remote = ['--remote', `${site.url}/`];
    const tool = JSON.parse(((await remoteResult(['schema', '--tool', ...remote])).content[0] as { text: string }).text) as unknown;
    expect(tool).toEqual(JSON.parse(runCli(['schema', '--tool', ...CONFIG]).stdout));
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers)).body).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: await listedTools(CONFIG) } });
    for (const args of [{ topic: 'project' }, { topic: 'skills', subjects: 'ast-grep/rules' }, { topic: 'project', subjects: ['nope', 'x*'] }]) {
      const patterns = 'subjects' in args ? [args.subjects].flat() : [];
      const expected = await remoteResult(['learn', args.topic, ...patterns, ...remote]);
      expect(expected).toEqual(await cliResult(['learn', args.topic, ...patterns, ...CONFIG]));
      expect((await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'learn', arguments: args } }, headers)).body).toEqual({
        jsonrpc: '2.0',
        id: 3,
        result: expected,
      });
    }
  });

  it("the guide's Netlify function (content/agents/integration/netlify-mcp.mjs) answers as the handler does", async () => {
    const file = path.join(ROOT, 'content', 'agents', 'integration', 'netlify-mcp.mjs');
    const example = fs.readFileSync(file, 'utf8');
    // The page shows the file as it is.
    const page = fs.readFileSync(path.join(ROOT, 'content', 'agents', 'integration', 'mcp-http.md'), 'utf8');
    expect(/```js\n([\s\S]*?)```/.exec(page)![1]).toBe(example);
    // The same function, with the package from this checkout and the test's site.
    const copy = path.join(makeTree({}), 'mcp.mjs');
    fs.writeFileSync(copy, example.replace("from 'syllabus-kb'", `from ${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))}`).replace('https://kb.example.com/', `${site.url}/`));
    const fn = (await import(copy)) as { default: (request: Request) => Promise<Response>; config: { path: string } };
    expect(fn.config).toEqual({ path: '/mcp' });
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'learn', arguments: { topic: 'project', subjects: 'code-quality' } } };
    const response = await fn.default(
      new Request('https://site.netlify.app/mcp', { method: 'POST', headers: { ...JSON_HEADERS, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION }, body: JSON.stringify(call) }),
    );
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 5, result: await remoteResult(['learn', 'project', 'code-quality', '--remote', `${site.url}/`]) });
  });

  it('answers GET with 405', async () => {
    const response = await handler(new Request('https://mcp.example/mcp'));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });
});
