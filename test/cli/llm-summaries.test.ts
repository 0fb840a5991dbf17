/**
 * The build's summary step against a chat-completions server on 127.0.0.1: good answers, the
 * cache (never the same summary twice; a new prompt, model or content asks again), errors, slow
 * answers and garbage (each falls back to the extractive summary and is reported), the
 * concurrency limit, the key, and a server that is gone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildCatalog, buildSummaryRequest, type Catalog, type SummariesConfig } from '../../src/kb/index.ts';
import { DEFAULT_SUMMARY_PROMPT } from '../../src/kb/config/defaults.ts';
import { llmSummaryKey } from '../../src/kb/catalog/llm-summary.ts';
import { loadLlmSummaries, summarizeCatalog, summaryPhaseText, withCachedSummaries } from '../../src/build/llm-summaries.ts';
import { completion, startFakeLlm, type FakeLlm } from '../helpers/fake-llm.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { openTree } from '../helpers/open-tree.ts';

const TOML = '[kb.topic.guide]\nsubjects = "guide"\n';
const FILES = {
  'guide/deploy.md': '# Deploying\n\nShip with make deploy.\n',
  'guide/rollback.md': '# Rolling back\n\nRun make rollback.\n',
  'guide/ports.toml': '# Ports of the services\napi = 8080\n',
  'guide/described.md': '---\ndescription: The author says what it is.\n---\n# Described\n',
};

let llm: FakeLlm;
let cacheDir: string;

beforeEach(async () => {
  llm = await startFakeLlm();
  cacheDir = path.join(makeTree({}), '.syllabus-cache');
});

afterEach(async () => {
  await llm.close();
});

function settings(fields: Partial<SummariesConfig> = {}): SummariesConfig {
  return { endpoint: llm.url, model: 'tiny', api_key_env: 'SYLLABUS_LLM_KEY', prompt: 'Summarise.', concurrency: 4, timeout_seconds: 5, ...fields };
}

async function catalogOf(files: Record<string, string> = FILES): Promise<{ catalog: Catalog; root: string }> {
  const { kb, root } = openTree(TOML, files);
  return { catalog: (await buildCatalog(kb)).catalog, root };
}

/** Runs the step, naming subjects by their path in the tree. */
async function summarize(catalog: Catalog, root: string, config = settings(), env: Record<string, string> = {}) {
  return summarizeCatalog(catalog, config, { file: path.join(cacheDir, 'llm-summaries.json'), env, nameOf: (file) => path.relative(root, file) });
}

/** `files` without some of them. */
const without = (files: Record<string, string>, ...names: string[]) => Object.fromEntries(Object.entries(files).filter(([name]) => !names.includes(name)));
const summaries = (catalog: Catalog) => catalog.topics.flatMap((t) => t.subjects.map((s) => [s.slug, s.summary]));
const subjectsAsked = () => llm.requests.map((r) => r.subject).sort();
const report = (fields: object) => ({ model: 'tiny', written: 0, cached: 0, failed: 0, warnings: [], ...fields, ms: expect.any(Number) });

describe('summarizeCatalog', () => {
  it('asks for each summarised subject once, applies the answers and caches them by key', async () => {
    const { catalog, root } = await catalogOf();
    const done = await summarize(catalog, root, settings(), { SYLLABUS_LLM_KEY: 'sk-test' });
    expect(summaries(done.catalog)).toEqual([
      ['deploy', 'Summary of guide/deploy.'],
      ['described', 'The author says what it is.'],
      ['ports', 'Summary of guide/ports.'],
      ['rollback', 'Summary of guide/rollback.'],
    ]);
    expect(done.report).toEqual(report({ written: 3 }));
    expect(summaryPhaseText(done.report)).toBe('3 written by tiny, 0 from cache');
    const bySlug = new Map(catalog.topics[0]!.subjects.map((s) => [s.slug, s]));
    expect(llm.requests.map((r) => [r.subject, r.authorization, JSON.stringify(r.body)]).sort()).toEqual(
      ['deploy', 'ports', 'rollback'].map((slug) => [`guide/${slug}`, 'Bearer sk-test', buildSummaryRequest(bySlug.get(slug)!, settings())]),
    );
    const key = (slug: string) => llmSummaryKey(settings(), bySlug.get(slug)!.sha256);
    expect(JSON.parse(fs.readFileSync(path.join(cacheDir, 'llm-summaries.json'), 'utf8'))).toEqual({
      version: 1,
      entries: { [key('deploy')]: 'Summary of guide/deploy.', [key('ports')]: 'Summary of guide/ports.', [key('rollback')]: 'Summary of guide/rollback.' },
    });
  });

  it('makes no call the second time, and gives the same catalog from the cache', async () => {
    const { catalog, root } = await catalogOf();
    const first = await summarize(catalog, root);
    llm.requests.length = 0;
    const again = await summarize(catalog, root);
    expect(llm.requests).toEqual([]);
    expect(again.report).toEqual(report({ cached: 3 }));
    expect(summaryPhaseText(again.report)).toBe('0 written by tiny, 3 from cache');
    expect(again.catalog).toEqual(first.catalog);
    // What find, the agent server and the dev server see: the cache alone.
    expect(withCachedSummaries(catalog, settings(), path.join(cacheDir, 'llm-summaries.json'))).toEqual(first.catalog);
  });

  it('asks again for a changed content only, and keeps only the summaries of this run', async () => {
    const { catalog, root } = await catalogOf();
    await summarize(catalog, root);
    llm.requests.length = 0;
    const changed = await catalogOf({ ...without(FILES, 'guide/rollback.md'), 'guide/deploy.md': '# Deploying\n\nShip with the pipeline.\n' });
    const done = await summarize(changed.catalog, changed.root);
    expect(subjectsAsked()).toEqual(['guide/deploy']);
    expect(done.report).toEqual(report({ written: 1, cached: 1 }));
    expect([...loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).values()].sort()).toEqual(['Summary of guide/deploy.', 'Summary of guide/ports.']);
  });

  it('drops the summaries of removed subjects, with no call', async () => {
    const { catalog, root } = await catalogOf();
    await summarize(catalog, root);
    llm.requests.length = 0;
    const smaller = await catalogOf(without(FILES, 'guide/rollback.md'));
    await summarize(smaller.catalog, smaller.root);
    expect(llm.requests).toEqual([]);
    expect([...loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).values()].sort()).toEqual(['Summary of guide/deploy.', 'Summary of guide/ports.']);
  });

  it.each([
    ['prompt', { prompt: 'Summarise briefly.' }],
    ['model', { model: 'tiny-2' }],
    ['endpoint', { endpoint: '' }],
  ])('asks again for everything when the %s changes', async (_what, fields: Partial<SummariesConfig>) => {
    const { catalog, root } = await catalogOf();
    await summarize(catalog, root);
    llm.requests.length = 0;
    // The same server under another address is another endpoint.
    const changed = settings({ ...fields, ...(fields.endpoint === '' ? { endpoint: llm.url.replace('127.0.0.1', 'localhost') } : {}) });
    const done = await summarize(catalog, root, changed);
    expect(subjectsAsked()).toEqual(['guide/deploy', 'guide/ports', 'guide/rollback']);
    expect(done.report.written).toBe(3);
  });

  it('calls once for subjects with the same content', async () => {
    const { catalog, root } = await catalogOf({ 'guide/a.md': '# Same\n\nText.\n', 'guide/b.md': '# Same\n\nText.\n' });
    const done = await summarize(catalog, root);
    expect(llm.requests).toHaveLength(1);
    expect(done.report).toEqual(report({ written: 2 }));
    expect(new Set(summaries(done.catalog).map(([, summary]) => summary)).size).toBe(1);
  });

  it('sends the built-in prompt, and no Authorization header without a key', async () => {
    const { catalog, root } = await catalogOf({ 'guide/a.md': '# A\n\nText.\n' });
    await summarize(catalog, root, settings({ prompt: DEFAULT_SUMMARY_PROMPT }), { SYLLABUS_LLM_KEY: '' });
    expect(llm.requests.map((r) => [r.authorization, r.body.messages[0]])).toEqual([[undefined, { role: 'system', content: DEFAULT_SUMMARY_PROMPT }]]);
  });

  it('reads the key from the variable api_key_env names', async () => {
    const { catalog, root } = await catalogOf({ 'guide/a.md': '# A\n\nText.\n' });
    await summarize(catalog, root, settings({ api_key_env: 'MY_KEY' }), { MY_KEY: 'k1', SYLLABUS_LLM_KEY: 'k2' });
    expect(llm.requests.map((r) => r.authorization)).toEqual(['Bearer k1']);
  });

  it('never has more calls in flight than concurrency', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`guide/s${i}.md`, `# S${i}\n\nText ${i}.\n`]));
    const { catalog, root } = await catalogOf(files);
    // Each answer waits until three calls are in flight (so that a busy machine cannot make the
    // calls come one at a time), then 60 ms more, for a fourth call to show if one was started.
    let release = (): void => {};
    let threeInFlight = new Promise<void>((resolve) => (release = resolve));
    let waiting = 0;
    llm.answer((request) => {
      const answer = { body: completion(`About ${request.subject}.`), delayMs: 60, after: threeInFlight };
      if (++waiting === 3) {
        release();
        waiting = 0;
        threeInFlight = new Promise<void>((resolve) => (release = resolve));
      }
      return answer;
    });
    const done = await summarize(catalog, root, settings({ concurrency: 3 }));
    expect([llm.requests.length, llm.maxInFlight(), done.report.written]).toEqual([12, 3, 12]);
  });
});

describe('failed calls fall back to the extractive summary and are reported', () => {
  const extractive = [
    ['deploy', 'Ship with make deploy.'],
    ['described', 'The author says what it is.'],
    ['ports', 'Ports of the services'],
    ['rollback', 'Run make rollback.'],
  ];

  it('HTTP 500 for one subject: the others are summarised, the failure named; the next run asks for it alone', async () => {
    const { catalog, root } = await catalogOf();
    llm.answer((request) => (request.subject === 'guide/ports' ? { status: 500, body: '{"error":"boom"}' } : `Summary of ${request.subject}.`));
    const done = await summarize(catalog, root);
    expect(summaries(done.catalog)).toEqual([
      ['deploy', 'Summary of guide/deploy.'],
      ['described', 'The author says what it is.'],
      ['ports', 'Ports of the services'],
      ['rollback', 'Summary of guide/rollback.'],
    ]);
    expect(done.report).toEqual(
      report({
        written: 2,
        failed: 1,
        warnings: [
          `LLM summaries: HTTP 500 from ${llm.url}. 1 subject keeps its extractive summary (guide/ports.toml). The next build asks again for the summaries still missing.`,
        ],
      }),
    );
    expect(summaryPhaseText(done.report)).toBe('2 written by tiny, 0 from cache, 1 failed (extractive summaries used)');
    llm.requests.length = 0;
    llm.answer((request) => `Summary of ${request.subject}.`);
    const again = await summarize(catalog, root);
    expect([subjectsAsked(), again.report]).toEqual([['guide/ports'], report({ written: 1, cached: 2 })]);
  });

  it('HTTP 401 without a key: one call, no more, and the fix names the variable', async () => {
    const { catalog, root } = await catalogOf();
    llm.answer(() => ({ status: 401, body: '{"error":{"message":"Incorrect API key"}}' }));
    const done = await summarize(catalog, root, settings({ concurrency: 1 }));
    expect(llm.requests).toHaveLength(1);
    expect(summaries(done.catalog)).toEqual(extractive);
    expect(done.report).toEqual(
      report({
        failed: 3,
        warnings: [
          `LLM summaries: HTTP 401 from ${llm.url}: no key was sent, SYLLABUS_LLM_KEY is not set; no more calls were made. 3 subjects keep their extractive summary (guide/deploy.md, guide/ports.toml, guide/rollback.md). Set SYLLABUS_LLM_KEY to the endpoint's API key (kb.summaries.api_key_env names the variable).`,
        ],
      }),
    );
    expect(fs.existsSync(path.join(cacheDir, 'llm-summaries.json'))).toBe(false);
  });

  it('an answer that does not come within timeout_seconds is a timeout', async () => {
    const { catalog, root } = await catalogOf(without(FILES, 'guide/described.md', 'guide/ports.toml'));
    // Never answered: only the timeout can end that call. The other is answered at once, and the
    // timeout is long enough for that answer to arrive even on a busy machine.
    llm.answer((request) => (request.subject === 'guide/rollback' ? { hang: true } : { body: completion(`Summary of ${request.subject}.`), delayMs: 0 }));
    const done = await summarize(catalog, root, settings({ timeout_seconds: 2 }));
    expect(summaries(done.catalog)).toEqual([
      ['deploy', 'Summary of guide/deploy.'],
      ['rollback', 'Run make rollback.'],
    ]);
    expect(done.report).toEqual(
      report({
        written: 1,
        failed: 1,
        warnings: [
          `LLM summaries: no answer from ${llm.url} within 2 s. 1 subject keeps its extractive summary (guide/rollback.md). Raise kb.summaries.timeout_seconds, or lower kb.summaries.concurrency. The next build asks again for the summaries still missing.`,
        ],
      }),
    );
  });

  it('a connection closed before any answer is tried once more, then reported', async () => {
    const { catalog, root } = await catalogOf({ 'guide/a.md': '# A\n\nText.\n' });
    llm.answer(() => ({ drop: true }));
    const done = await summarize(catalog, root);
    expect(llm.requests).toHaveLength(2);
    expect(done.report).toEqual(
      report({
        failed: 1,
        warnings: [
          `LLM summaries: the call to ${llm.url} failed (the connection closed before an answer). 1 subject keeps its extractive summary (guide/a.md). The next build asks again for the summaries still missing.`,
        ],
      }),
    );
  });

  it('garbage: HTML, truncated JSON, JSON without choices, an empty text', async () => {
    const files = {
      'guide/html.md': '# H\n\nHtml.\n',
      'guide/cut.md': '# C\n\nCut.\n',
      'guide/nochoice.md': '# N\n\nNo choice.\n',
      'guide/empty.md': '# E\n\nEmpty.\n',
      'guide/fine.md': '# F\n\nFine.\n',
    };
    const { catalog, root } = await catalogOf(files);
    const garbage: Record<string, string> = {
      'guide/html': '<html><body><h1>502 Bad Gateway</h1></body></html>',
      'guide/cut': completion('A summary that never ends').slice(0, 50),
      'guide/nochoice': '{"object":"error","message":"model not loaded"}',
      'guide/empty': completion('   '),
    };
    llm.answer((request) => (garbage[request.subject] !== undefined ? { body: garbage[request.subject]! } : `Summary of ${request.subject}.`));
    const done = await summarize(catalog, root);
    expect(summaries(done.catalog)).toEqual([
      ['cut', 'Cut.'],
      ['empty', 'Empty.'],
      ['fine', 'Summary of guide/fine.'],
      ['html', 'Html.'],
      ['nochoice', 'No choice.'],
    ]);
    const format = 'Check kb.summaries.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions).';
    expect(done.report).toEqual(
      report({
        written: 1,
        failed: 4,
        warnings: [
          `LLM summaries: the answer of ${llm.url} is not JSON (it starts "{\\"id\\":\\"chatcmpl-1\\",\\"object\\":\\"chat.comple"). 2 subjects keep their extractive summary (guide/cut.md, guide/html.md). ${format}`,
          'LLM summaries: the model "tiny" answered with empty text. 1 subject keeps its extractive summary (guide/empty.md). Check kb.summaries.prompt and kb.summaries.model. The next build asks again for the summaries still missing.',
          `LLM summaries: the answer of ${llm.url} has no text at choices[0].message.content. 1 subject keeps its extractive summary (guide/nochoice.md). ${format}`,
        ],
      }),
    );
  });

  it('a server that is gone: cached summaries are used, the others fail at once, and no more calls are made', async () => {
    const { catalog, root } = await catalogOf();
    await summarize(catalog, root);
    await llm.close();
    const more = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`guide/new${i}.md`, `# New ${i}\n\nNew text ${i}.\n`]));
    const grown = await catalogOf({ ...FILES, ...more });
    const calls = vi.spyOn(globalThis, 'fetch');
    const done = await summarize(grown.catalog, grown.root, settings({ concurrency: 1 }));
    // One subject was asked, and found the server gone; the other five were not asked for. Its
    // request may have gone out twice: a connection kept alive from the first build and closed with
    // the server fails as a dropped connection, which is retried once, and the retry is refused.
    const bodies = calls.mock.calls.map(([, init]) => init?.body);
    expect(new Set(bodies).size).toBe(1);
    expect(bodies.length).toBeLessThanOrEqual(2);
    calls.mockRestore();
    expect(summaries(done.catalog).filter(([slug]) => !slug!.startsWith('new'))).toEqual([
      ['deploy', 'Summary of guide/deploy.'],
      ['described', 'The author says what it is.'],
      ['ports', 'Summary of guide/ports.'],
      ['rollback', 'Summary of guide/rollback.'],
    ]);
    expect(done.report).toEqual(
      report({
        cached: 3,
        failed: 6,
        warnings: [
          `LLM summaries: cannot reach ${llm.url} (connection refused); no more calls were made. 6 subjects keep their extractive summary (guide/new0.md, guide/new1.md, guide/new2.md and 3 more). Check kb.summaries.endpoint and that the server is running. The next build asks again for the summaries still missing.`,
        ],
      }),
    );
    // The cache keeps what it had.
    expect(loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).size).toBe(3);
  });
});

describe('the cache file', () => {
  it('an absent, damaged or other-version file holds nothing', () => {
    expect(loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).size).toBe(0);
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(path.join(cacheDir, 'llm-summaries.json'), '{"version": 1, "entries": {"a": "x"');
    expect(loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).size).toBe(0);
    fs.writeFileSync(path.join(cacheDir, 'llm-summaries.json'), '{"version": 0, "entries": {"a": "x"}}');
    expect(loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json')).size).toBe(0);
    fs.writeFileSync(path.join(cacheDir, 'llm-summaries.json'), '{"version": 1, "entries": {"a": "x", "b": 3}}');
    expect([...loadLlmSummaries(path.join(cacheDir, 'llm-summaries.json'))]).toEqual([['a', 'x']]);
  });

  it('without [kb.summaries], the cache is not read', async () => {
    const { catalog } = await catalogOf();
    expect(withCachedSummaries(catalog, undefined, path.join(cacheDir, 'llm-summaries.json'))).toBe(catalog);
  });
});
