/**
 * `syllabus build` with `[kb.summaries]` against a chat-completions server on 127.0.0.1: the
 * site's files carry the model's summaries, a failed call is reported and falls back, a second
 * build asks only for what is missing, a build with nothing new makes no call, and a build with
 * the server gone still succeeds from the cache. `find` (CLI and MCP) ranks with the summaries the
 * site published, from the cache, without calling the model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { startFakeLlm, type FakeLlm } from '../helpers/fake-llm.ts';
import { makeTree, writeTree } from '../helpers/temp-tree.ts';
import { startMcpInProcess, type McpSession } from '../agent/mcp-client.ts';

const DEPLOY = 'Releases go out to canary hosts first, then everywhere.';
let llm: FakeLlm;
let work: string;
let config: string;
/** An agent server over the knowledge base, started after the first build and kept through the next. */
let mcp: McpSession | undefined;

/** Runs the build in the work folder, with the default cache beside kb.toml; times made `T`. */
async function build(): Promise<CliRun> {
  const run = await runCliAsync(['build', '--config', config], { cwd: work });
  return { ...run, stderr: run.stderr.replace(/\d+\.\d s/g, 'T s') };
}

function dist(file: string): string {
  return fs.readFileSync(path.join(work, 'dist', file), 'utf8');
}

/** The summaries of index.json's subjects, by slug. */
function indexSummaries(): [string, string][] {
  const index = JSON.parse(dist('kb/index.json')) as { topics: { subjects: { slug: string; summary: string }[] }[] };
  return index.topics.flatMap((t) => t.subjects.map((s): [string, string] => [s.slug, s.summary]));
}

beforeAll(async () => {
  llm = await startFakeLlm();
  work = makeTree({
    'kb.toml': `[site]\ntitle = "Ops"\nurl = "https://handbook.example.test"\n\n[kb.summaries]\nendpoint = "${llm.url}"\nmodel = "tiny"\nconcurrency = 2\ntimeout_seconds = 5\n\n[kb.topic.guide]\ntitle = "Guide"\nsubjects = "guide"\n`,
    'guide/deploy.md': '# Deploying\n\nShip with make deploy.\n\n## Rolling back\n\nRun make rollback.\n',
    'guide/described.md': '---\ndescription: The author says what it is.\n---\n# Described\n\nBody of the described page.\n',
    'guide/broken.md': '# Broken\n\nThe server fails on this one.\n',
    'guide/.hidden.md': '# Hidden\n\nNot listed anywhere.\n',
  });
  config = path.join(work, 'kb.toml');
  await withKeptPages(path.join(work, '.syllabus-cache'), 'site');
});

afterAll(async () => {
  await mcp?.close();
  await llm.close();
});

describe('a build with LLM summaries', () => {
  it('publishes the model summaries, falls back and reports a failed call', async () => {
    llm.answer((request) => (request.subject === 'guide/broken' ? { status: 500, body: '{"error":"boom"}' } : DEPLOY));
    const run = await build();
    expect([run.code, run.stderr]).toEqual([
      0,
      [
        `warning[summary-failed]: LLM summaries: HTTP 500 from ${llm.url}. 1 subject keeps its extractive summary (guide/broken.md). The next build asks again for the summaries still missing.`,
        'read      1 topic, 4 subjects (T s)',
        'summaries 1 written by tiny, 0 from cache, 1 failed (extractive summaries used) (T s)',
        'pages     8 pages; 4 subjects rendered, 0 unchanged (T s)',
        'search    3 pages indexed, 1 of 1 shard written (T s)',
        'Built dist/: 1 topic, 4 subjects (1 hidden, 0 disabled, 0 skipped), 1 warning, T s',
        '',
      ].join('\n'),
    ]);
    expect(llm.requests.map((r) => r.subject).sort()).toEqual(['guide/broken', 'guide/deploy']);
    expect(indexSummaries()).toEqual([
      ['broken', 'The server fails on this one.'],
      ['deploy', DEPLOY],
      ['described', 'The author says what it is.'],
    ]);
    expect(dist('kb/index.txt')).toBe(`kb:guide/broken.md\nThe server fails on this one.\n\nkb:guide/deploy.md\n${DEPLOY}\n\nkb:guide/described.md\nThe author says what it is.\n`);
    expect(dist('llms.txt')).toBe(
      `# Ops\n\n> A knowledge base for people and agents, in one topic: Guide.\n\nThe knowledge of this site for agents: https://handbook.example.test/kb/index.json lists every topic and subject with its addresses, and https://handbook.example.test/kb/knowledge.json holds the <knowledge> system-prompt section and the learn tool.\n\n## Guide\n\n- [Broken](https://handbook.example.test/guide/broken.md): The server fails on this one.\n- [Deploying](https://handbook.example.test/guide/deploy.md): ${DEPLOY}\n- [Described](https://handbook.example.test/guide/described.md): The author says what it is.\n\n## Optional\n\n- [Everything in one file](https://handbook.example.test/llms-full.txt): The content of every subject listed here, in one markdown file.\n`,
    );
    // The keywords (and the search terms beside them, whose summary part follows the same summaries).
    expect(
      (JSON.parse(dist('kb/keywords.json')) as { topics: { id: string; subjects: { slug: string; keywords: string[]; confidence: number }[] }[] }).topics.map((t) => ({
        id: t.id,
        subjects: t.subjects.map(({ slug, keywords, confidence }) => ({ slug, keywords, confidence })),
      })),
    ).toEqual([
      {
        id: 'guide',
        subjects: [
          { slug: 'broken', keywords: ['broken', 'server', 'fails', 'one'], confidence: 1 },
          { slug: 'deploy', keywords: ['deploying', 'releases', 'canary', 'hosts', 'first', 'everywhere', 'rolling', 'back'], confidence: 1 },
          { slug: 'described', keywords: ['described', 'author', 'says'], confidence: 1 },
        ],
      },
    ]);
    expect(dist('guide/deploy/index.html')).toContain(`<meta name="description" content="${DEPLOY}">`);
  });

  it('find ranks with the summaries the site published, from the cache: the CLI and the MCP tool alike', async () => {
    const asked = llm.requests.length;
    const found = await runCliAsync(['find', 'canary', '--config', config], { cwd: work });
    expect(found).toEqual({ code: 0, stdout: `- guide/deploy (**Deploying**): ${DEPLOY}\n`, stderr: '' });
    mcp = await startMcpInProcess(['--config', config], { cwd: work });
    expect(await mcp.call('find', { query: 'canary' })).toEqual({ content: [{ type: 'text', text: `- guide/deploy (**Deploying**): ${DEPLOY}` }] });
    expect(llm.requests.length).toBe(asked);
  });

  it('asks again only for the summary that failed', async () => {
    llm.requests.length = 0;
    llm.answer(() => 'The broken page, summarised at last.');
    const run = await build();
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').slice(0, 2)).toEqual(['read      1 topic, 4 subjects (T s)', 'summaries 1 written by tiny, 1 from cache (T s)']);
    expect(llm.requests.map((r) => r.subject)).toEqual(['guide/broken']);
    expect(indexSummaries()).toEqual([
      ['broken', 'The broken page, summarised at last.'],
      ['deploy', DEPLOY],
      ['described', 'The author says what it is.'],
    ]);
    // The agent server started before this build answers with what it published.
    const found = { code: 0, stdout: '- guide/broken (**Broken**): The broken page, summarised at last.\n', stderr: '' };
    expect(await runCliAsync(['find', 'summarised', '--config', config], { cwd: work })).toEqual(found);
    expect(await mcp!.call('find', { query: 'summarised' })).toEqual({ content: [{ type: 'text', text: found.stdout.trimEnd() }] });
  });

  it('makes no call when nothing changed', async () => {
    llm.requests.length = 0;
    const run = await build();
    expect([run.code, run.stderr]).toEqual([
      0,
      [
        'read      1 topic, 4 subjects (T s)',
        'summaries 0 written by tiny, 2 from cache (T s)',
        'pages     nothing changed since the last build of dist/ (T s)',
        'Built dist/: 1 topic, 4 subjects (1 hidden, 0 disabled, 0 skipped), 0 warnings, T s',
        '',
      ].join('\n'),
    ]);
    expect(llm.requests).toEqual([]);
  });

  it('succeeds with the server gone: cached summaries stay, a new subject keeps its extractive summary', async () => {
    await llm.close();
    writeTree(work, { 'guide/new.md': '# New\n\nA page added while the server is down.\n' });
    const run = await build();
    expect(run.code).toBe(0);
    expect(run.stderr.split('\n').slice(0, 3)).toEqual([
      `warning[summary-failed]: LLM summaries: cannot reach ${llm.url} (connection refused); no more calls were made. 1 subject keeps its extractive summary (guide/new.md). Check kb.summaries.endpoint and that the server is running. The next build asks again for the summaries still missing.`,
      'read      1 topic, 5 subjects (T s)',
      'summaries 0 written by tiny, 2 from cache, 1 failed (extractive summaries used) (T s)',
    ]);
    expect(indexSummaries()).toEqual([
      ['broken', 'The broken page, summarised at last.'],
      ['deploy', DEPLOY],
      ['described', 'The author says what it is.'],
      ['new', 'A page added while the server is down.'],
    ]);
  });
});
