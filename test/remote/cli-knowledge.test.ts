/**
 * `prompt`, `schema` and `learn` with `--remote` and `--profile` / `-k`: the site's knowledge
 * files as they are, or the section rendered by the core with more subjects pre-loaded. Through
 * the command line's `main` in this process, against a hand-written site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEARN_PARAMETERS } from '../../src/kb/index.ts';
import { countTokens, loadTokenizer } from '../../src/kb/catalog/tokens.ts';
import { closedPortUrl, fakeSiteFiles, serveFake, serveFiles, type FakeServer } from './fake-site.ts';
import { runCliInProcess } from '../helpers/run-cli.ts';

const TOOL_DESCRIPTION = 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- t (**Tee**)\n- u';
const FILES = fakeSiteFiles(
  [
    {
      id: 't',
      title: 'Tee',
      introduction: 'All about tees.',
      description: 'The tee topic.',
      subjects: [
        { slug: 'a', content: 'Alpha' },
        { slug: 'b', content: 'Beta', learned: true },
        { slug: 'c', content: 'Gamma' },
        { slug: 'h', content: 'Hidden', hidden: true },
      ],
    },
    { id: 'u', subjects: [{ slug: 'one', content: 'One' }] },
  ],
  { prompt: 'THE SITE PROMPT', description: TOOL_DESCRIPTION, preloaded: { t: ['b'] } },
  { rev: { prompt: 'THE REVIEWER PROMPT', description: null, preloaded: { t: ['b', 'a'] } } },
);

const NOTE = `Use the \`learn\` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

let site: FakeServer;
beforeAll(async () => {
  site = await serveFake(serveFiles(FILES));
});
afterAll(async () => {
  await site.close();
});

/** Runs `syllabus <command> --remote <site> <args…>`. */
function run(command: string, ...args: string[]) {
  return runCliInProcess([command, '--remote', site.url, ...args]);
}

const ok = (stdout: string) => ({ code: 0, stdout: `${stdout}\n`, stderr: '' });
const usage = (message: string, command: string) => ({ code: 2, stdout: '', stderr: `error: ${message}\nRun "syllabus ${command} --help" for usage.\n` });

describe("the site's own knowledge files", () => {
  it("prompt prints the knowledge file's section", async () => {
    expect(await run('prompt')).toEqual(ok('THE SITE PROMPT'));
  });

  it('prompt --json prints its prompt, tool and tokens', async () => {
    const result = await run('prompt', '--json');
    expect(result).toEqual(
      ok(JSON.stringify({ prompt: 'THE SITE PROMPT', tool: { name: 'learn', description: TOOL_DESCRIPTION, parameters: LEARN_PARAMETERS }, tokens: 7 }, null, 2)),
    );
  });

  it("prompt --profile prints the profile's section", async () => {
    expect(await run('prompt', '--profile', 'rev')).toEqual(ok('THE REVIEWER PROMPT'));
  });

  it("schema --tool prints the knowledge file's tool; a profile's may be null", async () => {
    expect(await run('schema', '--tool')).toEqual(ok(JSON.stringify({ name: 'learn', description: TOOL_DESCRIPTION, parameters: LEARN_PARAMETERS }, null, 2)));
    expect(await run('schema', '--tool', '--profile', 'rev')).toEqual(ok('null'));
  });

  it('schema without --tool prints the fixed parameters after reading the knowledge file', async () => {
    expect(await run('schema')).toEqual(ok(JSON.stringify(LEARN_PARAMETERS, null, 2)));
    const down = await closedPortUrl();
    expect(await runCliInProcess(['schema', '--remote', down])).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: Cannot reach ${down}/kb/knowledge.json: connection refused (ECONNREFUSED). Check the --remote URL and that the site is up.\n`,
    });
  });

  it('learn --profile: the profile\'s pre-loaded subjects are "already learned"', async () => {
    expect(await run('learn', 't', '--profile', 'rev')).toEqual(
      ok(
        '# Topic: Tee\n\nThe tee topic.\n\n## Available subjects:\n\n- c\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- a\n- b',
      ),
    );
  });
});

describe('-k: more pre-loaded subjects, rendered by the core', () => {
  it('appends -k subjects after the pre-loaded ones, a hidden one by its exact slug', async () => {
    expect(await run('prompt', '-k', 't/h', '-k', 't/c', '-k', 't/b')).toEqual(
      ok(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "Tee">

The tee topic.

<subject "b">
Beta
</subject>

<subject "h">
Hidden
</subject>

<subject "c">
Gamma
</subject>
</topic>

The following knowledge topics are available to learn:

- t (**Tee**): All about tees.
- u

${NOTE}
</knowledge>`),
    );
  });

  it('-k topic alone pre-loads every listed subject; a topic with nothing left is not listed', async () => {
    await loadTokenizer();
    const prompt = `<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "Tee">

The tee topic.

<subject "b">
Beta
</subject>

<subject "a">
Alpha
</subject>

<subject "c">
Gamma
</subject>
</topic>

The following knowledge topics are available to learn:

- u

${NOTE}
</knowledge>`;
    const tool = { name: 'learn', description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- u', parameters: LEARN_PARAMETERS };
    expect(await run('prompt', '--json', '-k', 't')).toEqual(ok(JSON.stringify({ prompt, tool, tokens: countTokens(prompt) }, null, 2)));
  });

  it('schema --tool is null when -k leaves no topic listable', async () => {
    expect(await run('schema', '--tool', '-k', 't', '-k', 'u/one')).toEqual(ok('null'));
  });

  it("-k after a profile: the profile's subjects first", async () => {
    expect(await run('prompt', '--profile', 'rev', '-k', 't/c')).toEqual(
      ok(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "Tee">

The tee topic.

<subject "b">
Beta
</subject>

<subject "a">
Alpha
</subject>

<subject "c">
Gamma
</subject>
</topic>

The following knowledge topics are available to learn:

- u

${NOTE}
</knowledge>`),
    );
  });

  it('learn -k: globs skip the -k subjects too; an exact slug still loads', async () => {
    expect(await run('learn', 't', '*', '-k', 't/c')).toEqual(ok('<subject "a">\nAlpha\n</subject>'));
    expect(await run('learn', 't', 'c', '-k', 't/c')).toEqual(ok('Gamma'));
  });
});

describe('usage errors (exit 2)', () => {
  it("an unknown profile lists the site's profiles", async () => {
    expect(await run('prompt', '--profile', 'nobody')).toEqual(usage('Unknown profile "nobody". Valid profiles: rev.', 'prompt'));
  });

  it("an unknown topic in -k lists the site's topics", async () => {
    expect(await run('learn', 't', '-k', 'nope/x')).toEqual(usage('-k "nope/x": unknown topic "nope". Valid topics: t, u.', 'learn'));
  });
});
