/**
 * `syllabus learnings add|stats|prune <file>` on stores in temporary folders: stdout, stderr, exit
 * code, and the store file afterwards, each compared whole. Each runs the command line's `main` in
 * this process; the first also runs through the real bin, which must do exactly the same
 * (content/reference/decisions.md, "The fixture cases and `--remote`"). The lock between real
 * processes is test/cli/learnings-lock.test.ts's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { SAMPLE_LEARNING } from '../helpers/sample-learning.ts';

const NOW = '2024-03-01T00:00:00.000Z';

const ZOD = { ...SAMPLE_LEARNING, id: 'learn-zod' };
const EXEC = {
  id: 'learn-exec',
  taskId: 'task-9',
  category: 'preference',
  content: 'Always use execFileSync over execSync for git commands',
  keywords: [],
  confidence: 0.5,
  usedCount: 0,
  successCount: 0,
  createdAt: '2024-01-10T08:00:00.000Z',
};
const CACHE = { ...EXEC, id: 'learn-cache', category: 'fact', content: 'The cache invalidates after 5 minutes', confidence: 0.65, createdAt: '2024-02-15T00:00:00.000Z' };
const BROKEN = { id: 'broken', category: 'tip' };

const store = (learnings: unknown[]): string => `${JSON.stringify({ version: '1.0', lastUpdated: '2024-01-15T10:30:00.000Z', learnings }, null, 2)}\n`;

/** Runs `syllabus learnings <args>` in a folder holding `knowledge.json`; returns the run and the folder after it. */
async function run(args: string[], initial: string | null = store([ZOD, EXEC, CACHE])) {
  const dir = makeTree(initial === null ? {} : { 'knowledge.json': initial });
  return { ...(await runCliInProcess(['learnings', ...args], { cwd: dir })), ...folderAfter(dir) };
}

/** The store and the names in `dir` after a command. */
function folderAfter(dir: string) {
  const file = path.join(dir, 'knowledge.json');
  return { file: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined, files: fs.readdirSync(dir) };
}

it('does through the real bin exactly what main does', async () => {
  const args = ['learnings', 'add', 'knowledge.json', '--category', 'fact', '--content', 'Deploys run on Tuesdays', '--id', 'learn-deploys', '--now', NOW];
  const [viaBin, inProcess] = [makeTree({ 'knowledge.json': store([ZOD]) }), makeTree({ 'knowledge.json': store([ZOD]) })];
  const bin = { ...runCli(args, { cwd: viaBin }), ...folderAfter(viaBin) };
  expect(bin.code).toBe(0);
  expect(bin).toEqual({ ...(await runCliInProcess(args, { cwd: inProcess })), ...folderAfter(inProcess) });
});

describe('learnings add', () => {
  it('appends a new learning, with keywords from its content, and writes the store atomically', async () => {
    const result = await run([
      'add',
      'knowledge.json',
      '--category',
      'gotcha',
      '--content',
      'ESM imports need the .js extension, even in TypeScript',
      '--id',
      'learn-esm',
      '--now',
      NOW,
    ]);
    expect(result).toMatchObject({ code: 0, stdout: 'Added gotcha/learn-esm to knowledge.json (4 learnings).\n', stderr: '', files: ['knowledge.json'] });
    expect(result.file).toBe(
      `${JSON.stringify(
        {
          version: '1.0',
          lastUpdated: NOW,
          learnings: [
            ZOD,
            EXEC,
            CACHE,
            {
              id: 'learn-esm',
              taskId: '',
              category: 'gotcha',
              content: 'ESM imports need the .js extension, even in TypeScript',
              keywords: ['esm', 'imports', 'need', 'extension', 'even', 'typescript'],
              confidence: 0.5,
              usedCount: 0,
              successCount: 0,
              createdAt: NOW,
            },
          ],
        },
        null,
        2,
      )}\n`,
    );
  });

  it('takes keywords, the task and structured details as options, and prints JSON', async () => {
    const result = await run([
      'add',
      'knowledge.json',
      '--category',
      'pattern',
      '--content',
      'Wrap git calls in runGit',
      '--keyword',
      'git',
      '--keyword',
      'runGit',
      '--task-id',
      'task-7',
      '--related-file',
      'src/git.ts',
      '--code-pattern',
      'runGit(args)',
      '--approach',
      'one helper',
      '--id',
      'learn-git',
      '--now',
      NOW,
      '--json',
    ]);
    const added = {
      id: 'learn-git',
      taskId: 'task-7',
      category: 'pattern',
      content: 'Wrap git calls in runGit',
      keywords: ['git', 'runGit'],
      structured: { file: 'src/git.ts', pattern: 'runGit(args)', approach: 'one helper' },
      confidence: 0.5,
      usedCount: 0,
      successCount: 0,
      createdAt: NOW,
    };
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({ added: true, slug: 'pattern/learn-git', learning: added });
    expect(JSON.parse(result.file!).learnings).toEqual([ZOD, EXEC, CACHE, added]);
  });

  it('creates the store when the file does not exist, with a generated id', async () => {
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'Builds take a minute', '--now', NOW], null);
    const id = `learn-${new Date(NOW).getTime().toString(36)}-`;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`^Added fact/${id}[0-9a-z]{6} to knowledge\\.json \\(1 learning\\)\\.\\n$`));
    const written = JSON.parse(result.file!);
    expect(written).toEqual({
      version: '1.0',
      lastUpdated: NOW,
      learnings: [
        {
          id: written.learnings[0].id,
          taskId: '',
          category: 'fact',
          content: 'Builds take a minute',
          keywords: ['builds', 'take', 'minute'],
          confidence: 0.5,
          usedCount: 0,
          successCount: 0,
          createdAt: NOW,
        },
      ],
    });
    expect(written.learnings[0].id).toMatch(new RegExp(`^${id}[0-9a-z]{6}$`));
  });

  it('refuses a duplicate (similarity over 0.8), exit 1, leaving the file as it was', async () => {
    const initial = store([ZOD, EXEC]);
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'The project uses Zod schemas for API validation everywhere.', '--now', NOW], initial);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'error: not added: it duplicates pattern/learn-zod in knowledge.json (their contents share 6 of the 7 words they use, a Jaccard similarity over 0.8). Update that learning instead, or say what is new.\n',
      file: initial,
    });
  });

  it('adds one whose similarity is exactly 0.8', async () => {
    const result = await run(
      ['add', 'knowledge.json', '--category', 'fact', '--content', 'Alpha, bravo, charlie and delta', '--id', 'near', '--now', NOW],
      store([{ ...ZOD, content: 'alpha bravo charlie delta echo' }]),
    );
    expect(result).toMatchObject({ code: 0, stdout: 'Added fact/near to knowledge.json (2 learnings).\n', stderr: '' });
  });

  it('reports a duplicate as JSON with --json, still exit 1', async () => {
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'project uses zod schemas for all api validation', '--json', '--now', NOW]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ added: false, reason: 'duplicate', duplicateOf: { slug: 'pattern/learn-zod', id: 'learn-zod', shared: 6, union: 6 } });
  });

  it('refuses an id that is taken', async () => {
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'Something new', '--id', 'learn-exec', '--now', NOW]);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: not added: knowledge.json already has a learning with id "learn-exec". Choose another --id, or leave --id out.\n',
    });
  });

  it('keeps invalid entries as they were, with a warning each', async () => {
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'Something new', '--id', 'n', '--now', NOW], store([BROKEN, ZOD]));
    expect(result).toMatchObject({
      code: 0,
      stdout: 'Added fact/n to knowledge.json (2 learnings).\n',
      stderr:
        'warning: knowledge.json:5: learnings[0] (id "broken") is not a valid learning: taskId is missing, expected a string (the task that produced the learning; may be ""); category is "tip", expected one of "pattern", "gotcha", "fact", "preference"; content is missing, expected a string with some text; keywords is missing, expected an array of at most 20 strings; confidence is missing, expected a number from 0 to 1; usedCount is missing, expected a whole number, 0 or more; successCount is missing, expected a whole number, 0 or more; createdAt is missing, expected an ISO 8601 time like "2024-01-10T08:00:00.000Z". It is left as it is and otherwise ignored; fix the entry, or remove it.\n',
    });
    expect(JSON.parse(result.file!).learnings.map((l: { id: string }) => l.id)).toEqual(['broken', 'learn-zod', 'n']);
  });

  it('refuses a store that is not JSON, exit 1, naming the file and place', async () => {
    const result = await run(['add', 'knowledge.json', '--category', 'fact', '--content', 'x', '--now', NOW], '{\n  "learnings": [],\n}\n');
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: knowledge.json:3:1: the learnings store is not valid JSON (Expected double-quoted property name). Fix the JSON at line 3, column 1.\n',
      file: '{\n  "learnings": [],\n}\n',
    });
  });

  it('says when the folder to create the store in does not exist', async () => {
    const result = await run(['add', 'missing/knowledge.json', '--category', 'fact', '--content', 'x', '--now', NOW]);
    expect(result).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: cannot write missing/knowledge.json (ENOENT); it is unchanged. Check that its folder exists and is writable.\n',
    });
  });

  it.each([
    [['add', 'knowledge.json', '--content', 'x'], 'learnings add needs --category (pattern, gotcha, fact, preference).'],
    [['add', 'knowledge.json', '--category', 'tip', '--content', 'x'], '--category must be one of pattern, gotcha, fact, preference (got "tip").'],
    [['add', 'knowledge.json', '--category', 'fact'], "learnings add needs --content with the learning's text."],
    [['add', 'knowledge.json', '--category', 'fact', '--content', ' '], "learnings add needs --content with the learning's text."],
    [
      ['add', 'knowledge.json', '--category', 'fact', '--content', 'x', ...Array.from({ length: 21 }, (_, i) => ['--keyword', `k${i}`]).flat()],
      'at most 20 --keyword values (got 21).',
    ],
    [['add', 'knowledge.json', '--category', 'fact', '--content', 'x', '--id', ''], '--id must not be empty.'],
    [['add', 'knowledge.json', '--category', 'fact', '--content', 'x', '--now', 'yesterday'], '--now must be an ISO 8601 time like 2024-01-10T08:00:00.000Z (got "yesterday").'],
    [['add', 'knowledge.json', '--category', 'fact', '--content', 'x', '--dry-run'], '--dry-run is not an option of learnings add.'],
    [['stats', 'knowledge.json', '--category', 'fact'], '--category is not an option of learnings stats.'],
    [['prune', 'knowledge.json', '--max-age=-1'], '--max-age must be a number of days, 0 or more (got "-1").'],
    [['prune', 'knowledge.json', '--max-age', 'soon'], '--max-age must be a number of days, 0 or more (got "soon").'],
    [['prune'], "learnings prune needs the store's file: syllabus learnings prune <file>."],
    [['prune', 'a.json', 'b.json'], 'learnings prune takes one file (got also "b.json").'],
    [['tidy', 'knowledge.json'], 'unknown action "tidy": use add, stats or prune.'],
    [[], 'learnings needs an action: syllabus learnings <add|stats|prune> <file>.'],
  ])('%j is a usage error (exit 2), changing nothing', async (args, message) => {
    const initial = store([ZOD]);
    expect(await run(args, initial)).toMatchObject({ code: 2, stdout: '', stderr: `error: ${message}\nRun "syllabus learnings --help" for usage.\n`, file: initial });
  });
});

describe('learnings stats', () => {
  it('prints counts by category, average confidence, the most used and what prune would remove', async () => {
    const result = await run(['stats', 'knowledge.json', '--now', NOW], store([ZOD, EXEC, CACHE, BROKEN]));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`knowledge.json: 3 learnings
Invalid entries: 1 (not counted; see the warnings)
By category: pattern 1, gotcha 0, fact 1, preference 1
Average confidence: 0.63
Most used:
- pattern/learn-zod: used 5 times, 4 successful, confidence 0.75
Prunable: 1 (never used, confidence under 0.7, created more than 30 days before 2024-03-01T00:00:00.000Z)
`);
    expect(result.stderr).toMatch(/^warning: knowledge\.json:\d+: learnings\[3\] \(id "broken"\) is not a valid learning: /);
  });

  it('counts prunable learnings with --max-age, and prints JSON with the documented names', async () => {
    const result = await run(['stats', 'knowledge.json', '--now', NOW, '--max-age', '10', '--json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({
      totalLearnings: 3,
      invalidEntries: 0,
      byCategory: { pattern: 1, gotcha: 0, fact: 1, preference: 1 },
      avgConfidence: (0.75 + 0.5 + 0.65) / 3,
      mostUsed: [{ slug: 'pattern/learn-zod', id: 'learn-zod', category: 'pattern', usedCount: 5, successCount: 4, confidence: 0.75 }],
      prunable: 2,
    });
  });

  it('describes an empty store', async () => {
    expect(await run(['stats', 'knowledge.json', '--now', NOW], store([]))).toMatchObject({
      code: 0,
      stdout: `knowledge.json: 0 learnings
By category: pattern 0, gotcha 0, fact 0, preference 0
Average confidence: none
Most used: none
Prunable: 0 (never used, confidence under 0.7, created more than 30 days before 2024-03-01T00:00:00.000Z)
`,
      stderr: '',
    });
  });

  it('fails with exit 1 on a missing file or a file that is not a store', async () => {
    expect(await run(['stats', 'nothing.json'])).toMatchObject({
      code: 1,
      stdout: '',
      stderr: 'error: nothing.json: the learnings store does not exist. Check the path; "syllabus learnings add" creates a new store.\n',
    });
    expect(await run(['stats', 'knowledge.json'], '{"learnings": {}}')).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'error: knowledge.json: the learnings store has a "learnings" that is an object, not an array. A learnings store is {"version": "1.0", "lastUpdated": "<ISO time>", "learnings": [ … ]}.\n',
    });
  });
});

describe('learnings prune', () => {
  it('removes learnings never used, under 0.7 confidence and older than 30 days, and rewrites the store', async () => {
    const result = await run(['prune', 'knowledge.json', '--now', NOW], store([ZOD, EXEC, CACHE, BROKEN]));
    expect(result).toMatchObject({
      code: 0,
      stdout: `Pruned 1 of 3 learnings from knowledge.json (never used, confidence under 0.7, created more than 30 days before 2024-03-01T00:00:00.000Z):
- preference/learn-exec
`,
      file: `${JSON.stringify({ version: '1.0', lastUpdated: NOW, learnings: [ZOD, CACHE, BROKEN] }, null, 2)}\n`,
      files: ['knowledge.json'],
    });
  });

  it('takes --max-age in days, and changes nothing with --dry-run', async () => {
    const initial = store([ZOD, EXEC, CACHE]);
    const result = await run(['prune', 'knowledge.json', '--now', NOW, '--max-age', '7', '--dry-run'], initial);
    expect(result).toMatchObject({
      code: 0,
      stdout: `Would prune 2 of 3 learnings in knowledge.json (never used, confidence under 0.7, created more than 7 days before 2024-03-01T00:00:00.000Z):
- preference/learn-exec
- fact/learn-cache
`,
      stderr: '',
      file: initial,
    });
  });

  it('prints JSON, and leaves the file untouched when nothing is pruned', async () => {
    const initial = store([ZOD, CACHE]);
    const result = await run(['prune', 'knowledge.json', '--now', NOW, '--json'], initial);
    expect(result).toMatchObject({ code: 0, stderr: '', file: initial });
    expect(JSON.parse(result.stdout)).toEqual({ pruned: [], kept: 2, dryRun: false });
    expect(await run(['prune', 'knowledge.json', '--now', NOW, '--max-age', '1'], initial)).toMatchObject({
      code: 0,
      stdout: `Pruned 1 of 2 learnings from knowledge.json (never used, confidence under 0.7, created more than 1 day before 2024-03-01T00:00:00.000Z):
- fact/learn-cache
`,
    });
    expect(await run(['prune', 'knowledge.json', '--now', NOW], initial)).toMatchObject({
      code: 0,
      stdout: 'Pruned 0 of 2 learnings from knowledge.json (never used, confidence under 0.7, created more than 30 days before 2024-03-01T00:00:00.000Z).\n',
      file: initial,
    });
  });

  it('lists the pruned learnings as JSON', async () => {
    const result = await run(['prune', 'knowledge.json', '--now', NOW, '--max-age', '0', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({
      pruned: [
        { slug: 'preference/learn-exec', id: 'learn-exec', category: 'preference' },
        { slug: 'fact/learn-cache', id: 'learn-cache', category: 'fact' },
      ],
      kept: 1,
      dryRun: false,
    });
    expect(JSON.parse(result.file!).learnings).toEqual([ZOD]);
  });
});

describe('learnings --help', () => {
  it('prints the usage and exits 0', async () => {
    const result = await runCliInProcess(['learnings', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout.startsWith('Usage: syllabus learnings <add|stats|prune> <file> [options]\n')).toBe(true);
    expect(result.stdout).toContain('\nExit codes: 0 success');
    expect(result.stderr).toBe('');
  });
});
