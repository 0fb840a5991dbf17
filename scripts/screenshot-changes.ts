/**
 * Makes the screenshot of a preview's /changes/ page shown in the guide
 * (`content/guide/.img/changes-page.png`, hidden: an illustration, not a subject to list): `npm run screenshot:changes`.
 *
 * It copies the bundled knowledge base twice into a temporary folder, makes a pull request's
 * worth of edits to the second copy (a subject changed, one added, one removed, one more
 * pre-loaded), builds the first as the base and the second with `--base`, serves the preview and
 * photographs its /changes/ page in Chromium. Not run by the tests: an image is not an assertion.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { serveStatic } from '../src/cli/static-server.ts';
import { ensureChromium } from './ensure-chromium.ts';
import { BIN, ROOT } from './bench-common.ts';

const OUTPUT = path.join(ROOT, 'content', 'guide', '.img', 'changes-page.png');

/** The edits of the pretend pull request, on the copy at `dir`. */
function editHead(dir: string): void {
  const edit = (file: string, change: (text: string) => string): void => {
    const full = path.join(dir, file);
    fs.writeFileSync(full, change(fs.readFileSync(full, 'utf8')));
  };
  edit('guide/getting-started.md', (text) =>
    text.replace(/\n## /, "\n## Before you start\n\nYou need Node.js 20 or later and a git repository that holds your team's knowledge.\n\n## "),
  );
  fs.writeFileSync(
    path.join(dir, 'guide', 'concepts', 'profiles.md'),
    '---\ntitle: Profiles\ndescription: Named sets of pre-loaded subjects, one per kind of agent.\n---\n# Profiles\n\nA profile pre-loads more subjects for one kind of agent, such as a reviewer.\n',
  );
  fs.rmSync(path.join(dir, 'guide', 'workflow.md'));
  edit('kb.toml', (text) => text.replace('learned = ["what-is-syllabus"]', 'learned = ["what-is-syllabus", "getting-started"]'));
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-screenshot-'));
  try {
    const copy = (name: string): string => {
      const dir = path.join(work, name);
      fs.cpSync(path.join(ROOT, 'content'), dir, { recursive: true, filter: (source) => !source.includes('.syllabus-cache') });
      return dir;
    };
    copy('base');
    const head = copy('head');
    editHead(head);
    const run = promisify(execFile);
    // Relative paths: the page names its sides as they were given.
    await run(process.execPath, [BIN, 'build', '--config', 'base/kb.toml', '--out', 'base-dist', '--cache', 'base-cache'], { cwd: work });
    await run(process.execPath, [BIN, 'build', '--config', 'head/kb.toml', '--out', 'preview', '--cache', 'head-cache', '--base', 'base-dist'], { cwd: work });
    const server = await serveStatic(path.join(work, 'preview'));
    const browser = await chromium.launch({
      executablePath: await ensureChromium(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light' });
      await page.goto(`${server.url}/changes/`);
      fs.mkdirSync(path.dirname(OUTPUT), { recursive: true });
      await page.screenshot({ path: OUTPUT, fullPage: false });
      console.log(`Wrote ${path.relative(ROOT, OUTPUT)}`);
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
