/**
 * The contract-level acceptance suite: every `test/fixtures/<fixture>/cases/<case>/` runs
 * `syllabus` in the fixture folder and compares what it printed with expectations written by hand
 * from the pages of content/.
 *
 * A case folder holds:
 * - `args`: a JSON array of CLI arguments; `--config kb.toml` is appended unless it names one.
 * - `stdout`: the exact stdout; or `stdout.json`: stdout compared as JSON; absent: stdout is empty.
 * - `stdout-any`: stdout is not compared (for `check`, whose report wording is free).
 * - `exit`: the exit code (absent: 0).
 * - `stderr`: the exact stderr (the learn tool's error messages, content/agents/learn-tool.md).
 * - `stderr-includes`: lines that must each appear somewhere in stderr (free-worded errors).
 * - `output-includes`: lines that must each appear somewhere in stdout or stderr (`check` reports).
 * - `output-excludes`: lines that must appear nowhere in stdout or stderr (a warning that must not
 *   be given).
 *
 * Each case runs through the command line's own `main` in this process (src/cli/main.ts, what the
 * bin runs, given the folder, the environment and no terminal), and the first case of each command
 * with each exit code also through the real bin as a child process, whose exit code, stdout and
 * stderr must equal the in-process run byte for byte: the contract is checked on every case, and
 * the bin, which only hands `main` its arguments, folder and environment and writes what it
 * prints, adds nothing to it (content/reference/decisions.md, "Developing Syllabus").
 *
 * `--remote` gives the same answers as local files: every case of `learn`, `prompt`, `schema` and
 * `find` that exits 0 or 1 is asked a second time, of the endpoints of the fixture's site served
 * over HTTP (test/helpers/published-fixtures.ts), and its stdout and exit code must equal the local
 * run byte for byte, and its stderr too where the case pins one (else, on success, it is empty).
 *
 * A fixture with a `setup.json` (`{ "path": "content" }`) runs in a temporary copy with those files
 * added, for what git cannot store (`.git` folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtureNames, namesConfig, prepareFixture, readCases, readOptional, removeFixtureCopies, type FixtureCase } from '../helpers/fixtures.ts';
import { closeSites, publishFixtures, remoteArgs, serveSites, splitConfigArgs, type Site } from '../helpers/published-fixtures.ts';
import { runCliAsync, runCliInProcess, type CliRun } from '../helpers/run-cli.ts';

/** The non-empty lines of an `*-includes` or `*-excludes` file. */
function readLines(file: string): string[] {
  return (readOptional(file) ?? '').split('\n').filter((line) => line !== '');
}

/** Checks what a case's run printed against the case's files. */
function expectCaseOutput(testCase: FixtureCase, run: CliRun): void {
  const { folder } = testCase;
  const expectedStdoutJson = readOptional(path.join(folder, 'stdout.json'));
  const ignoreStdout = fs.existsSync(path.join(folder, 'stdout-any'));
  const expectedStderr = readOptional(path.join(folder, 'stderr'));

  const actual: Record<string, unknown> = { exit: run.code };
  const expected: Record<string, unknown> = { exit: testCase.exit };
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
  for (const line of readLines(path.join(folder, 'output-excludes'))) {
    expect(`${run.stdout}\n${run.stderr}`, `the output should not mention ${JSON.stringify(line)}`).not.toContain(line);
  }
}

/** Checks a `--remote` run of a case against the local run (already checked against the case). */
function expectSameAnswer(testCase: FixtureCase, local: CliRun, remote: CliRun): void {
  expect({ exit: remote.code, stdout: remote.stdout }, `remote stderr:\n${remote.stderr}`).toEqual({ exit: local.code, stdout: local.stdout });
  if (fs.existsSync(path.join(testCase.folder, 'stderr'))) expect(remote.stderr).toBe(local.stderr);
  else if (remote.code === 0) expect(remote.stderr).toBe('');
}

const published = new Map((await publishFixtures()).map((fixture) => [fixture.name, fixture]));

beforeAll(async () => {
  await serveSites([...published.values()]);
});

afterAll(async () => {
  await closeSites();
  removeFixtureCopies();
});

it('finds the fixtures', () => {
  expect(fixtureNames().length).toBeGreaterThan(0);
});

it('compares cases with --remote in most fixtures', () => {
  const runnable = [...published.values()].flatMap((f) => f.cases).filter((c) => c.site.skip === undefined);
  expect(runnable.length).toBeGreaterThan(200);
  expect([...published.values()].filter((f) => f.cases.some((c) => c.site.skip === undefined)).length).toBeGreaterThan(20);
});

it('publishes every fixture except those whose build must fail', () => {
  const unpublished = [...published.values()].flatMap((f) => f.sites.filter((s) => s.skip !== undefined).map((s) => `${f.name}: ${s.skip}`));
  expect(unpublished).toEqual([
    'duplicate-slugs: the knowledge base has content errors (duplicate-slug), so the build fails',
    'learnings-malformed: the knowledge base has content errors (duplicate-slug), so the build fails',
    'learnings-unusable-stores: the knowledge base has content errors (invalid-store, missing-store), so the build fails',
    'missing-folder: the knowledge base has content errors (missing-folder), so the build fails',
  ]);
});

/** Each command and exit code whose first case (fixtures and cases in name order) is already run through the bin. */
const throughBin = new Set<string>();

for (const fixtureName of fixtureNames()) {
  describe(fixtureName, () => {
    const fixture = path.join(FIXTURES, fixtureName);
    const publishedFixture = published.get(fixtureName);
    /** The site each case `--remote` answers too is compared on, by case name. */
    const sites = new Map<string, Site>((publishedFixture?.cases ?? []).filter((c) => c.site.skip === undefined).map((c) => [c.name, c.site]));
    let cwd = publishedFixture?.cwd;

    for (const testCase of readCases(fixture)) {
      const { args } = testCase;
      const command = args[0]!;
      const alsoThroughBin = !throughBin.has(`${command} ${testCase.exit}`);
      throughBin.add(`${command} ${testCase.exit}`);
      it.concurrent(alsoThroughBin ? `${testCase.name} (also through the bin)` : testCase.name, async () => {
        cwd ??= prepareFixture(fixture);
        const localArgs = namesConfig(args) ? args : [...args, '--config', 'kb.toml'];
        const local = await runCliInProcess(localArgs, { cwd });
        expectCaseOutput(testCase, local);
        if (alsoThroughBin) expect(await runCliAsync(localArgs, { cwd })).toEqual(local);

        const site = sites.get(testCase.name);
        if (site === undefined) return;
        const remote = await runCliInProcess(remoteArgs(site, splitConfigArgs(args).rest), { cwd });
        expectSameAnswer(testCase, local, remote);
      });
    }
  });
}
