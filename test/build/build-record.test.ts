/**
 * The build record notices a build that is not deterministic (content/reference/decisions.md,
 * "Deterministic builds"): a page made again from the same input as in the recorded build, with
 * other bytes, is a warning. The pages stage here is a stand-in whose bytes the test chooses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite, type BuildResult, type PagesInput } from '../../src/build/build-site.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const CONFIG = '[site]\ntitle = "Record"\nurl = "https://record.example.test"\n\n[kb.topic.t]\ntitle = "T"\nsubjects = "t"\n';

/** A pages stage that writes every page it is asked for, with the body `bodyOf(url)`. */
function pagesStage(bodyOf: (url: string) => string): (input: PagesInput) => Promise<void> {
  return async ({ data, outDir }) => {
    const { base } = data.routes;
    const urls = [base, ...data.routes.topics.map((r) => r.url), ...data.routes.subjects.map((r) => r.url)].filter((url) => !data.only || data.only.pages.has(url));
    for (const url of urls) {
      const folder = path.join(outDir, url.slice(base.length));
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, 'index.html'), `<!doctype html><html lang="en"><head><title>${url}</title></head><body><main>${bodyOf(url)}</main></body></html>\n`);
    }
  };
}

/** A knowledge base of three subjects, built into `dist/` with the cache `.cache/`. */
function knowledgeBase(): string {
  return makeTree({ 'kb.toml': CONFIG, 't/a.md': '# A\n\nAlpha.\n', 't/b.md': '# B\n\nBravo.\n', 't/c.md': '# C\n\nCharlie.\n' });
}

/** Builds `dir` with pages whose bodies `bodyOf` gives; `fresh` deletes the output folder first (the cache stays). */
async function build(dir: string, bodyOf: (url: string) => string, fresh = false): Promise<BuildResult & { reported: string[] }> {
  const outDir = path.join(dir, 'dist');
  if (fresh) fs.rmSync(outDir, { recursive: true, force: true });
  const reported: string[] = [];
  const result = await buildSite({
    configFiles: [path.join(dir, 'kb.toml')],
    cwd: dir,
    outDir,
    cacheDir: path.join(dir, '.cache'),
    env: {},
    userAgent: () => 'test',
    pages: pagesStage(bodyOf),
    reporter: { phase: () => undefined, progress: () => undefined, warnings: () => undefined, warning: (text) => reported.push(text) },
  });
  return { ...result, reported };
}

const same = (url: string): string => `The page ${url}.`;

describe('a build made again from the same input', () => {
  it('warns when pages come out with other bytes, naming them', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    const again = await build(dir, (url) => (url === '/t/b/' || url === '/t/' ? `${same(url)} Again.` : same(url)), true);
    const warning =
      'dist/: the build is not deterministic: 2 pages were built from the same input as in the last build (the same subjects, settings and Syllabus) with different bytes (/t/, /t/b/). This is a bug in Syllabus; please report it with these pages and the files they show.';
    expect([again.mode, again.reported, again.warnings]).toEqual(['full', [warning], [warning]]);
  });

  it('names three pages and counts the others', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    const again = await build(dir, (url) => `${same(url)} Again.`, true);
    expect(again.reported).toEqual([
      'dist/: the build is not deterministic: 4 pages were built from the same input as in the last build (the same subjects, settings and Syllabus) with different bytes (/t/, /t/a/, /t/b/ and 1 more). This is a bug in Syllabus; please report it with these pages and the files they show.',
    ]);
  });

  it('is silent when the pages come out the same', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    const again = await build(dir, same, true);
    expect([again.mode, again.reported]).toEqual(['full', []]);
  });

  it('is silent about a page whose subject changed', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    fs.writeFileSync(path.join(dir, 't/c.md'), '# C\n\nCharlie, edited.\n');
    // The topic page and b's page show c's title and neighbours too, but their keys are unchanged.
    const again = await build(dir, (url) => (url === '/t/c/' ? 'Charlie, edited.' : same(url)), true);
    expect([again.mode, again.reported]).toEqual(['full', []]);
  });

  it('is silent when the settings changed', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    fs.writeFileSync(path.join(dir, 'kb.toml'), CONFIG.replace('title = "Record"', 'title = "Record, renamed"'));
    const again = await build(dir, (url) => `${same(url)} Renamed.`, true);
    expect([again.mode, again.reported]).toEqual(['full', []]);
  });

  it('compares with the pages an incremental build wrote, and with those it kept', async () => {
    const dir = knowledgeBase();
    await build(dir, same);
    fs.writeFileSync(path.join(dir, 't/a.md'), '# A\n\nAlpha, edited.\n');
    const edited = (url: string): string => (url === '/t/a/' ? 'Alpha, edited.' : same(url));
    const incremental = await build(dir, edited);
    // Built again from scratch: a's page as the incremental build wrote it, c's as the first build did.
    const again = await build(dir, (url) => (url === '/t/a/' || url === '/t/c/' ? `${edited(url)} Again.` : edited(url)), true);
    expect([incremental.mode, incremental.reported, again.mode, again.reported]).toEqual([
      'incremental',
      [],
      'full',
      [
        'dist/: the build is not deterministic: 2 pages were built from the same input as in the last build (the same subjects, settings and Syllabus) with different bytes (/t/a/, /t/c/). This is a bug in Syllabus; please report it with these pages and the files they show.',
      ],
    ]);
  });
});
