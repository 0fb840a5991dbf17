/** The folders test/fixtures/<name>/ that the fixture suites run their cases in. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
