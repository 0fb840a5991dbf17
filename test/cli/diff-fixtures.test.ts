/**
 * `syllabus diff` on the fixtures of test/fixtures/diff: each `<case>/` holds two versions of a
 * knowledge base, `base/` and `head/` (each with its kb.toml), and what the real bin prints for
 * `syllabus diff base/kb.toml head/kb.toml`, run in the case folder: `expected.md` (the markdown,
 * compared byte for byte) and `expected.json` (`--json`, compared as JSON and checked against the
 * JSON Schema that `diff --schema` prints). Each case runs the command line's `main` in this
 * process; the first case also runs through the real bin, which must print exactly the same
 * (content/reference/decisions.md, "The fixture cases and `--remote`").
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, runCliInProcess } from '../helpers/run-cli.ts';

const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'diff');
const cases = fs
  .readdirSync(FIXTURES, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const schemaRun = runCli(['diff', '--schema']);
const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(schemaRun.stdout) as object);

it('has the cases the diff promises', () => {
  expect(cases).toEqual(['binary', 'equal', 'long', 'moved', 'profiles', 'questions', 'subjects', 'visibility']);
  expect(schemaRun).toMatchObject({ code: 0, stderr: '' });
});

it('prints through the real bin exactly what main prints', async () => {
  const cwd = path.join(FIXTURES, cases[0]!);
  for (const args of [
    ['diff', 'base/kb.toml', 'head/kb.toml'],
    ['diff', 'base/kb.toml', 'head/kb.toml', '--json'],
  ]) {
    expect(runCli(args, { cwd })).toEqual(await runCliInProcess(args, { cwd }));
  }
});

describe.each(cases)('%s', (name) => {
  const cwd = path.join(FIXTURES, name);

  it('prints expected.md', async () => {
    const run = await runCliInProcess(['diff', 'base/kb.toml', 'head/kb.toml'], { cwd });
    expect(run).toEqual({ code: 0, stderr: '', stdout: `${fs.readFileSync(path.join(cwd, 'expected.md'), 'utf8')}\n` });
  });

  it('prints expected.json with --json, valid against its schema', async () => {
    const run = await runCliInProcess(['diff', 'base/kb.toml', 'head/kb.toml', '--json'], { cwd });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const value: unknown = JSON.parse(run.stdout);
    expect(value).toEqual(JSON.parse(fs.readFileSync(path.join(cwd, 'expected.json'), 'utf8')));
    expect(validate(value) ? null : validate.errors).toBeNull();
  });
});
