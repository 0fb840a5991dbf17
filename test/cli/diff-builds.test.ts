/**
 * `syllabus diff` with builds on one or both sides: `dist/` folders and a site served over HTTP.
 * Each side's endpoints are written as the build writes its non-page files (readSiteData, then
 * the static files), which is what the diff reads. A build holds only what was published, so a
 * hidden subject's change shows between sources and never between builds. Then every way a side
 * can fail to be read, and usage errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticFiles } from '../../src/build/static-file.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { staticFilesOf } from '../../src/build/endpoints.ts';
import { DIFF_HELP } from '../../src/cli/diff.ts';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import { renderDiffSchema } from '../../src/kb/index.ts';
import { runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const KB_TOML = '[site]\ntitle = "Docs"\n\n[kb.topic.docs]\ntitle = "Docs"\nsubjects = "docs"\n';

/** A folder with a `base/` and a `head/` knowledge base; the guide changed, and so did the hidden subject. */
const root = makeTree({
  'base/kb.toml': KB_TOML,
  'base/docs/guide.md': '# Guide\n\nInstall with npm.\n',
  'base/docs/faq.md': '# FAQ\n\nAsk in the channel.\n',
  'base/docs/.secret.md': '# Secret\n\nThe password is hunter2.\n',
  'head/kb.toml': KB_TOML,
  'head/docs/guide.md': '# Guide\n\nInstall with pnpm.\n',
  'head/docs/faq.md': '# FAQ\n\nAsk in the channel.\n',
  'head/docs/.secret.md': '# Secret\n\nThe password is hunter3.\n',
  'empty/.keep': '',
});

/** Writes the endpoints of `<root>/<side>/kb.toml` into `<root>/<out>`. */
async function publish(side: string, out: string): Promise<void> {
  const data = await readSiteData([path.join(root, side, 'kb.toml')], process.cwd());
  writeStaticFiles(path.join(root, out), staticFilesOf(data));
}

let site: RunningServer;
let notASite: RunningServer;
let closedUrl: string;

beforeAll(async () => {
  await publish('base', 'base-dist');
  await publish('head', 'head-dist');
  fs.cpSync(path.join(root, 'head-dist'), path.join(root, 'v2-dist'), { recursive: true });
  const index = path.join(root, 'v2-dist', 'kb', 'index.json');
  fs.writeFileSync(index, fs.readFileSync(index, 'utf8').replace('"version": 1', '"version": 2'));
  site = await serveStatic(path.join(root, 'base-dist'));
  notASite = await serveStatic(path.join(root, 'empty'));
  const closed = await serveStatic(path.join(root, 'empty'));
  closedUrl = `${closed.url}/`;
  await closed.close();
});

afterAll(async () => {
  await site?.close();
  await notASite?.close();
});

// In this process: test/cli/diff-fixtures.test.ts shows that the bin answers the same.
const diff = (...args: string[]) => runCliInProcess(['diff', ...args], { cwd: root });

/** The markdown of the guide's change, after the line naming the sides. */
const GUIDE_CHANGE = `Subjects: 1 changed. Listed subjects: 15 → 16 (+1) tokens. \`<knowledge>\`: 89 → 89 (±0) tokens.

### Tokens

| | base | head | change |
| --- | ---: | ---: | ---: |
| topic \`docs\` | 15 | 16 | +1 |

### Changed

<details open><summary><code>docs/guide</code>: 7 → 8 (+1) tokens (1 line added, 1 removed)</summary>

\`\`\`diff
@@ -1,3 +1,3 @@
 # Guide
 
-Install with npm.
+Install with pnpm.
\`\`\`

</details>
`;

describe('diff of builds', () => {
  it('dist vs dist: the published change only, not the hidden subject', async () => {
    expect(await diff('base-dist', 'head-dist')).toEqual({
      code: 0,
      stderr: '',
      stdout: `## Knowledge diff\n\n\`base-dist\` (build) → \`head-dist\` (build)\n\n${GUIDE_CHANGE}`,
    });
  });

  it('URL vs dist: the same', async () => {
    const url = `${site.url}/`;
    expect(await diff(url, 'head-dist')).toEqual({
      code: 0,
      stderr: '',
      stdout: `## Knowledge diff\n\n\`${url}\` (build) → \`head-dist\` (build)\n\n${GUIDE_CHANGE}`,
    });
  });

  it('source vs source: the hidden subject changed too', async () => {
    const run = await diff('base/kb.toml', 'head/kb.toml');
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `## Knowledge diff\n\n\`base/kb.toml\` (source) → \`head/kb.toml\` (source)\n\n${GUIDE_CHANGE.replace('Subjects: 1 changed.', 'Subjects: 2 changed.')}
<details open><summary><code>docs/secret</code> (hidden): 9 → 9 (±0) tokens (1 line added, 1 removed)</summary>

\`\`\`diff
@@ -1,3 +1,3 @@
 # Secret
 
-The password is hunter2.
+The password is hunter3.
\`\`\`

</details>
`,
    });
  });

  it('source vs build: the source compared as published', async () => {
    expect(await diff('base/kb.toml', 'head-dist')).toEqual({
      code: 0,
      stderr: '',
      stdout: `## Knowledge diff\n\n\`base/kb.toml\` (source) → \`head-dist\` (build)\n\nThe source is compared as published: its hidden and disabled subjects are left out.\n\n${GUIDE_CHANGE}`,
    });
  });

  it('a build against itself: "No changes", exit 0, and --json says equal', async () => {
    expect(await diff('head-dist', 'head-dist')).toEqual({
      code: 0,
      stderr: '',
      stdout: '## Knowledge diff\n\n`head-dist` (build) → `head-dist` (build)\n\nNo changes: both sides have the same subjects, visibility and `<knowledge>` sections.\n',
    });
    const json = await diff(`${site.url}/`, 'base-dist', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ equal: true, added: [], removed: [], changed: [], moved: [], visibility: [] });
  });
});

describe('questions (content/reference/evaluations.md, "In review")', () => {
  const QUESTIONS = path.join(import.meta.dirname, '..', 'fixtures', 'diff', 'questions');
  const expected = fs.readFileSync(path.join(QUESTIONS, 'expected.md'), 'utf8');

  beforeAll(async () => {
    const data = await readSiteData([path.join(QUESTIONS, 'base', 'kb.toml')], process.cwd());
    writeStaticFiles(path.join(root, 'questions-base-dist'), staticFilesOf(data));
    fs.cpSync(path.join(QUESTIONS, 'head'), path.join(root, 'questions-head'), { recursive: true });
  });

  it("dist vs source: the build is asked the head's questions as its site would answer them, with the same figures as its source", async () => {
    const run = await diff('questions-base-dist', 'questions-head/kb.toml');
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout: `${expected.replace(
        '`base/kb.toml` (source) → `head/kb.toml` (source)',
        '`questions-base-dist` (build) → `questions-head/kb.toml` (source)\n\nThe source is compared as published: its hidden and disabled subjects are left out.',
      )}\n`,
    });
  });

  it('--fail-on-regression: the diff, then exit 1 naming the questions that regressed', async () => {
    const run = await diff('questions-base-dist', 'questions-head/kb.toml', '--fail-on-regression');
    expect({ ...run, stdout: run.stdout.includes('| `roll-back` | worse | 1 → – | yes → no |') }).toEqual({
      code: 1,
      stdout: true,
      stderr:
        'error: a question regressed: "roll-back" (left the top 3 of find, or no longer found).\nMake find rank the expected subjects again (reference/evaluations, "Reading the figures"), or update the question set if the answer moved.\n',
    });
    // Without a regression the switch changes nothing.
    expect(await diff('questions-head/kb.toml', 'questions-head/kb.toml', '--fail-on-regression')).toMatchObject({ code: 0, stderr: '' });
  });
});

describe('sides that cannot be read (exit 1)', () => {
  it('a folder that is not a Syllabus build', async () => {
    expect(await diff('empty', 'head-dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the base: empty is not a Syllabus build: ${path.join(root, 'empty', 'kb', 'index.json')} does not exist. Give the folder syllabus build wrote (its --out, default dist/), a kb.toml, or a site URL.\n`,
    });
  });

  it('a source folder given instead of its kb.toml', async () => {
    expect(await diff('base-dist', 'head')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the head: head is not a Syllabus build: ${path.join(root, 'head', 'kb', 'index.json')} does not exist. Give the folder syllabus build wrote (its --out, default dist/), a kb.toml, or a site URL. It holds a kb.toml: to diff the source, give head/kb.toml.\n`,
    });
  });

  it('a build of another format version', async () => {
    expect(await diff('base-dist', 'v2-dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the head: ${path.join(root, 'v2-dist', 'kb', 'index.json')} is in format version 2; this syllabus reads version 1. Rebuild the head with this syllabus, or diff it with a syllabus that reads version 2.\n`,
    });
  });

  it('a path that does not exist', async () => {
    expect(await diff('base-dist', 'nowhere/dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: cannot read the head: nowhere/dist does not exist. Give a kb.toml (a source), a folder written by syllabus build (a build), or a site URL.\n',
    });
  });

  it('an unreachable base URL', async () => {
    expect(await diff(closedUrl, 'head-dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the base: Cannot reach ${closedUrl}kb/index.json: connection refused (ECONNREFUSED). Check the URL and that the site is up.\n`,
    });
  });

  it('a URL that is not a Syllabus site', async () => {
    const url = `${notASite.url}/docs/`;
    expect(await diff(url, 'head-dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the base: ${url} is not a Syllabus site: ${url}kb/index.json was not found (HTTP 404). Give the base as the root address of a site built by syllabus build, with its base path if it has one.\n`,
    });
  });

  it('a build whose subject file is missing', async () => {
    fs.cpSync(path.join(root, 'head-dist'), path.join(root, 'partial-dist'), { recursive: true });
    const file = path.join(root, 'partial-dist', 'kb', 'subjects', 'docs', 'guide.json');
    fs.rmSync(file);
    expect(await diff('base-dist', 'partial-dist')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: cannot read the head: ${file} is missing, but ${path.join(root, 'partial-dist', 'kb', 'index.json')} refers to it. The folder holds part of a build; build it again.\n`,
    });
  });
});

describe('help and schema', () => {
  it('--help prints the usage, exit 0', async () => {
    expect(await diff('--help')).toEqual({ code: 0, stderr: '', stdout: `${DIFF_HELP}\n` });
  });

  it('--schema prints the JSON Schema of --json', async () => {
    expect(await diff('--schema')).toEqual({ code: 0, stderr: '', stdout: `${JSON.stringify(renderDiffSchema(), null, 2)}\n` });
  });
});

describe('usage and configuration errors (exit 2)', () => {
  it('one side only', async () => {
    expect(await diff('base-dist')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: diff needs two sides, a base and a head (got "base-dist"): syllabus diff <base> <head>.\nRun "syllabus diff --help" for usage.\n',
    });
  });

  it('a URL that is not http(s)', async () => {
    expect(await diff('ftp://example.com/', 'head-dist')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: the base "ftp://example.com/": only http and https sites can be read. Give a kb.toml, a dist/ folder or an http(s) URL.\nRun "syllabus diff --help" for usage.\n',
    });
  });

  it('--schema with sides', async () => {
    expect(await diff('--schema', 'base-dist', 'head-dist')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: diff --schema takes no other arguments: it prints the JSON Schema of diff --json.\nRun "syllabus diff --help" for usage.\n',
    });
  });

  it('a configuration error in a source side', async () => {
    fs.mkdirSync(path.join(root, 'broken'), { recursive: true });
    fs.writeFileSync(path.join(root, 'broken', 'kb.toml'), '[kb.topic.docs]\nsubjects = "docs"\nintroducton = "x"\n');
    expect(await diff('broken/kb.toml', 'head/kb.toml')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: broken/kb.toml:3:1: kb.topic.docs.introducton: unknown key. Did you mean "introduction"?\n',
    });
  });
});
