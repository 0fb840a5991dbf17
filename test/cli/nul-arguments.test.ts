/**
 * A NUL character in a command-line path or in SYLLABUS_CONFIG is a usage error (exit 2), never a
 * crash: Node refuses such a path in every file-system call. A shell cannot pass one, so these
 * run the command line in this process, as the JavaScript API and a host can.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { ROOT } from '../helpers/run-cli.ts';

/** Runs the command line in this process: exit code and stderr lines. */
async function run(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stderr: string[]; stdout: string[] }> {
  const stderr: string[] = [];
  const stdout: string[] = [];
  const code = await main(argv, { cwd: ROOT, env, out: (text) => stdout.push(text), err: (line) => stderr.push(line) });
  return { code, stderr, stdout };
}

describe('a NUL character on the command line', () => {
  it.each([
    [['learn', 'guide', '--config', 'content/kb\0.toml'], '--config "content/kb\\u0000.toml"', 'learn'],
    [['check', '-c', 'a\0'], '--config "a\\u0000"', 'check'],
    [['build', '--out', 'dist\0'], '--out "dist\\u0000"', 'build'],
    [['build', '--cache=c\0'], '--cache "c\\u0000"', 'build'],
    [['preview', '--out', '\0'], '--out "\\u0000"', 'preview'],
    [['learn', 'guide\0'], 'the argument "guide\\u0000"', 'learn'],
  ])('%j', async (argv, what, command) => {
    expect(await run(argv)).toEqual({
      code: 2,
      stdout: [],
      stderr: [`error: ${what} contains a NUL character, which no path or argument can hold. Remove it.`, `Run "syllabus ${command} --help" for usage.`],
    });
  });

  it('in SYLLABUS_CONFIG', async () => {
    expect(await run(['learn', 'guide'], { SYLLABUS_CONFIG: 'content/kb.toml\0' })).toEqual({
      code: 2,
      stdout: [],
      stderr: ['error: SYLLABUS_CONFIG "content/kb.toml\\u0000" contains a NUL character, which no path can hold. Set it to the path of a kb.toml.'],
    });
  });
});
