/**
 * `syllabus mcp`, driven by the MCP SDK's own client: every answer is compared whole with what the
 * CLI prints for the same call, and with the fixtures' expected outputs (written by hand from the
 * pages of content/). The spec-example fixture's server, the guide's client configuration and the
 * starting and stopping tests run the real bin as a child process, over its stdin and stdout; the
 * other servers run the command line's own `main` in this process, over in-memory streams (what
 * the bin hands it), as does the CLI side: test/cli/fixtures.test.ts proves the bin prints exactly
 * what `main` does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CallToolResultSchema, ResourceListChangedNotificationSchema, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_HELP } from '../../src/cli/mcp.ts';
import { ROOT, runCli, runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import {
  FIND_TOOL,
  READ_ONLY_ANNOTATIONS,
  cliPrompt,
  cliResult,
  errorResult,
  listedTools,
  startMcp,
  startMcpInProcess,
  startServer,
  textResult,
  type McpSession,
} from './mcp-client.ts';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');
const SPEC_EXAMPLE = path.join(FIXTURES, 'spec-example', 'kb.toml');

/** The learn tool's fixed parameters schema (content/reference/cli/schema.md), byte for byte. */
const SPEC_PARAMETERS =
  '{"type":"object","properties":{"topic":{"type":"string","description":"The topic ID or title to learn about."},"subjects":{"type":["string","array","null"],"description":"Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.","items":{"type":"string"}}},"required":["topic"],"additionalProperties":false}';

const USAGE = 'Call learn with {"topic": "<topic id or title>"} to list a topic, and add "subjects": "<pattern>" or ["<pattern>", …] to load subjects.';

/**
 * The configuration error the CLI prints for `args` (exit 2), as the server gives it: the
 * `error: ` lines without their prefix.
 */
async function cliConfigError(args: readonly string[]): Promise<string> {
  const run = await runCliInProcess(args);
  expect(run.code).toBe(2);
  const lines = run.stderr.replace(/\n$/, '').split('\n');
  for (const line of lines) expect(line).toMatch(/^error: /);
  return lines.map((line) => line.slice('error: '.length)).join('\n');
}

/** The `learn` tool's arguments for CLI arguments `learn <topic> [pattern…]`. */
function toolArguments(topic: string, patterns: readonly string[]): Record<string, unknown> {
  if (patterns.length === 0) return { topic };
  return { topic, subjects: patterns.length === 1 ? patterns[0] : [...patterns] };
}

/** The prompt's text, as the server gives it. */
async function promptText(session: McpSession): Promise<string> {
  const prompt = await session.client.getPrompt({ name: 'knowledge' });
  expect(prompt.messages).toHaveLength(1);
  const [message] = prompt.messages;
  expect(message!.role).toBe('user');
  expect(message!.content.type).toBe('text');
  return (message!.content as { text: string }).text;
}

/** Calls `probe` until `done` holds for its answer (edits reach the server through file watchers). */
async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}. Last answer: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sessions: McpSession[] = [];
/** `syllabus mcp <args>` in this process (`bin`: the real bin, as a child process), closed after the file. */
async function start(args: readonly string[], how: 'in-process' | 'bin' = 'in-process'): Promise<McpSession> {
  const session = await (how === 'bin' ? startMcp(args) : startMcpInProcess(args));
  sessions.push(session);
  return session;
}
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

describe('the spec-example fixture', () => {
  const config = ['--config', SPEC_EXAMPLE];
  let session: McpSession;
  beforeAll(async () => {
    session = await start(config, 'bin');
  });

  it('names itself syllabus, with the version of package.json', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(session.client.getServerVersion()).toEqual({ name: 'syllabus', version: manifest.version });
  });

  it('lists the learn tool exactly as `schema --tool` prints it, with its fixed parameters schema verbatim, then the find tool', async () => {
    const { tools } = await session.client.listTools();
    expect(tools).toEqual(await listedTools(config));
    expect(tools).toEqual([
      {
        name: 'learn',
        description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)\n- skills (**Learnable Assistant Skills**)',
        inputSchema: JSON.parse(SPEC_PARAMETERS),
        annotations: READ_ONLY_ANNOTATIONS,
      },
      FIND_TOOL,
    ]);
    expect(JSON.stringify(tools[0]!.inputSchema)).toBe(SPEC_PARAMETERS);
  });

  it.each([
    ['a listing', 'project', []],
    ['a listing by title', 'General Project Knowledge', []],
    ['one subject, bare', 'project', ['code-quality']],
    ['several subjects, in blocks', 'project', ['maintainers/jean', 'code-quality']],
    ['a glob, in blocks', 'project', ['**']],
    ['a hidden subject by exact slug', 'skills', ['ast-grep/rules']],
    ['a hidden subject by its slug as on disk', 'skills', ['ast-grep/.rules']],
    ['no match: a glob never reaches hidden subjects', 'skills', ['ast-grep/*']],
    ['no match: two patterns', 'project', ['nope', 'x*']],
    ['an unknown topic', 'nope', []],
    ['an unknown topic, with patterns', 'nope', ['a']],
  ] as const)('learn: %s, as the CLI prints it', async (_what, topic, patterns) => {
    const result = await session.call('learn', toolArguments(topic, patterns));
    expect(result).toEqual(await cliResult(['learn', topic, ...patterns, ...config]));
  });

  it('learn: subjects null, "" or [] list the topic', async () => {
    const listing = await cliResult(['learn', 'project', ...config]);
    expect(listing.isError).toBeUndefined();
    for (const subjects of [null, '', [], ['', '']]) {
      expect(await session.call('learn', { topic: 'project', subjects })).toEqual(listing);
    }
  });

  it.each([
    ['no topic', {}, `Invalid arguments: "topic" must be a string and is required. ${USAGE}`],
    ['a topic that is not a string', { topic: 3 }, `Invalid arguments: "topic" must be a string. ${USAGE}`],
    ['a null topic', { topic: null }, `Invalid arguments: "topic" must be a string. ${USAGE}`],
    ['subjects a number', { topic: 'project', subjects: 5 }, `Invalid arguments: "subjects" must be a string, an array of strings or null. ${USAGE}`],
    [
      'subjects an array with a number',
      { topic: 'project', subjects: ['code-quality', 1] },
      `Invalid arguments: "subjects" must be a string, an array of strings or null. ${USAGE}`,
    ],
    ['subjects an object', { topic: 'project', subjects: { a: 1 } }, `Invalid arguments: "subjects" must be a string, an array of strings or null. ${USAGE}`],
    ['an unknown argument', { topic: 'project', subject: 'code-quality' }, `Invalid arguments: unknown argument "subject". ${USAGE}`],
    ['no arguments at all', undefined, `Invalid arguments: expected an object. ${USAGE}`],
    ['a string instead of an object', 'project', `Invalid arguments: expected an object. ${USAGE}`],
    ['an array instead of an object', ['project'], `Invalid arguments: expected an object. ${USAGE}`],
    ['null instead of an object', null, `Invalid arguments: expected an object. ${USAGE}`],
  ])('learn with %s: an error result that says how to call it', async (_what, args, message) => {
    expect(await session.call('learn', args)).toEqual(errorResult(message));
  });

  it('a call without a tool name: a protocol error', async () => {
    for (const params of [{ arguments: {} }, { name: 5 }, {}]) {
      await expect(session.client.request({ method: 'tools/call', params }, CallToolResultSchema)).rejects.toThrow(
        /^MCP error -32602: Invalid tools\/call request: params\.name must be the name of a tool \("learn" or "find"\)\.$/,
      );
    }
  });

  it('an unknown tool: an error result', async () => {
    expect(await session.call('search', { query: 'x' })).toEqual(errorResult('Unknown tool "search". The tools are "learn" and "find".'));
  });

  it('offers the <knowledge> section as the prompt "knowledge", as `syllabus prompt` prints it', async () => {
    const { prompts } = await session.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['knowledge']);
    const expected = fs.readFileSync(path.join(FIXTURES, 'spec-example', 'cases', 'prompt', 'stdout'), 'utf8').replace(/\n$/, '');
    expect(await cliPrompt(config)).toBe(expected);
    expect(await promptText(session)).toBe(expected);
  });

  it('offers the section as the resource syllabus://knowledge, then the catalog, then every listed subject', async () => {
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => [r.uri, r.mimeType])).toEqual([
      ['syllabus://knowledge', 'text/plain'],
      ['syllabus://index', 'application/json'],
      ['syllabus://project/code-quality', 'text/markdown'],
      ['syllabus://project/maintainers/jean', 'text/markdown'],
      ['syllabus://project/maintainers/ryan', 'text/markdown'],
      ['syllabus://skills/ast-grep', 'text/markdown'],
    ]);
    expect(resources[2]).toEqual({
      uri: 'syllabus://project/code-quality',
      name: 'project/code-quality',
      title: 'Code quality',
      description: 'Run the linter before you push.',
      mimeType: 'text/markdown',
      size: fs.statSync(path.join(FIXTURES, 'spec-example', 'project', 'code-quality.md')).size,
    });
    const { contents } = await session.client.readResource({ uri: 'syllabus://knowledge' });
    expect(contents).toEqual([{ uri: 'syllabus://knowledge', mimeType: 'text/plain', text: await cliPrompt(config) }]);
  });

  it('offers the subject resource template, and reads a subject as learn loads its exact slug (a hidden one too)', async () => {
    expect(await session.client.listResourceTemplates()).toEqual({
      resourceTemplates: [
        {
          uriTemplate: 'syllabus://{topic}/{+slug}',
          name: 'subject',
          title: 'A subject',
          description: 'A subject of the knowledge base, as the learn tool loads it by its exact slug. Hidden subjects are listed nowhere but can be read by their URI.',
          mimeType: 'text/markdown',
        },
      ],
    });
    for (const [topic, slug] of [
      ['project', 'maintainers/jean'],
      ['skills', 'ast-grep/rules'],
    ] as const) {
      const uri = `syllabus://${topic}/${slug}`;
      const expected = await cliResult(['learn', topic, slug, ...config]);
      expect(expected.isError).toBeUndefined();
      expect((await session.client.readResource({ uri })).contents).toEqual([{ uri, mimeType: 'text/markdown', text: (expected.content[0] as { text: string }).text }]);
    }
    await expect(session.client.readResource({ uri: 'syllabus://project/nope' })).rejects.toThrow(
      /^MCP error -32002: No subjects in topic "project" match "nope"\. Call learn with only the topic to list its subjects\.$/,
    );
  });

  it('gives the <knowledge> section as its instructions, and declares listChanged (it follows the files)', async () => {
    expect(session.client.getInstructions()).toBe(await cliPrompt(config));
    expect(session.client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, prompts: {}, resources: { listChanged: true } });
  });

  it('answers an unknown prompt or resource with a protocol error', async () => {
    await expect(session.client.getPrompt({ name: 'other' })).rejects.toThrow(/^MCP error -32602: Unknown prompt "other"\. The only prompt is "knowledge"\.$/);
    await expect(session.client.readResource({ uri: 'syllabus://other' })).rejects.toThrow(
      /^MCP error -32002: Unknown resource "syllabus:\/\/other"\. Resources: syllabus:\/\/knowledge, syllabus:\/\/index, and syllabus:\/\/\{topic\}\/\{\+slug\} for each subject\.$/,
    );
  });

  it('still answers after all of that, and wrote nothing to stderr', async () => {
    expect(await session.call('learn', { topic: 'project', subjects: 'code-quality' })).toEqual(textResult('# Code quality\n\nRun the linter before you push.'));
    expect(session.stderr()).toBe('');
  });
});

/**
 * Every `learn` case of these fixtures, through the server: the result equals the case's expected
 * output; for the fixtures marked, also what the CLI prints (run again here).
 */
const CASE_FIXTURES: [name: string, compareWithCli: boolean][] = [
  ['spec-example', true],
  ['hidden-subjects', true],
  ['disabled-globs', true],
  ['topic-title-resolution', true],
  ['nothing-listable', true],
  ['glob-dialect', false],
  ['format-fences', false],
  ['odd-file-names', false],
  ['duplicate-slugs', false],
];

for (const [fixtureName, compareWithCli] of CASE_FIXTURES) {
  describe(`the ${fixtureName} fixture's learn cases`, () => {
    const fixture = path.join(FIXTURES, fixtureName);
    const config = ['--config', path.join(fixture, 'kb.toml')];
    const cases = fs
      .readdirSync(path.join(fixture, 'cases'))
      .sort()
      .map((name) => ({ name, dir: path.join(fixture, 'cases', name), args: JSON.parse(fs.readFileSync(path.join(fixture, 'cases', name, 'args'), 'utf8')) as string[] }))
      .filter(({ args }) => args[0] === 'learn' && !args.slice(1).some((arg) => arg.startsWith('-')));
    let session: McpSession;
    beforeAll(async () => {
      session = await start(config);
    });

    it('has learn cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });

    it.each(cases)('$name', async ({ dir, args }) => {
      const [, topic, ...patterns] = args;
      const read = (file: string): string | undefined => (fs.existsSync(path.join(dir, file)) ? fs.readFileSync(path.join(dir, file), 'utf8') : undefined);
      const exit = Number(read('exit') ?? '0');
      const expected =
        exit === 0
          ? textResult((read('stdout') ?? '').replace(/\n$/, ''))
          : errorResult(
              read('stderr')!
                .replace(/^error: /, '')
                .replace(/\n$/, ''),
            );
      const result = await session.call('learn', toolArguments(topic!, patterns));
      expect(result).toEqual(expected);
      if (compareWithCli) expect(result).toEqual(await cliResult([...args, ...config]));
    });
  });
}

describe('no listable topic', () => {
  const config = ['--config', path.join(FIXTURES, 'nothing-listable', 'kb.toml')];
  let session: McpSession;
  beforeAll(async () => {
    session = await start(config);
  });

  it('lists no learn tool (`schema --tool` prints null), only find', async () => {
    expect(await listedTools(config)).toEqual([FIND_TOOL]);
    expect((await session.client.listTools()).tools).toEqual([FIND_TOOL]);
  });

  it('still lists the prompt, whose text is empty, as is the resource', async () => {
    expect(await cliPrompt(config)).toBe('');
    expect((await session.client.listPrompts()).prompts.map((p) => p.name)).toEqual(['knowledge']);
    expect(await promptText(session)).toBe('');
    const { contents } = await session.client.readResource({ uri: 'syllabus://knowledge' });
    expect(contents).toEqual([{ uri: 'syllabus://knowledge', mimeType: 'text/plain', text: '' }]);
  });

  it('still loads a hidden subject by exact slug', async () => {
    const args = ['learn', 'hidden-only', 'secret', ...config];
    expect(await session.call('learn', { topic: 'hidden-only', subjects: 'secret' })).toEqual(await cliResult(args));
  });
});

describe('content errors', () => {
  it('are warned about on stderr as the CLI warns, each once, and the answers go on', async () => {
    const config = ['--config', path.join(FIXTURES, 'duplicate-slugs', 'kb.toml')];
    const session = await start(config);
    // The instructions (the <knowledge> section) are read at start: the walk warns about every duplicate then.
    const listing = runCli(['learn', 'd', ...config]);
    expect(listing.stderr.split('\n').filter((line) => line !== '')).toHaveLength(7);
    expect(
      await until(
        async () => session.stderr(),
        (text) => text === listing.stderr,
        'the warnings of the walk',
      ),
    ).toBe(listing.stderr);

    const pointed = runCli(['learn', 'd', 'a', ...config]);
    expect(await session.call('learn', { topic: 'd', subjects: 'a' })).toEqual(textResult(pointed.stdout.replace(/\n$/, '')));
    expect(await session.call('learn', { topic: 'd' })).toEqual(textResult(listing.stdout.replace(/\n$/, '')));
    expect(await promptText(session)).toBe(await cliPrompt(config));
    // Nothing warned twice.
    expect(session.stderr()).toBe(listing.stderr);
  });
});

describe('-k and --profile', () => {
  const KB = {
    'kb.toml': `[kb.topic.project]
title = "General Project Knowledge"
subjects = "project"
learned = ["maintainers/*"]

[kb.topic.skills]
subjects = "skills"

[profile.reviewer]
knowledge = ["skills/ast-grep"]
`,
    'project/maintainers/jean.md': 'Jean maintains the CLI.\n',
    'project/code-quality.md': '# Code quality\n\nWrite tests.\n',
    'skills/ast-grep.md': 'Use ast-grep.\n',
    'skills/regex.md': 'Use regexes sparingly.\n',
  };

  it.each([
    ['-k topic/glob', ['-k', 'project/code-quality']],
    ['--profile', ['--profile', 'reviewer']],
    ['both', ['--profile', 'reviewer', '-k', 'skills/regex']],
  ])('%s: the prompt, the tool and learn agree with the CLI given the same flags', async (_what, flags) => {
    const dir = makeTree(KB);
    const args = ['--config', path.join(dir, 'kb.toml'), ...flags];
    const session = await start(args);
    expect(await promptText(session)).toBe(await cliPrompt(args));
    expect((await session.client.listTools()).tools).toEqual(await listedTools(args));
    for (const topic of ['project', 'skills']) {
      expect(await session.call('learn', { topic })).toEqual(await cliResult(['learn', topic, ...args]));
    }
    // A glob skips what the flags pre-loaded.
    expect(await session.call('learn', { topic: 'skills', subjects: '*' })).toEqual(await cliResult(['learn', 'skills', '*', ...args]));
  });

  it('without flags, the same knowledge base answers differently (the flags were applied)', async () => {
    const dir = makeTree(KB);
    const withFlag = await cliPrompt(['--config', path.join(dir, 'kb.toml'), '--profile', 'reviewer']);
    const session = await start(['--config', path.join(dir, 'kb.toml')]);
    expect(await promptText(session)).toBe(await cliPrompt(['--config', path.join(dir, 'kb.toml')]));
    expect(await promptText(session)).not.toBe(withFlag);
  });
});

describe('edits while the server runs', () => {
  // -k is applied again each time the config is read again.
  let dir: string;
  let args: string[];
  let session: McpSession;
  beforeAll(async () => {
    dir = makeTree({});
    fs.cpSync(path.join(FIXTURES, 'spec-example'), dir, { recursive: true });
    fs.rmSync(path.join(dir, 'cases'), { recursive: true });
    args = ['--config', path.join(dir, 'kb.toml'), '-k', 'skills/ast-grep'];
    session = await start(args);
  });

  const learn = (subjects?: string) => session.call('learn', subjects === undefined ? { topic: 'project' } : { topic: 'project', subjects });
  const write = (relative: string, text: string): void => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), text);
  };
  /** An editor's atomic save: a temporary file renamed over the old one. */
  const saveAtomically = (relative: string, text: string): void => {
    const temporary = path.join(dir, `${relative}.tmp~`);
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, path.join(dir, relative));
  };
  const settle = async (probe: () => Promise<CallToolResult>, cli: string[]): Promise<void> => {
    const expected = await cliResult([...cli, ...args]);
    const result = await until(probe, (r) => JSON.stringify(r) === JSON.stringify(expected), `${cli.join(' ')} to follow the edit`);
    expect(result).toEqual(expected);
  };

  it('follows an edit in place', async () => {
    expect(await learn('code-quality')).toEqual(textResult('# Code quality\n\nRun the linter before you push.'));
    write('project/code-quality.md', '# Code quality\n\nEdited in place.\n');
    await settle(() => learn('code-quality'), ['learn', 'project', 'code-quality']);
    expect(await learn('code-quality')).toEqual(textResult('# Code quality\n\nEdited in place.'));
  });

  it('follows atomic saves, again and again (the prompt is kept between calls: only a watcher can tell)', async () => {
    for (const round of [1, 2, 3]) {
      saveAtomically('project/maintainers/jean.md', `Jean, saved atomically, round ${round}.\n`);
      const prompt = await cliPrompt(args);
      expect(prompt).toContain(`Jean, saved atomically, round ${round}.`);
      expect(
        await until(
          () => promptText(session),
          (text) => text === prompt,
          `the prompt to follow save ${round}`,
        ),
      ).toBe(prompt);
    }
  });

  it('sees a new subject, a new folder, and then a new subject in that folder', async () => {
    write('project/new-subject.md', 'New.\n');
    await settle(() => learn(), ['learn', 'project']);
    write('project/deep/er/inner.md', 'Inner.\n');
    await settle(() => learn(), ['learn', 'project']);
    write('project/deep/er/second.md', 'Second.\n');
    await settle(() => learn(), ['learn', 'project']);
    expect(await learn('deep/er/*')).toEqual(textResult('<subject "deep/er/inner">\nInner.\n</subject>\n\n<subject "deep/er/second">\nSecond.\n</subject>'));
  });

  it('sees a deleted subject', async () => {
    fs.rmSync(path.join(dir, 'project', 'new-subject.md'));
    await settle(() => learn('new-subject'), ['learn', 'project', 'new-subject']);
    expect((await learn('new-subject')).isError).toBe(true);
  });

  it('follows an edit in place of a pre-loaded subject into the prompt, and of the config into the tool', async () => {
    write('project/maintainers/jean.md', 'Jean now maintains the server.\n');
    const prompt = await cliPrompt(args);
    expect(prompt).toContain('Jean now maintains the server.');
    expect(
      await until(
        () => promptText(session),
        (text) => text === prompt,
        'the prompt to follow the edit',
      ),
    ).toBe(prompt);

    const toml = fs.readFileSync(path.join(dir, 'kb.toml'), 'utf8');
    saveAtomically('kb.toml', toml.replace('title = "General Project Knowledge"', 'title = "Project, Renamed"'));
    const tools = await listedTools(args);
    expect(JSON.stringify(tools)).toContain('Project, Renamed');
    const listed = await until(
      async () => (await session.client.listTools()).tools,
      (now) => JSON.stringify(now) === JSON.stringify(tools),
      'the tool to follow the config',
    );
    expect(listed).toEqual(tools);
    expect(await promptText(session)).toBe(await cliPrompt(args));
  });

  it('answers every call with the configuration error while the config is broken, and keeps serving', async () => {
    const good = fs.readFileSync(path.join(dir, 'kb.toml'), 'utf8');
    write('kb.toml', `${good}\n[kb.topic.broken\nsubjects = "x"\n`);
    const message = await cliConfigError(['learn', 'project', ...args]);
    expect(message).toMatch(/kb\.toml:\d+:\d+: /);
    const result = await until(
      () => learn('code-quality'),
      (r) => r.isError === true,
      'the broken config to be seen',
    );
    expect(result).toEqual(errorResult(message));
    expect(await learn()).toEqual(errorResult(message));
    expect(await session.call('learn', { topic: 3 })).toEqual(errorResult(message));
    await expect(promptText(session)).rejects.toThrow(`MCP error -32603: ${message}`);
    await expect(session.client.listTools()).rejects.toThrow(`MCP error -32603: ${message}`);

    // A -k topic the config no longer has: the CLI's usage error, without its hint.
    write('kb.toml', good.replace('[kb.topic.skills]', '[kb.topic.skillz]'));
    const usage = await runCliInProcess(['learn', 'project', ...args]);
    expect(usage.code).toBe(2);
    const usageMessage = usage.stderr.split('\n')[0]!.slice('error: '.length);
    expect(usageMessage).toBe('-k "skills/ast-grep": unknown topic "skills". Valid topics: project, skillz.');
    expect(
      await until(
        () => learn(),
        (r) => JSON.stringify(r) === JSON.stringify(errorResult(usageMessage)),
        'the -k error',
      ),
    ).toEqual(errorResult(usageMessage));

    write('kb.toml', good);
    await settle(() => learn('code-quality'), ['learn', 'project', 'code-quality']);
    await settle(() => learn(), ['learn', 'project']);
  });
  it('tells the client that its tools and resources changed after an edit, and lists what changed', async () => {
    const seen: string[] = [];
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void seen.push('tools'));
    session.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void seen.push('resources'));
    write('project/notified.md', '# Notified\n\nA subject added while the client listens.\n');
    await until(
      async () => [...seen],
      (now) => now.includes('tools') && now.includes('resources'),
      'the list_changed notifications',
    );
    const { resources } = await session.client.listResources();
    expect(resources.find((r) => r.uri === 'syllabus://project/notified')).toEqual({
      uri: 'syllabus://project/notified',
      name: 'project/notified',
      title: 'Notified',
      description: 'A subject added while the client listens.',
      mimeType: 'text/markdown',
      size: 54,
    });
    fs.rmSync(path.join(dir, 'project', 'notified.md'));
  });
});

describe('the client configuration of the guide (content/agents/integration/mcp-client.json)', () => {
  it('starts the server as it says, and learn answers as the CLI does', async () => {
    const file = path.join(ROOT, 'content', 'agents', 'integration', 'mcp-client.json');
    const { mcpServers } = JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[] }> };
    const { command, args } = mcpServers['syllabus']!;
    expect([command, ...args]).toEqual(['npx', 'syllabus', 'mcp', '--config', 'content/kb.toml']);
    // The guide page shows the same configuration as the file.
    const page = fs.readFileSync(path.join(ROOT, 'content', 'agents', 'integration', 'mcp.md'), 'utf8');
    expect(JSON.parse(/```json\n([\s\S]*?)```/.exec(page)![1]!)).toEqual(JSON.parse(fs.readFileSync(file, 'utf8')));
    const session = await startServer(command, args);
    sessions.push(session);
    expect((await session.client.listTools()).tools).toEqual(await listedTools(['--config', 'content/kb.toml']));
    expect(await session.call('learn', { topic: 'guide' })).toEqual(await cliResult(['learn', 'guide', '--config', 'content/kb.toml']));
    expect(await promptText(session)).toBe(await cliPrompt(['--config', 'content/kb.toml']));
  });
});

describe('starting and stopping', () => {
  it('exits 0 with nothing on stdout when the client closes stdin', () => {
    const run = runCli(['mcp', '--config', SPEC_EXAMPLE]);
    expect(run).toEqual({ stdout: '', stderr: '', code: 0 });
  });

  it('prints its help', () => {
    expect(runCli(['mcp', '--help'])).toEqual({ stdout: `${MCP_HELP}\n`, stderr: '', code: 0 });
  });

  it('does not start on a configuration error (exit 2, the error as every command prints it)', async () => {
    const missing = path.join(makeTree({}), 'kb.toml');
    const run = runCli(['mcp', '--config', missing]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe((await runCliInProcess(['prompt', '--config', missing])).stderr);
    expect(run.stderr).toMatch(/^error: /);
  });

  it('does not start with a -k topic that does not exist', () => {
    const run = runCli(['mcp', '--config', SPEC_EXAMPLE, '-k', 'nope/x']);
    expect(run).toEqual({
      stdout: '',
      stderr: 'error: -k "nope/x": unknown topic "nope". Valid topics: project, skills.\nRun "syllabus mcp --help" for usage.\n',
      code: 2,
    });
  });

  it('on stdio, refuses a host that gives it no streams, before it reads the knowledge base (exit 2)', async () => {
    expect(await runCliInProcess(['mcp', '--config', path.join(makeTree({}), 'kb.toml')])).toEqual({
      stdout: '',
      stderr: 'error: mcp on stdio needs the streams of a process, and this host gives none. Run it with --http instead.\n',
      code: 2,
    });
  });

  it('takes no arguments', () => {
    expect(runCli(['mcp', 'project', '--config', SPEC_EXAMPLE])).toEqual({
      stdout: '',
      stderr: 'error: mcp takes no arguments (got "project").\nRun "syllabus mcp --help" for usage.\n',
      code: 2,
    });
  });
});
