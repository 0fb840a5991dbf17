/**
 * The limits of one call (content/agents/learn-tool.md, "Limits") against a published site: the
 * same messages as on local files, given before anything is fetched (an oversized call would
 * otherwise ask the site for a hidden subject at the address of each pattern), through the remote
 * view, the agent server and the CLI.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openRemoteView } from '../../src/remote/remote-view.ts';
import { runCliAsync } from '../helpers/run-cli.ts';
import { startMcp, type McpSession } from '../agent/mcp-client.ts';
import { fakeSiteFiles, serveFake, serveFiles, type FakeServer } from './fake-site.ts';

const FILES = fakeSiteFiles([{ id: 't', subjects: [{ slug: 'a', content: 'Alpha' }] }], { prompt: '<knowledge>\nP\n</knowledge>', description: 'D', preloaded: {} });

const GLOBS = Array.from({ length: 20_000 }, (_, i) => `folder-${i}/**/*.md`);
const TOO_MANY = 'Too many patterns: 20000 given, at most 100 per call. Load fewer subjects at a time, or use a glob such as "folder/**".';
const LONG_PATTERN = 'y'.repeat(1001);
const TOO_LONG = `Pattern too long: 1001 characters ("${'y'.repeat(40)}…"), at most 1000 per pattern. Name a subject by its slug, or use a glob such as "folder/**".`;
const QUERY_TOO_LONG = 'Query too long: 1001 characters, at most 1000. Search with a few words, or the title or name of a subject.';

let site: FakeServer;
beforeAll(async () => {
  site = await serveFake(serveFiles(FILES));
});
afterAll(() => site.close());
beforeEach(() => {
  site.requests.length = 0;
});

describe('the remote view', () => {
  it('answers 20,000 globs, a long pattern and a long query with the limit, fetching nothing', async () => {
    const view = openRemoteView(`${site.url}/`);
    expect(await view.learn({ topic: 't', subjects: GLOBS })).toEqual({ ok: false, message: TOO_MANY });
    expect(await view.learn({ topic: 't', subjects: LONG_PATTERN })).toEqual({ ok: false, message: TOO_LONG });
    expect(await view.find({ query: 'q'.repeat(1001) })).toEqual({ ok: false, message: QUERY_TOO_LONG });
    expect(site.requests).toEqual([]);
    expect(await view.learn({ topic: 't', subjects: 'a' })).toEqual({ ok: true, text: 'Alpha' });
  });
});

describe('the agent server with --remote', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp(['--remote', site.url]);
  });
  afterAll(() => session.close());

  it('20,000 globs: the limit, and the next call is answered', async () => {
    expect(await session.call('learn', { topic: 't', subjects: GLOBS })).toEqual({ content: [{ type: 'text', text: TOO_MANY }], isError: true });
    expect(await session.call('learn', { topic: 't', subjects: 'a' })).toEqual({ content: [{ type: 'text', text: 'Alpha' }] });
  });
});

describe('the CLI with --remote: exit 1, nothing fetched', () => {
  it('learn with 20,000 globs', async () => {
    expect(await runCliAsync(['learn', 't', ...GLOBS, '--remote', site.url])).toEqual({ code: 1, stdout: '', stderr: `error: ${TOO_MANY}\n` });
    expect(site.requests).toEqual([]);
  });

  it('learn with a pattern over 1,000 characters', async () => {
    expect(await runCliAsync(['learn', 't', LONG_PATTERN, '--remote', site.url])).toEqual({ code: 1, stdout: '', stderr: `error: ${TOO_LONG}\n` });
    expect(site.requests).toEqual([]);
  });

  it('find with a query over 1,000 characters', async () => {
    expect(await runCliAsync(['find', 'q'.repeat(1001), '--remote', site.url])).toEqual({ code: 1, stdout: '', stderr: `error: ${QUERY_TOO_LONG}\n` });
    expect(site.requests).toEqual([]);
  });
});
