/** The folders test/fixtures/<name>/ that the fixture suites run their cases in. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const copies: string[] = [];

/**
 * The folder to run a fixture's cases in: the fixture itself, or, when it has a `setup.json`
 * (`{ "path": "content" }`, for what git cannot store such as `.git` folders), a temporary copy
 * with those files added. Copies are removed by {@link removeFixtureCopies}.
 */
export function prepareFixture(fixture: string): string {
  const setupFile = path.join(fixture, 'setup.json');
  if (!fs.existsSync(setupFile)) return fixture;
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), `syllabus-fixture-${path.basename(fixture)}-`));
  copies.push(copy);
  fs.cpSync(fixture, copy, { recursive: true, verbatimSymlinks: true });
  const files = JSON.parse(fs.readFileSync(setupFile, 'utf8')) as Record<string, string>;
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(copy, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return copy;
}

/** Removes every copy {@link prepareFixture} made. */
export function removeFixtureCopies(): void {
  for (const copy of copies.splice(0)) fs.rmSync(copy, { recursive: true, force: true });
}

/** Where the fixtures are. */
export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

/** One case of a fixture: the folder `test/fixtures/<fixture>/cases/<name>/`. */
export interface FixtureCase {
  name: string;
  folder: string;
  /** The CLI arguments of its `args` file. */
  args: string[];
  /** The exit code of its `exit` file, else 0. */
  exit: number;
}

/** The names of the fixtures that have cases, sorted. */
export function fixtureNames(): string[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(FIXTURES, entry.name, 'cases')))
    .map((entry) => entry.name)
    .sort();
}

/** The cases of a fixture, sorted by name. */
export function readCases(fixture: string): FixtureCase[] {
  const casesFolder = path.join(fixture, 'cases');
  return fs
    .readdirSync(casesFolder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const folder = path.join(casesFolder, name);
      const args = JSON.parse(fs.readFileSync(path.join(folder, 'args'), 'utf8')) as string[];
      return { name, folder, args, exit: Number((readOptional(path.join(folder, 'exit')) ?? '0').trim()) };
    });
}

/** Whether the arguments name a config file. */
export function namesConfig(args: readonly string[]): boolean {
  return args.some((arg) => arg === '--config' || arg === '-c' || arg.startsWith('--config='));
}

/** Reads a case file, or undefined when it does not exist. */
export function readOptional(file: string): string | undefined {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
}
