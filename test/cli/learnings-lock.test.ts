/**
 * `syllabus learnings add|prune` run as a dozen real processes at once on one store: every command that
 * reports success is in the file (the store is locked across its read, change and write), a lock
 * left by a dead process is recovered, and a lock another process holds makes a command fail with
 * a message that says what to do, leaving the store as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliAsync, type CliRun } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const NOW = '2024-03-01T00:00:00.000Z';
const WRITERS = 12;
const ANIMALS = [
  'badger',
  'beaver',
  'bison',
  'camel',
  'cougar',
  'donkey',
  'falcon',
  'ferret',
  'gecko',
  'heron',
  'jackal',
  'koala',
  'lemur',
  'llama',
  'marmot',
  'otter',
  'panda',
  'puffin',
  'rabbit',
  'walrus',
];
const COLOURS = [
  'amber',
  'azure',
  'beige',
  'bronze',
  'cherry',
  'copper',
  'coral',
  'cream',
  'ebony',
  'indigo',
  'ivory',
  'jade',
  'khaki',
  'lilac',
  'maroon',
  'mauve',
  'ochre',
  'olive',
  'scarlet',
  'violet',
];

/** The learning writer `i` adds: its own id and words (no two are near-duplicates of each other). */
function added(i: number) {
  return {
    id: `learn-${ANIMALS[i]}`,
    taskId: '',
    category: 'fact',
    content: `The ${ANIMALS[i]} writer keeps its ${COLOURS[i]} lesson`,
    keywords: [ANIMALS[i]!],
    confidence: 0.5,
    usedCount: 0,
    successCount: 0,
    createdAt: NOW,
  };
}

const addArgs = (i: number): string[] => [
  'learnings',
  'add',
  'knowledge.json',
  '--category',
  'fact',
  '--content',
  added(i).content,
  '--keyword',
  ANIMALS[i]!,
  '--id',
  added(i).id,
  '--now',
  NOW,
];

const KEPT = {
  id: 'learn-zod',
  taskId: 'task-123',
  category: 'pattern',
  content: 'This project uses Zod schemas for all API validation',
  keywords: ['zod'],
  confidence: 0.75,
  usedCount: 5,
  successCount: 4,
  createdAt: '2024-01-10T08:00:00.000Z',
};
/** Never used, low confidence, old: what prune removes. */
const prunable = (i: number) => ({
  ...KEPT,
  id: `old-${i}`,
  category: 'gotcha',
  content: `Outdated ${COLOURS[i]} advice`,
  keywords: [],
  confidence: 0.5,
  usedCount: 0,
  successCount: 0,
});

const store = (learnings: unknown[]): string => `${JSON.stringify({ version: '1.0', lastUpdated: '2024-01-15T10:30:00.000Z', learnings }, null, 2)}\n`;

/** The store file as Syllabus writes it, with its learnings in the order the file has them. */
function expectStore(file: string, learnings: { id: string }[]): void {
  const text = fs.readFileSync(file, 'utf8');
  const order = (JSON.parse(text) as { learnings: { id: string }[] }).learnings.map((l) => l.id);
  expect([...order].sort()).toEqual(learnings.map((l) => l.id).sort());
  const byId = new Map(learnings.map((l) => [l.id, l]));
  expect(text).toBe(`${JSON.stringify({ version: '1.0', lastUpdated: NOW, learnings: order.map((id) => byId.get(id)) }, null, 2)}\n`);
}

/**
 * Runs every command at once, each as its own process. They wait for the lock as long as it takes:
 * on a busy machine, a dozen processes in a row may take longer than the default wait.
 */
function runAll(commands: string[][], cwd: string): Promise<CliRun[]> {
  return Promise.all(commands.map((args) => runCliAsync(args, { cwd, env: { SYLLABUS_LOCK_TIMEOUT_MS: '600000' } })));
}

const writers = Array.from({ length: WRITERS }, (_, i) => i);

beforeAll(() => {
  // Compiles the sources once, so that a dozen processes do not all compile them at once.
  expect(runCli(['learnings', '--help']).code).toBe(0);
});

describe('learnings add and prune, many processes at once on one store', () => {
  it(`keeps every learning of ${WRITERS} adds started together on a store that does not exist yet`, async () => {
    const dir = makeTree({});
    const runs = await runAll(writers.map(addArgs), dir);
    const counts = runs.map((run, i) => {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      const match = new RegExp(`^Added fact/learn-${ANIMALS[i]} to knowledge\\.json \\((\\d+) learnings?\\)\\.\\n$`).exec(run.stdout);
      expect(match, run.stdout).not.toBeNull();
      return Number(match![1]);
    });
    // One after the other: each saw the store the previous one wrote.
    expect(counts.sort((a, b) => a - b)).toEqual(writers.map((i) => i + 1));
    expectStore(path.join(dir, 'knowledge.json'), writers.map(added));
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json']);
  });

  it('keeps every add that reported success while prunes run among them, and prunes each old learning once', async () => {
    const OLD = 6;
    const dir = makeTree({ 'knowledge.json': store([KEPT, ...Array.from({ length: OLD }, (_, i) => prunable(i))]) });
    // Adds and prunes interleaved: a prune after every fifth add. New learnings are created at
    // --now, so no prune may remove them; the old ones are each removed by exactly one prune.
    const commands = writers.flatMap((i) => (i % 5 === 4 ? [addArgs(i), ['learnings', 'prune', 'knowledge.json', '--now', NOW]] : [addArgs(i)]));
    const runs = await runAll(commands, dir);
    const pruned: string[] = [];
    runs.forEach((run, n) => {
      expect(run).toMatchObject({ code: 0, stderr: '' });
      if (commands[n]![1] === 'add') {
        expect(run.stdout).toMatch(new RegExp(`^Added fact/${commands[n]![10]} to knowledge\\.json \\(\\d+ learnings\\)\\.\\n$`));
        return;
      }
      const [head, ...lines] = run.stdout.trimEnd().split('\n');
      const match =
        /^Pruned (\d+) of \d+ learnings from knowledge\.json \(never used, confidence under 0\.7, created more than 30 days before 2024-03-01T00:00:00\.000Z\)[.:]$/.exec(head!);
      expect(match, run.stdout).not.toBeNull();
      expect(lines).toHaveLength(Number(match![1]));
      pruned.push(...lines);
    });
    expect(pruned.sort()).toEqual(Array.from({ length: OLD }, (_, i) => `- gotcha/old-${i}`));
    expectStore(path.join(dir, 'knowledge.json'), [KEPT, ...writers.map(added)]);
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json']);
  });
});

describe('the store lock', () => {
  it(`recovers a lock left by a process that died, with ${WRITERS} adds racing to recover it`, async () => {
    const dir = makeTree({ 'knowledge.json': store([KEPT]) });
    const lock = path.join(dir, 'knowledge.json.lock');
    fs.mkdirSync(lock);
    const minuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(lock, minuteAgo, minuteAgo);
    const runs = await runAll(writers.map(addArgs), dir);
    for (const run of runs) expect(run).toMatchObject({ code: 0, stderr: '' });
    expectStore(path.join(dir, 'knowledge.json'), [KEPT, ...writers.map(added)]);
    expect(fs.readdirSync(dir)).toEqual(['knowledge.json']);
  });

  it('makes add and prune fail, changing nothing, while another process holds the lock', async () => {
    const initial = store([KEPT, prunable(0)]);
    const dir = makeTree({ 'knowledge.json': initial });
    const release = await lockfile.lock(path.join(dir, 'knowledge.json'), { realpath: false });
    try {
      const env = { SYLLABUS_LOCK_TIMEOUT_MS: '300' };
      const message = (given: string) =>
        `error: ${given} is unchanged: another "syllabus learnings" command holds its lock, the folder ${given}.lock, and did not release it within 300 ms. Run the command again. If no "syllabus learnings" command is running, remove ${given}.lock (a lock whose process died is also removed by itself 10 s after its last update).\n`;
      expect(await runCliAsync(addArgs(0), { cwd: dir, env })).toEqual({ code: 1, stdout: '', stderr: message('knowledge.json') });
      expect(await runCliAsync(['learnings', 'prune', './knowledge.json', '--now', NOW], { cwd: dir, env })).toEqual({ code: 1, stdout: '', stderr: message('./knowledge.json') });
      expect(fs.readFileSync(path.join(dir, 'knowledge.json'), 'utf8')).toBe(initial);
      expect(fs.readdirSync(dir).sort()).toEqual(['knowledge.json', 'knowledge.json.lock']);
      // Reading needs no lock: stats and a dry run still answer.
      expect(runCli(['learnings', 'prune', 'knowledge.json', '--now', NOW, '--dry-run'], { cwd: dir, env })).toMatchObject({ code: 0, stderr: '' });
      expect(runCli(['learnings', 'stats', 'knowledge.json', '--now', NOW], { cwd: dir, env })).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await release();
    }
    expect(runCli(addArgs(0), { cwd: dir })).toMatchObject({ code: 0, stdout: 'Added fact/learn-badger to knowledge.json (3 learnings).\n', stderr: '' });
  });

  it("is never a subject, of the store's topic or of a folder topic holding the store", async () => {
    const dir = makeTree({
      'kb.toml': '[kb.topic.team]\nlearnings = "notes/knowledge.json"\n\n[kb.topic.notes]\nsubjects = "notes"\n',
      'notes/readme.md': '# Notes\n\nWhat the team writes down.\n',
      'notes/knowledge.json': store([KEPT]),
    });
    const outputs = () => [
      runCli(['learn', 'team', '-c', 'kb.toml'], { cwd: dir }),
      runCli(['learn', 'notes', '-c', 'kb.toml'], { cwd: dir }),
      runCli(['check', '-c', 'kb.toml'], { cwd: dir }),
    ];
    const unlocked = outputs();
    expect(unlocked.map((run) => run.code)).toEqual([0, 0, 0]);
    const release = await lockfile.lock(path.join(dir, 'notes', 'knowledge.json'), { realpath: false });
    try {
      fs.mkdirSync(path.join(dir, 'notes', 'knowledge.json.lock.recover'));
      expect(outputs()).toEqual(unlocked);
    } finally {
      await release();
    }
  });

  it('says when SYLLABUS_LOCK_TIMEOUT_MS is not a number of milliseconds (exit 2)', () => {
    const dir = makeTree({ 'knowledge.json': store([KEPT]) });
    expect(runCli(addArgs(0), { cwd: dir, env: { SYLLABUS_LOCK_TIMEOUT_MS: 'soon' } })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: SYLLABUS_LOCK_TIMEOUT_MS="soon" is not a number of milliseconds. Set it to a whole number, 0 or more, such as 15000, or unset it.\nRun "syllabus learnings --help" for usage.\n',
    });
  });
});
