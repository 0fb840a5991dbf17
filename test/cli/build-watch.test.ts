/**
 * `syllabus build --watch` as a writer uses it: the real bin builds, then builds again after each
 * edit of a subject or of kb.toml, names what changed, prints a build's errors and goes on
 * watching, never builds again for its own output, and stops
 * cleanly on Ctrl-C. Every wait is for a line the command prints (the test's timeout is the only
 * deadline); a change the command must not follow is made before one it must, and the line that
 * names the next change says which it saw first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli, stopChild, userEnv } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

let kb: string;
let out: string;
let child: ChildProcess;
let output = '';

/**
 * Waits until the output holds `count` lines starting with `prefix`; throws when the command exits
 * first or prints more than `errors` error lines.
 */
async function linesUntil(prefix: string, count: number, errors = 0): Promise<string> {
  for (;;) {
    const lines = output.split('\n').filter((line) => line.startsWith(prefix));
    if (lines.length >= count) return output;
    if (child.exitCode !== null) throw new Error(`syllabus build --watch exited with ${child.exitCode}:\n${output}`);
    if (countLines('error: ') > errors) throw new Error(`syllabus build --watch printed an error:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How many lines of the output start with `prefix`. */
function countLines(prefix: string): number {
  return output.split('\n').filter((line) => line.startsWith(prefix)).length;
}

beforeAll(async () => {
  kb = path.join(makeTree({}), 'kb');
  fs.cpSync(path.join(ROOT, 'test/fixtures/site'), kb, { recursive: true });
  // Beside kb.toml, whose folder is watched for it: the builds write there, and must not take that for an edit.
  out = path.join(kb, 'dist');
  child = spawn(process.execPath, [BIN, 'build', '--watch', '--config', path.join(kb, 'kb.toml'), '--out', out], { cwd: kb, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await linesUntil('Watching for changes', 1);
});

afterAll(async () => {
  if (child) await stopChild(child, 'SIGKILL');
});

describe('syllabus build --watch', () => {
  it('builds, then says it watches', () => {
    expect(countLines('Built dist/: ')).toBe(1);
    expect(output.trimEnd().split('\n').at(-1)).toBe('Watching for changes (Ctrl-C stops).');
    expect(fs.existsSync(path.join(out, 'index.html'))).toBe(true);
  });

  it('builds again after a subject is edited, names it first (not its own output), and the output shows the edit', async () => {
    // Made before the edit: had the command followed its own output, it would name it first.
    fs.writeFileSync(path.join(out, 'stray.txt'), 'not an edit');
    fs.appendFileSync(path.join(kb, 'handbook/welcome.md'), '\nWATCHCANARY first edit.\n');
    await linesUntil('Built ', 2);
    await linesUntil('Watching for changes', 2);
    const changed = output.split('\n').filter((line) => line.startsWith('Changed: '));
    expect(changed).toEqual(['Changed: handbook/welcome.md; building again.']);
    expect(output).toMatch(/^pages {5}\d+ pages changed, 0 removed; 1 subject rendered, \d+ unchanged \(\d+\.\d s\)$/m);
    expect(fs.readFileSync(path.join(out, 'handbook/welcome.md'), 'utf8')).toContain('WATCHCANARY first edit.');
  });

  it('prints the errors of a config that no longer loads, goes on watching, and builds again once it is fixed', async () => {
    const config = path.join(kb, 'kb.toml');
    const good = fs.readFileSync(config, 'utf8');
    fs.writeFileSync(config, `${good}\n[kb.topic.broken\n`);
    await linesUntil('error: ', 1, 1);
    await linesUntil('Watching for changes', 3, 1);
    expect(output).toContain('Changed: kb.toml; building again.');
    expect(output).toMatch(/^error: kb\.toml:\d+/m);
    expect(countLines('Built ')).toBe(2);

    fs.writeFileSync(config, good);
    await linesUntil('Built ', 3, 1);
    expect(countLines('Changed: kb.toml; building again.')).toBe(2);
  });

  it('stops on Ctrl-C with exit code 0', async () => {
    await linesUntil('Watching for changes', 4, 1);
    expect(await stopChild(child, 'SIGINT')).toBe(0);
  });

  it('refuses --watch with --base, --part or --json (exit 2)', () => {
    for (const flag of [['--base', 'dist'], ['--part', 'handbook'], ['--json']]) {
      const run = runCli(['build', '--watch', ...flag, '--config', path.join(kb, 'kb.toml')], { cwd: kb });
      expect(run).toEqual({
        stdout: '',
        stderr: `error: --watch builds the whole site again after each change; it does not take ${flag[0]}.\nRun "syllabus build --help" for usage.\n`,
        code: 2,
      });
    }
  });
});
