/**
 * LLM summaries in the core (content/reference/configuration.md, "[kb.summaries]"): which subjects
 * the model summarises, the cache key, the request of one subject, the reading of answers, the catalog with summaries applied, the failure
 * messages, and the `[kb.summaries]` table's own rules.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applySummaries,
  buildCatalog,
  buildSummaryRequest,
  endsSummaryCalls,
  llmSummaryCandidates,
  loadConfig,
  parseSummaryResponse,
  summaryFailureMessages,
  type Catalog,
  type SummaryFailure,
} from '../../../src/kb/index.ts';
import { DEFAULT_SUMMARY_PROMPT } from '../../../src/kb/config/defaults.ts';
import { LLM_CONTENT_LIMIT, llmSummaryKey } from '../../../src/kb/catalog/llm-summary.ts';
import { normalizeSummary } from '../../../src/kb/catalog/llm-summary.ts';
import { openTree } from '../../helpers/open-tree.ts';

const SETTINGS = { endpoint: 'http://127.0.0.1:9/v1/chat/completions', model: 'tiny', prompt: 'Summarise.' };

const TOML = `[kb]
max_subject_bytes = 400

[kb.topic.guide]
subjects = "guide"

[kb.topic.notes]
learnings = "notes.json"
`;

const LEARNING = {
  id: 'zod',
  taskId: 't',
  category: 'pattern',
  content: 'Use Zod for API validation',
  keywords: ['zod'],
  confidence: 0.75,
  usedCount: 1,
  successCount: 1,
  createdAt: '2024-01-10T08:00:00.000Z',
};

const FILES = {
  'guide/deploy.md': '# Deploying\n\nShip with make deploy.\n\n## Rolling back\n\nRun make rollback.\n',
  'guide/described.md': '---\ndescription: The author says what it is.\n---\n# Described\n\nBody text.\n',
  'guide/.secret.md': '# Secret\n\nHidden text.\n',
  'guide/empty.md': '',
  'guide/blank.txt': '\n\n   \n',
  'guide/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
  'guide/huge.md': `# Huge\n\n${'word '.repeat(200)}\n`,
  'guide/ports.toml': '# Ports of the services\napi = 8080\n',
  'notes.json': JSON.stringify({ version: '1.0', learnings: [LEARNING] }),
};

async function catalogOf(files: Record<string, string | Uint8Array> = FILES): Promise<Catalog> {
  return (await buildCatalog(openTree(TOML, files).kb)).catalog;
}

function subjectOf(catalog: Catalog, topic: string, slug: string) {
  return catalog.topics.find((t) => t.id === topic)!.subjects.find((s) => s.slug === slug)!;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('llmSummaryKey', () => {
  it('is the sha256 of endpoint, model, prompt and the content hash, joined as a JSON array', () => {
    const content = sha256('# Deploying');
    expect(llmSummaryKey(SETTINGS, content)).toBe(sha256(JSON.stringify([SETTINGS.endpoint, SETTINGS.model, SETTINGS.prompt, content])));
  });

  it('changes with each of the four, and never confuses where one ends and the next begins', () => {
    const content = sha256('x');
    const keys = [
      llmSummaryKey(SETTINGS, content),
      llmSummaryKey({ ...SETTINGS, endpoint: 'http://127.0.0.1:10/v1/chat/completions' }, content),
      llmSummaryKey({ ...SETTINGS, model: 'tiny2' }, content),
      llmSummaryKey({ ...SETTINGS, prompt: 'Summarise!' }, content),
      llmSummaryKey(SETTINGS, sha256('y')),
      llmSummaryKey({ ...SETTINGS, model: 'ab', prompt: 'c' }, content),
      llmSummaryKey({ ...SETTINGS, model: 'a', prompt: 'bc' }, content),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('llmSummaryCandidates', () => {
  it('are the listed, read, non-empty files without a description, in catalog order, with their keys', async () => {
    const catalog = await catalogOf();
    const candidates = llmSummaryCandidates(catalog, SETTINGS);
    expect(candidates.map((c) => [c.subject.topic, c.subject.slug, c.key])).toEqual(
      ['deploy', 'ports'].map((slug) => ['guide', slug, llmSummaryKey(SETTINGS, subjectOf(catalog, 'guide', slug).sha256)]),
    );
    // Everything else is there, and left to its extractive summary.
    expect(catalog.topics.flatMap((t) => t.subjects.map((s) => `${t.id}/${s.slug}`))).toEqual([
      'guide/blank',
      'guide/deploy',
      'guide/described',
      'guide/empty',
      'guide/huge',
      'guide/logo',
      'guide/ports',
      'guide/secret',
      'notes/pattern/zod',
    ]);
  });
});

describe('buildSummaryRequest', () => {
  it('sends the prompt as the system message, then the subject, its title and its content', async () => {
    const deploy = subjectOf(await catalogOf(), 'guide', 'deploy');
    expect(JSON.parse(buildSummaryRequest(deploy, SETTINGS))).toEqual({
      model: 'tiny',
      messages: [
        { role: 'system', content: 'Summarise.' },
        { role: 'user', content: 'Subject: guide/deploy\nTitle: Deploying\n\n# Deploying\n\nShip with make deploy.\n\n## Rolling back\n\nRun make rollback.' },
      ],
    });
  });

  it(`cuts the content at ${LLM_CONTENT_LIMIT} characters and says so`, async () => {
    const long = subjectOf(await catalogOf(), 'guide', 'deploy');
    const content = 'a'.repeat(30_000);
    const body = JSON.parse(buildSummaryRequest({ ...long, content }, SETTINGS)) as { messages: { content: string }[] };
    expect(body.messages[1]!.content).toBe(
      `Subject: guide/deploy\nTitle: Deploying\n\n${'a'.repeat(24_000)}\n\n[The document goes on: these are its first 24000 of 30000 characters.]`,
    );
  });

  it('never cuts a character in two', async () => {
    const long = subjectOf(await catalogOf(), 'guide', 'deploy');
    const content = `${'a'.repeat(LLM_CONTENT_LIMIT - 1)}😀${'b'.repeat(10)}`;
    const body = JSON.parse(buildSummaryRequest({ ...long, content }, SETTINGS)) as { messages: { content: string }[] };
    expect(body.messages[1]!.content).toBe(
      `Subject: guide/deploy\nTitle: Deploying\n\n${'a'.repeat(23_999)}\n\n[The document goes on: these are its first 23999 of 24011 characters.]`,
    );
  });
});

describe('parseSummaryResponse', () => {
  const answer = (content: unknown): string => JSON.stringify({ id: 'x', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });

  it('takes choices[0].message.content as one paragraph', () => {
    expect(parseSummaryResponse(answer('  How we ship:\n\n  make deploy,\tthen watch.  '))).toEqual({ ok: true, summary: 'How we ship: make deploy, then watch.' });
  });

  it('cuts a long answer near 300 characters, as extractive summaries are', () => {
    const text = `${'One sentence here. '.repeat(12)}${'x'.repeat(200)}`;
    expect(parseSummaryResponse(answer(text))).toEqual({ ok: true, summary: 'One sentence here. '.repeat(12).trim() });
  });

  it("drops a reasoning model's leading <think> block", () => {
    expect(parseSummaryResponse(answer('<think>\nThe user wants…\n</think>\n\nHow we ship.'))).toEqual({ ok: true, summary: 'How we ship.' });
  });

  it.each<[string, string, SummaryFailure]>([
    ['HTML', '<!DOCTYPE html>\n<html><body>Bad gateway</body></html>', { reason: 'not-json', start: '<!DOCTYPE html> <html><body>Bad gateway<' }],
    ['truncated JSON', '{"choices": [{"message": {"content": "How we', { reason: 'not-json', start: '{"choices": [{"message": {"content": "Ho' }],
    ['an empty body', '', { reason: 'not-json', start: '' }],
    ['JSON without choices', '{"error": {"message": "overloaded"}}', { reason: 'no-content' }],
    ['empty choices', '{"choices": []}', { reason: 'no-content' }],
    ['a null content', answer(null), { reason: 'no-content' }],
    ['JSON null', 'null', { reason: 'no-content' }],
    ['an empty content', answer(''), { reason: 'empty' }],
    ['a blank content', answer(' \n\t '), { reason: 'empty' }],
    ['only a <think> block', answer('<think>hmm</think>'), { reason: 'empty' }],
  ])('fails on %s', (_name, body, failure) => {
    expect(parseSummaryResponse(body)).toEqual({ ok: false, failure });
  });

  it('normalizeSummary keeps a short text as it is', () => {
    expect(normalizeSummary('Short.')).toBe('Short.');
  });
});

describe('applySummaries', () => {
  it('replaces the summary and makes the keywords again (title, summary, headings)', async () => {
    const catalog = await catalogOf();
    const deploy = subjectOf(catalog, 'guide', 'deploy');
    expect([deploy.summary, deploy.keywords]).toEqual(['Ship with make deploy.', ['deploying', 'ship', 'make', 'deploy', 'rolling', 'back']]);
    const applied = applySummaries(catalog, SETTINGS, new Map([[llmSummaryKey(SETTINGS, deploy.sha256), 'Releases go out with canary hosts first.']]));
    const after = subjectOf(applied, 'guide', 'deploy');
    expect(after).toEqual({
      ...deploy,
      summary: 'Releases go out with canary hosts first.',
      keywords: ['deploying', 'releases', 'canary', 'hosts', 'first', 'rolling', 'back'],
    });
    expect(deploy.summary).toBe('Ship with make deploy.');
    // Every other subject is the same object; so are the knowledge section and the profiles.
    const others = (c: Catalog) => c.topics.flatMap((t) => t.subjects.filter((s) => s.slug !== 'deploy'));
    expect(others(applied).every((s, i) => s === others(catalog)[i])).toBe(true);
    expect([applied.knowledge, applied.profiles]).toEqual([catalog.knowledge, catalog.profiles]);
  });

  it('never gives a model summary to a subject the model does not summarise, even under its key', async () => {
    const catalog = await catalogOf();
    const summaries = new Map(catalog.topics.flatMap((t) => t.subjects.map((s) => [llmSummaryKey(SETTINGS, s.sha256), `LLM ${s.slug}`] as const)));
    const applied = applySummaries(catalog, SETTINGS, summaries);
    expect(applied.topics.flatMap((t) => t.subjects.map((s) => [s.slug, s.summary]))).toEqual([
      ['blank', ''],
      ['deploy', 'LLM deploy'],
      ['described', 'The author says what it is.'],
      ['empty', ''],
      ['huge', ''],
      ['logo', ''],
      ['ports', 'LLM ports'],
      ['secret', 'Hidden text.'],
      ['pattern/zod', 'Use Zod for API validation'],
    ]);
  });

  it('keeps summaries made with other settings out', async () => {
    const catalog = await catalogOf();
    const deploy = subjectOf(catalog, 'guide', 'deploy');
    const applied = applySummaries(catalog, { ...SETTINGS, model: 'other' }, new Map([[llmSummaryKey(SETTINGS, deploy.sha256), 'Old model.']]));
    expect(subjectOf(applied, 'guide', 'deploy').summary).toBe('Ship with make deploy.');
  });
});

describe('endsSummaryCalls', () => {
  it('is true for an unreachable endpoint, a refused key and a wrong URL or model; false otherwise', () => {
    const failures: SummaryFailure[] = [
      { reason: 'unreachable', detail: 'connection refused' },
      { reason: 'http', status: 401 },
      { reason: 'http', status: 403 },
      { reason: 'http', status: 404 },
      { reason: 'http', status: 429 },
      { reason: 'http', status: 500 },
      { reason: 'timeout' },
      { reason: 'network', detail: 'ECONNRESET' },
      { reason: 'not-json', start: '<html>' },
      { reason: 'no-content' },
      { reason: 'empty' },
    ];
    expect(failures.map(endsSummaryCalls)).toEqual([true, true, true, true, false, false, false, false, false, false, false]);
  });
});

describe('summaryFailureMessages', () => {
  const context = { endpoint: 'http://llm.test/v1/chat/completions', model: 'tiny', apiKeyEnv: 'SYLLABUS_LLM_KEY', keySent: false, timeoutSeconds: 0.5 };
  const names = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `guide/${prefix}${i + 1}.md`);

  it('groups failures by what happened, in order of first occurrence, naming three subjects and a count', () => {
    const failures = [
      ...names(5, 'slow').map((name) => ({ failure: { reason: 'timeout' } as const, name })),
      { failure: { reason: 'http', status: 500 } as const, name: 'guide/a.md' },
      { failure: { reason: 'timeout' } as const, name: 'guide/late.md' },
      { failure: { reason: 'http', status: 502 } as const, name: 'guide/b.md' },
    ];
    expect(summaryFailureMessages(failures, context)).toEqual([
      'LLM summaries: no answer from http://llm.test/v1/chat/completions within 0.5 s. 6 subjects keep their extractive summary (guide/slow1.md, guide/slow2.md, guide/slow3.md and 3 more). Raise kb.summaries.timeout_seconds, or lower kb.summaries.concurrency. The next build asks again for the summaries still missing.',
      'LLM summaries: HTTP 500 from http://llm.test/v1/chat/completions. 1 subject keeps its extractive summary (guide/a.md). The next build asks again for the summaries still missing.',
      'LLM summaries: HTTP 502 from http://llm.test/v1/chat/completions. 1 subject keeps its extractive summary (guide/b.md). The next build asks again for the summaries still missing.',
    ]);
  });

  it('says how to fix each kind of failure', () => {
    const one = (failure: SummaryFailure, keySent = false) => summaryFailureMessages([{ failure, name: 'guide/a.md' }], { ...context, keySent })[0];
    expect([
      one({ reason: 'http', status: 401 }),
      one({ reason: 'http', status: 401 }, true),
      one({ reason: 'http', status: 404 }),
      one({ reason: 'http', status: 429 }),
      one({ reason: 'http', status: 400 }),
      one({ reason: 'unreachable', detail: 'connection refused' }),
      one({ reason: 'network', detail: 'ECONNRESET' }),
      one({ reason: 'not-json', start: '<html>' }),
      one({ reason: 'no-content' }),
      one({ reason: 'empty' }),
    ]).toEqual([
      "LLM summaries: HTTP 401 from http://llm.test/v1/chat/completions: no key was sent, SYLLABUS_LLM_KEY is not set; no more calls were made. 1 subject keeps its extractive summary (guide/a.md). Set SYLLABUS_LLM_KEY to the endpoint's API key (kb.summaries.api_key_env names the variable).",
      'LLM summaries: HTTP 401 from http://llm.test/v1/chat/completions: the key was refused; no more calls were made. 1 subject keeps its extractive summary (guide/a.md). Check the key in SYLLABUS_LLM_KEY (the variable kb.summaries.api_key_env names).',
      'LLM summaries: HTTP 404 from http://llm.test/v1/chat/completions; no more calls were made. 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions). Check kb.summaries.model too ("tiny").',
      'LLM summaries: HTTP 429 from http://llm.test/v1/chat/completions (too many requests). 1 subject keeps its extractive summary (guide/a.md). Lower kb.summaries.concurrency. The next build asks again for the summaries still missing.',
      'LLM summaries: HTTP 400 from http://llm.test/v1/chat/completions: the request was refused. 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.model ("tiny") and kb.summaries.prompt. The next build asks again for the summaries still missing.',
      'LLM summaries: cannot reach http://llm.test/v1/chat/completions (connection refused); no more calls were made. 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.endpoint and that the server is running. The next build asks again for the summaries still missing.',
      'LLM summaries: the call to http://llm.test/v1/chat/completions failed (ECONNRESET). 1 subject keeps its extractive summary (guide/a.md). The next build asks again for the summaries still missing.',
      'LLM summaries: the answer of http://llm.test/v1/chat/completions is not JSON (it starts "<html>"). 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions).',
      'LLM summaries: the answer of http://llm.test/v1/chat/completions has no text at choices[0].message.content. 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.endpoint: it must be an OpenAI-compatible chat completions URL (such as https://…/v1/chat/completions).',
      'LLM summaries: the model "tiny" answered with empty text. 1 subject keeps its extractive summary (guide/a.md). Check kb.summaries.prompt and kb.summaries.model. The next build asks again for the summaries still missing.',
    ]);
  });

  it('is empty without failures', () => {
    expect(summaryFailureMessages([], context)).toEqual([]);
  });
});

describe('the built-in prompt', () => {
  it('is quoted word for word in reference/configuration', () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../../content/reference/configuration.md'), 'utf8');
    expect(doc).toContain(`\n\`\`\`text\n${DEFAULT_SUMMARY_PROMPT}\n\`\`\`\n`);
  });
});

describe('the [kb.summaries] table', () => {
  const FILE = path.join('/kb', 'kb.toml');
  const load = (text: string) => loadConfig([{ file: FILE, text: `${text}\n[kb.topic.t]\nsubjects = "t"\n` }]);

  it('applies the defaults, the built-in prompt included', () => {
    expect(load('[kb.summaries]\nendpoint = "http://127.0.0.1:8080/v1/chat/completions"\nmodel = "m"\n').config?.kb.summaries).toEqual({
      endpoint: 'http://127.0.0.1:8080/v1/chat/completions',
      model: 'm',
      api_key_env: 'SYLLABUS_LLM_KEY',
      prompt: DEFAULT_SUMMARY_PROMPT,
      concurrency: 4,
      timeout_seconds: 30,
    });
  });

  it('is absent without the table', () => {
    expect(load('').config?.kb.summaries).toBeUndefined();
  });

  it('needs an endpoint and a model: configuration errors at the table', () => {
    const { config, diagnostics } = load('[kb.summaries]\nconcurrency = 2\n');
    expect(config).toBeUndefined();
    const message = (key: string) =>
      `kb.summaries.${key}: missing. LLM summaries need endpoint = "https://…/v1/chat/completions" and model = "<model name>"; remove [kb.summaries] to keep extractive summaries only.`;
    expect(diagnostics).toEqual([
      { kind: 'config-error', code: 'missing-summaries-key', message: message('endpoint'), file: FILE, line: 1, column: 1 },
      { kind: 'config-error', code: 'missing-summaries-key', message: message('model'), file: FILE, line: 1, column: 1 },
    ]);
  });

  it('needs an http(s) endpoint', () => {
    const { config, diagnostics } = load('[kb.summaries]\nmodel = "m"\nendpoint = "ftp://llm/v1"\n');
    expect(config).toBeUndefined();
    expect(diagnostics).toEqual([
      {
        kind: 'config-error',
        code: 'bad-summaries-endpoint',
        message: 'kb.summaries.endpoint: "ftp://llm/v1" is not an http(s) URL. Give the whole chat completions URL, e.g. "https://api.openai.com/v1/chat/completions".',
        file: FILE,
        line: 3,
        column: 1,
      },
    ]);
  });

  it('merges across config files: a later file may complete the table', () => {
    const { config } = loadConfig([
      { file: FILE, text: '[kb.summaries]\nendpoint = "https://a.test/v1/chat/completions"\n[kb.topic.t]\nsubjects = "t"\n' },
      { file: path.join('/kb', 'more.toml'), text: '[kb.summaries]\nmodel = "m"\nprompt = "Mine."\n' },
    ]);
    expect(config?.kb.summaries).toEqual({
      endpoint: 'https://a.test/v1/chat/completions',
      model: 'm',
      api_key_env: 'SYLLABUS_LLM_KEY',
      prompt: 'Mine.',
      concurrency: 4,
      timeout_seconds: 30,
    });
  });
});
