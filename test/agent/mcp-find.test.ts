/**
 * The MCP tool `find` (content/reference/cli/mcp.md), through the SDK's client: every `find` case of the
 * find-ranking fixture answers, over local files and over `--remote`, exactly what `syllabus find`
 * prints (its stdout as the text, its error message as an error result), and wrong arguments get
 * error results that say how to call the tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { ROOT, runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { FIND_TOOL, startMcpInProcess, type McpSession } from './mcp-client.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'find-ranking');
const CONFIG = ['--config', path.join(FIXTURE, 'kb.toml')];
const USAGE = 'Call find with {"query": "<words>"}, and optionally "limit" (a whole number, 1 or more; default 5) and "topic" (a topic id or title).';

/** The tool's arguments for the CLI arguments `find <query…> [--limit N] [--topic ID]`. */
function toolArguments(args: readonly string[]): Record<string, unknown> {
  const words: string[] = [];
  const out: Record<string, unknown> = {};
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--limit' || arg === '-n') out['limit'] = Number(args[++i]);
    else if (arg === '--topic' || arg === '-t') out['topic'] = args[++i];
    else words.push(arg);
  }
  return { query: words.join(' '), ...out };
}

/** What `syllabus find` prints for `args`, as a tool result. */
async function cliResult(args: readonly string[]): Promise<CallToolResult> {
  const run = await runCliInProcess([...args, ...CONFIG]);
  if (run.code === 0) {
    expect(run.stderr).toBe('');
    return { content: [{ type: 'text', text: run.stdout.replace(/\n$/, '') }] };
  }
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/^error: [^\n]*\n$/);
  return { content: [{ type: 'text', text: run.stderr.slice('error: '.length, -1) }], isError: true };
}

/** The fixture's find cases that the tool can ask: no --json, exit 0 or 1. */
const cases = fs
  .readdirSync(path.join(FIXTURE, 'cases'))
  .sort()
  .map((name) => {
    const dir = path.join(FIXTURE, 'cases', name);
    const read = (file: string): string | undefined => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined);
    return { name, args: JSON.parse(read('args')!) as string[], exit: Number(read('exit') ?? '0'), stdout: read('stdout') ?? '', stderr: read('stderr') };
  })
  .filter((c) => c.args[0] === 'find' && !c.args.includes('--json') && c.exit !== 2);

const sessions: McpSession[] = [];
let site: RunningServer;
let local: McpSession;
let remote: McpSession;
beforeAll(async () => {
  const dist = makeTree({});
  writeStaticFiles(dist, staticFilesOf(await readSiteData([path.join(FIXTURE, 'kb.toml')], process.cwd())));
  site = await serveStatic(dist, '127.0.0.1', 0);
  local = await startMcpInProcess(CONFIG);
  remote = await startMcpInProcess(['--remote', `${site.url}/`]);
  sessions.push(local, remote);
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await site?.close();
});

it('has find cases with results, without any, and with errors', () => {
  expect(cases.length).toBeGreaterThan(15);
  expect(cases.some((c) => c.stdout === '' && c.exit === 0)).toBe(true);
  expect(cases.some((c) => c.exit === 1)).toBe(true);
});

it('lists the find tool after learn, from local files and from the site', async () => {
  const { tools } = await local.client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['learn', 'find']);
  expect(tools[1]).toEqual(FIND_TOOL);
  expect((await remote.client.listTools()).tools).toEqual(tools);
});

describe.each(cases)('$name', ({ args, exit, stdout, stderr }) => {
  it('answers what syllabus find prints, and what the case expects', async () => {
    const expected: CallToolResult =
      exit === 0
        ? { content: [{ type: 'text', text: stdout.replace(/\n$/, '') }] }
        : { content: [{ type: 'text', text: stderr!.replace(/^error: /, '').replace(/\n$/, '') }], isError: true };
    const result = await local.call('find', toolArguments(args));
    expect(result).toEqual(expected);
    expect(result).toEqual(await cliResult(args));
  });

  it('answers the same over --remote', async () => {
    expect(await remote.call('find', toolArguments(args))).toEqual(await local.call('find', toolArguments(args)));
  });
});

describe('wrong arguments', () => {
  it.each([
    ['no query', {}, `Invalid arguments: "query" must be a string and is required. ${USAGE}`],
    ['a query that is not a string', { query: ['release'] }, `Invalid arguments: "query" must be a string. ${USAGE}`],
    ['a limit of 0', { query: 'release', limit: 0 }, `Invalid arguments: "limit" must be a whole number, 1 or more (got 0). ${USAGE}`],
    ['a fractional limit', { query: 'release', limit: 1.5 }, `Invalid arguments: "limit" must be a whole number, 1 or more (got 1.5). ${USAGE}`],
    ['a limit as a string', { query: 'release', limit: '2' }, `Invalid arguments: "limit" must be a whole number, 1 or more (got "2"). ${USAGE}`],
    ['a topic that is not a string', { query: 'release', topic: 7 }, `Invalid arguments: "topic" must be a string. ${USAGE}`],
    ['an unknown argument', { query: 'release', subjects: 'deploy' }, `Invalid arguments: unknown argument "subjects". ${USAGE}`],
    ['no arguments at all', undefined, `Invalid arguments: expected an object. ${USAGE}`],
    ['a string instead of an object', 'release', `Invalid arguments: expected an object. ${USAGE}`],
  ])('%s: an error result that says how to call it, from both servers', async (_what, args, message) => {
    const expected: CallToolResult = { content: [{ type: 'text', text: message }], isError: true };
    expect(await local.call('find', args)).toEqual(expected);
    expect(await remote.call('find', args)).toEqual(expected);
  });

  it('null limit and topic count as absent', async () => {
    expect(await local.call('find', { query: 'release', limit: null, topic: null })).toEqual(await cliResult(['find', 'release']));
  });

  it('wrote nothing to stderr', () => {
    expect(local.stderr()).toBe('');
    expect(remote.stderr()).toBe('');
  });
});
