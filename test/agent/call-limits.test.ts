/**
 * The limits of one call (content/agents/learn-tool.md, "Limits") on local files, through the real
 * bin: the agent server answers an oversized call with the same message as the CLI, and goes on
 * answering — also under 1,000 calls sent at once.
 */
import { EventEmitter } from 'node:events';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCliAsync } from '../helpers/run-cli.ts';
import { startMcp, type McpSession } from './mcp-client.ts';

const SPEC_EXAMPLE = path.join(ROOT, 'test', 'fixtures', 'spec-example', 'kb.toml');
const config = ['--config', SPEC_EXAMPLE];

const GLOBS = Array.from({ length: 20_000 }, (_, i) => `folder-${i}/**/*.md`);
const TOO_MANY = 'Too many patterns: 20000 given, at most 100 per call. Load fewer subjects at a time, or use a glob such as "folder/**".';
const LONG_PATTERN = `${'x'.repeat(1001)}*`;
const TOO_LONG = `Pattern too long: 1002 characters ("${'x'.repeat(40)}…"), at most 1000 per pattern. Name a subject by its slug, or use a glob such as "folder/**".`;
const LONG_QUERY = 'code '.repeat(201);
const queryTooLong = (length: number): string => `Query too long: ${length} characters, at most 1000. Search with a few words, or the title or name of a subject.`;
const CODE_QUALITY = '# Code quality\n\nRun the linter before you push.';

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

describe('the agent server', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp(config);
  });
  afterAll(() => session.close());

  it('20,000 globs: the limit, and the next call is answered', async () => {
    expect(await session.call('learn', { topic: 'project', subjects: GLOBS })).toEqual(errorResult(TOO_MANY));
    expect(await session.call('learn', { topic: 'project', subjects: 'code-quality' })).toEqual(textResult(CODE_QUALITY));
  });

  it('a pattern over 1,000 characters: the limit', async () => {
    expect(await session.call('learn', { topic: 'project', subjects: ['code-quality', LONG_PATTERN] })).toEqual(errorResult(TOO_LONG));
  });

  it('a find query over 1,000 characters: the limit, and the next call is answered', async () => {
    expect(await session.call('find', { query: LONG_QUERY })).toEqual(errorResult(queryTooLong(1005)));
    expect(await session.call('find', { query: 'code quality' })).toEqual(textResult('- project/code-quality (**Code quality**): Run the linter before you push.'));
  });

  it('1,000 calls sent at once, oversized ones among them: each gets its own answer', async () => {
    // The SDK's stdio client waits for 'drain' once per call the server's full pipe holds back:
    // hundreds at once here, by design, which Node would report as a leak.
    const listeners = EventEmitter.defaultMaxListeners;
    EventEmitter.defaultMaxListeners = 0;
    let answers: unknown[];
    try {
      const calls = Array.from({ length: 1000 }, (_, i) =>
        i % 10 === 0 ? session.call('learn', { topic: 'project', subjects: GLOBS.slice(0, 101) }) : session.call('learn', { topic: 'project', subjects: 'code-quality' }),
      );
      answers = await Promise.all(calls);
    } finally {
      EventEmitter.defaultMaxListeners = listeners;
    }
    const tooMany = errorResult(TOO_MANY.replace('20000', '101'));
    answers.forEach((answer, i) => expect(answer).toEqual(i % 10 === 0 ? tooMany : textResult(CODE_QUALITY)));
  });
});

describe('the CLI: the same message, exit 1, before anything is read', () => {
  it('learn with 20,000 globs', async () => {
    expect(await runCliAsync(['learn', 'project', ...GLOBS, ...config])).toEqual({ code: 1, stdout: '', stderr: `error: ${TOO_MANY}\n` });
  });

  it('learn with a pattern over 1,000 characters, even for a topic that does not exist', async () => {
    expect(await runCliAsync(['learn', 'nope', LONG_PATTERN, ...config])).toEqual({ code: 1, stdout: '', stderr: `error: ${TOO_LONG}\n` });
  });

  it('find with a query over 1,000 characters (its words joined by spaces)', async () => {
    const words = Array.from({ length: 201 }, () => 'code');
    expect(await runCliAsync(['find', ...words, ...config])).toEqual({ code: 1, stdout: '', stderr: `error: ${queryTooLong(1004)}\n` });
  });
});
