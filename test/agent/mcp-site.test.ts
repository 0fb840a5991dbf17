/**
 * `syllabus mcp` and a built site: what the server offers from local files equals, byte for byte,
 * what `syllabus build` published for the same knowledge base; and `mcp --remote`, serving that
 * site, answers every call as the server over local files does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { SiteIndexSchema } from '../../src/kb/index.ts';
import { ROOT, runCli, runCliAsync } from '../helpers/run-cli.ts';
import { builtSpecExample } from '../helpers/shared-build.ts';
import { FIND_TOOL, READ_ONLY_ANNOTATIONS, startMcp, startMcpInProcess, type McpSession } from './mcp-client.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'spec-example');
const SPEC_EXAMPLE = path.join(FIXTURE, 'kb.toml');

let dist: string;
const sessions: McpSession[] = [];
beforeAll(async () => {
  dist = await builtSpecExample();
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

const published = (file: string): string => fs.readFileSync(path.join(dist, file), 'utf8');

describe('local files', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcpInProcess(['--config', SPEC_EXAMPLE]);
    sessions.push(session);
  });

  it('serves syllabus://index exactly as the build wrote /kb/index.json', async () => {
    const { contents } = await session.client.readResource({ uri: 'syllabus://index' });
    expect(contents).toEqual([{ uri: 'syllabus://index', mimeType: 'application/json', text: published('kb/index.json') }]);
    const index = SiteIndexSchema.parse(JSON.parse(published('kb/index.json')));
    // Listed subjects only: the hidden ast-grep/rules is not in the index.
    expect(index.topics.map((t) => [t.id, t.subjects.map((s) => [s.slug, s.learned])])).toEqual([
      [
        'project',
        [
          ['code-quality', false],
          ['maintainers/jean', true],
          ['maintainers/ryan', true],
        ],
      ],
      ['skills', [['ast-grep', false]]],
    ]);
  });

  it('serves the prompt, the resource and the tool as /kb/knowledge.json has them', async () => {
    const knowledge = JSON.parse(published('kb/knowledge.json')) as { prompt: string; tool: { name: string; description: string; parameters: unknown } };
    const prompt = await session.client.getPrompt({ name: 'knowledge' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: knowledge.prompt } }]);
    const { contents } = await session.client.readResource({ uri: 'syllabus://knowledge' });
    expect(contents).toEqual([{ uri: 'syllabus://knowledge', mimeType: 'text/plain', text: knowledge.prompt }]);
    const { tools } = await session.client.listTools();
    expect(tools).toEqual([
      { name: knowledge.tool.name, description: knowledge.tool.description, inputSchema: knowledge.tool.parameters, annotations: READ_ONLY_ANNOTATIONS },
      FIND_TOOL,
    ]);
  });

  it('loads each subject as its markdown twin has it', async () => {
    const result = await session.call('learn', { topic: 'skills', subjects: 'ast-grep/rules' });
    expect(result).toEqual({ content: [{ type: 'text', text: published('skills/ast-grep/rules.md') }] });
  });
});

describe('--remote: the built site over HTTP', () => {
  let site: RunningServer;
  let local: McpSession;
  let remote: McpSession;
  beforeAll(async () => {
    site = await serveStatic(dist, '127.0.0.1', 0);
    local = await startMcpInProcess(['--config', SPEC_EXAMPLE]);
    // The real bin, as a client starts it: the other servers of this file run in this process.
    remote = await startMcp(['--remote', `${site.url}/`]);
    sessions.push(local, remote);
  });
  afterAll(async () => {
    await site?.close();
  });

  it('lists the same tool, and serves the same prompt and resources', async () => {
    expect((await remote.client.listTools()).tools).toEqual((await local.client.listTools()).tools);
    expect(await remote.client.getPrompt({ name: 'knowledge' })).toEqual(await local.client.getPrompt({ name: 'knowledge' }));
    for (const uri of ['syllabus://knowledge', 'syllabus://index']) {
      expect(await remote.client.readResource({ uri })).toEqual(await local.client.readResource({ uri }));
    }
    const { contents } = await remote.client.readResource({ uri: 'syllabus://index' });
    expect(contents).toEqual([{ uri: 'syllabus://index', mimeType: 'application/json', text: published('kb/index.json') }]);
  });

  // Every learn case of the fixture, and wrong arguments.
  const cases: [string, unknown][] = fs
    .readdirSync(path.join(FIXTURE, 'cases'))
    .sort()
    .map((name) => JSON.parse(fs.readFileSync(path.join(FIXTURE, 'cases', name, 'args'), 'utf8')) as string[])
    .filter((args) => args[0] === 'learn')
    .map(([, topic, ...patterns]): [string, unknown] => [
      `learn ${JSON.stringify([topic, ...patterns])}`,
      patterns.length === 0 ? { topic } : { topic, subjects: patterns.length === 1 ? patterns[0] : patterns },
    ]);
  cases.push(['no topic', {}], ['a number as topic', { topic: 3 }], ['not an object', 'project']);

  it.each(cases)('%s: the same result as from local files', async (_what, args) => {
    const expected = await local.call('learn', args);
    expect(await remote.call('learn', args)).toEqual(expected);
  });

  it('with -k, serves the same tool, prompt and listings as local files with the same -k', async () => {
    const withK = ['-k', 'skills/ast-grep', '-k', 'project/code-*'];
    const localK = await startMcpInProcess(['--config', SPEC_EXAMPLE, ...withK]);
    const remoteK = await startMcpInProcess(['--remote', `${site.url}/`, ...withK]);
    sessions.push(localK, remoteK);
    expect((await remoteK.client.listTools()).tools).toEqual((await localK.client.listTools()).tools);
    const prompt = await remoteK.client.getPrompt({ name: 'knowledge' });
    expect(prompt).toEqual(await localK.client.getPrompt({ name: 'knowledge' }));
    expect(prompt).not.toEqual(await local.client.getPrompt({ name: 'knowledge' }));
    for (const topic of ['project', 'skills']) expect(await remoteK.call('learn', { topic })).toEqual(await localK.call('learn', { topic }));
  });

  it('refuses to start with -k naming a topic the site does not have (exit 2)', async () => {
    const run = await runCliAsync(['mcp', '--remote', `${site.url}/`, '-k', 'nope/x']);
    expect(run).toEqual({
      stdout: '',
      stderr: 'error: -k "nope/x": unknown topic "nope". Valid topics: project, skills.\nRun "syllabus mcp --help" for usage.\n',
      code: 2,
    });
  });

  it('answers a site that is down with the error the CLI prints, and keeps serving', async () => {
    const gone = await serveStatic(dist, '127.0.0.1', 0);
    const url = `${gone.url}/`;
    // Down before the server starts: it reads the site at start for its instructions, and would keep what it read.
    await gone.close();
    const session = await startMcpInProcess(['--remote', url]);
    sessions.push(session);
    expect(session.client.getInstructions()).toBeUndefined();
    const cli = runCli(['learn', 'project', '--remote', url]);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/^error: [^\n]+\n$/);
    const message = cli.stderr.slice('error: '.length, -1);
    const expected: CallToolResult = { content: [{ type: 'text', text: message }], isError: true };
    expect(await session.call('learn', { topic: 'project' })).toEqual(expected);
    await expect(session.client.listTools()).rejects.toThrow(/^MCP error -32603: /);
    expect(await session.call('learn', { topic: 'project' })).toEqual(expected);
  });

  it.each([
    [
      ['--remote', 'ftp://example.com/'],
      'error: --remote "ftp://example.com/": only http and https sites can be read. Give the address of the site\'s root, like https://kb.example.com/ or https://example.com/docs/.',
    ],
    [
      ['--remote', 'http://127.0.0.1:9/', '--config', SPEC_EXAMPLE],
      'error: --remote and --config cannot be used together: --remote reads a published site, --config local files. Give one of them.',
    ],
  ])('refuses to start with %j (exit 2)', (args, message) => {
    expect(runCli(['mcp', ...args])).toEqual({ stdout: '', stderr: `${message}\nRun "syllabus mcp --help" for usage.\n`, code: 2 });
  });
});
