/**
 * The contract-level acceptance suite: every `test/fixtures/<fixture>/cases/<case>/` runs the real
 * `syllabus` bin in the fixture folder and compares what it printed with expectations written by
 * hand from the pages of content/.
 *
 * A case folder holds:
 * - `args`: a JSON array of CLI arguments; `--config kb.toml` is appended unless it names one.
 * - `stdout`: the exact stdout; or `stdout.json`: stdout compared as JSON; absent: stdout is empty.
 * - `stdout-any`: stdout is not compared (for `check`, whose report wording is free).
 * - `exit`: the exit code (absent: 0).
 * - `stderr`: the exact stderr (the learn tool's error messages, content/agents/learn-tool.md).
 * - `stderr-includes`: lines that must each appear somewhere in stderr (free-worded errors).
 * - `output-includes`: lines that must each appear somewhere in stdout or stderr (`check` reports).
 *
 * A fixture with a `setup.json` (`{ "path": "content" }`) runs in a temporary copy with those files
 * added, for what git cannot store (`.git` folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareFixture, removeFixtureCopies } from '../helpers/fixtures.ts';
import { ROOT, runCli } from '../helpers/run-cli.ts';

const FIXTURES = path.join(ROOT, 'test', 'fixtures');

/** Reads a case file, or undefined when it does not exist. */
function readOptional(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}

/** The non-empty lines of an `*-includes` file. */
function readLines(file: string): string[] {
  return (readOptional(file) ?? '').split('\n').filter((line) => line !== '');
}

/** Whether the arguments already name a config file. */
function namesConfig(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--config' || arg === '-c' || arg.startsWith('--config='));
}

afterAll(() => {
  removeFixtureCopies();
});

const fixtureNames = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(FIXTURES, entry.name, 'cases')))
  .map((entry) => entry.name)
  .sort();

it('finds the fixtures', () => {
  expect(fixtureNames.length).toBeGreaterThan(0);
});

for (const fixtureName of fixtureNames) {
  describe(fixtureName, () => {
    const fixture = path.join(FIXTURES, fixtureName);
    const casesFolder = path.join(fixture, 'cases');
    const caseNames = fs
      .readdirSync(casesFolder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    let cwd: string | undefined;

    for (const caseName of caseNames) {
      it(caseName, () => {
        cwd ??= prepareFixture(fixture);
        const folder = path.join(casesFolder, caseName);
        const args = JSON.parse(fs.readFileSync(path.join(folder, 'args'), 'utf8')) as string[];
        const run = runCli(namesConfig(args) ? args : [...args, '--config', 'kb.toml'], { cwd });

        const expectedExit = Number((readOptional(path.join(folder, 'exit')) ?? '0').trim());
        const expectedStdoutJson = readOptional(path.join(folder, 'stdout.json'));
        const ignoreStdout = fs.existsSync(path.join(folder, 'stdout-any'));
        const expectedStderr = readOptional(path.join(folder, 'stderr'));

        const actual: Record<string, unknown> = { exit: run.code };
        const expected: Record<string, unknown> = { exit: expectedExit };
        if (expectedStdoutJson !== undefined) {
          let parsed: unknown = run.stdout;
          try {
            parsed = JSON.parse(run.stdout);
          } catch {
            // Left as text, so the comparison fails and shows what was printed.
          }
          actual.stdout = parsed;
          expected.stdout = JSON.parse(expectedStdoutJson);
        } else if (!ignoreStdout) {
          actual.stdout = run.stdout;
          expected.stdout = readOptional(path.join(folder, 'stdout')) ?? '';
        }
        if (expectedStderr !== undefined) {
          actual.stderr = run.stderr;
          expected.stderr = expectedStderr;
        }
        expect(actual, `stderr was:\n${run.stderr}`).toEqual(expected);

        for (const line of readLines(path.join(folder, 'stderr-includes'))) {
          expect(run.stderr, `stderr should mention ${JSON.stringify(line)}`).toContain(line);
        }
        for (const line of readLines(path.join(folder, 'output-includes'))) {
          expect(`${run.stdout}\n${run.stderr}`, `the output should mention ${JSON.stringify(line)}`).toContain(line);
        }
      });
    }
  });
}
