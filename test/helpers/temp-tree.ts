/** Builds a temporary folder tree from an object: `{ 'topic/a.md': 'text', 'link': { symlink: '../x' } }`. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A file's content (string or bytes), or a symlink to create. */
export type TreeEntry = string | Uint8Array | { symlink: string } | { dir: true };

const created: string[] = [];

/** Creates the tree in a fresh temporary folder and returns its path. Removed after the test file. */
export function makeTree(entries: Record<string, TreeEntry>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-test-'));
  created.push(root);
  writeTree(root, entries);
  return root;
}

/** Writes entries below an existing folder. */
export function writeTree(root: string, entries: Record<string, TreeEntry>): void {
  for (const [relative, entry] of Object.entries(entries)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (typeof entry === 'string' || entry instanceof Uint8Array) fs.writeFileSync(file, entry);
    else if ('symlink' in entry) fs.symlinkSync(entry.symlink, file);
    else fs.mkdirSync(file, { recursive: true });
  }
}

/** Removes every tree made so far (the test setup calls it after each test file). */
export function removeTrees(): void {
  for (const root of created.splice(0)) fs.rmSync(root, { recursive: true, force: true });
}
