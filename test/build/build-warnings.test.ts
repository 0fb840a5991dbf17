/**
 * The build reports what `check` reports (content/reference/cli/build.md, "What it prints"): the
 * content checks' warnings too, with `[check]`'s severities, and its own (`no-site-url`); a
 * warning made an error stops it before anything is written. The pages stage is a stand-in.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BuildError } from '../../src/build/build-error.ts';
import { buildSite, type BuildResult, type PagesInput } from '../../src/build/build-site.ts';
import type { Diagnostic } from '../../src/kb/diagnostics/diagnostics.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const SUBJECTS = {
  'guide/intro.md': '# Introduction\n\nRead [the glossary](glossary.md).\n',
  'guide/notes.md': '## Notes\n\nNo title here.\n',
  'guide/a.md': '# Setup\n\nInstall the tools, clone the repository and run the tests before the first change.\n',
  'guide/b.md': '# Setup\n\nInstall the tools, clone the repository and run the tests before the first change!\n',
};

/** A pages stage that writes a page for each URL of the site. */
async function writePages({ data, outDir }: PagesInput): Promise<void> {
  const { base } = data.routes;
  for (const url of [base, ...data.routes.topics.map((r) => r.url), ...data.routes.subjects.map((r) => r.url)]) {
    fs.mkdirSync(path.join(outDir, url.slice(base.length)), { recursive: true });
    fs.writeFileSync(
      path.join(outDir, url.slice(base.length), 'index.html'),
      `<!doctype html><html lang="en"><head><title>${url}</title></head><body><main>${url}</main></body></html>\n`,
    );
  }
}

/** Builds a tree whose kb.toml ends with `check`; the warnings the reporter was given as `code file` lines. */
async function build(check: string): Promise<{ result: BuildResult; reported: string[]; dir: string }> {
  const dir = makeTree({ 'kb.toml': `[kb.topic.guide]\nsubjects = "guide"\n\n${check}`, ...SUBJECTS });
  const reported: string[] = [];
  const result = await buildSite({
    configFiles: [path.join(dir, 'kb.toml')],
    cwd: dir,
    outDir: path.join(dir, 'dist'),
    env: {},
    userAgent: () => 'test',
    pages: writePages,
    reporter: {
      phase: () => undefined,
      progress: () => undefined,
      warnings: (warnings: readonly Diagnostic[]) => reported.push(...warnings.map((w) => `${w.code} ${path.relative(dir, w.file ?? '')}`)),
      warning: () => undefined,
    },
  });
  return { result, reported, dir };
}

describe('the warnings of a build', () => {
  it("are check's, the content checks included, and the build's own, sorted by file", async () => {
    const { reported, result } = await build('');
    expect(reported).toEqual(['near-duplicate guide/a.md', 'broken-link guide/intro.md', 'missing-title guide/notes.md', 'no-site-url kb.toml']);
    expect(result.warnings).toHaveLength(4);
  });

  it('follow [check]: a code turned off, or off for some files, is not reported', async () => {
    const { reported } = await build(
      '[check.severity]\nno-site-url = "off"\nnear-duplicate = "off"\n\n[[check.override]]\nfiles = ["guide/notes.md"]\nseverity = { missing-title = "off" }\n',
    );
    expect(reported).toEqual(['broken-link guide/intro.md']);
  });

  it('stop the build when [check] makes one an error, before anything is written', async () => {
    const dir = makeTree({ 'kb.toml': '[kb.topic.guide]\nsubjects = "guide"\n\n[check.severity]\nbroken-link = "error"\n', ...SUBJECTS });
    const failed = buildSite({
      configFiles: [path.join(dir, 'kb.toml')],
      cwd: dir,
      outDir: path.join(dir, 'dist'),
      env: {},
      userAgent: () => 'test',
      pages: async () => {
        throw new Error('the pages stage should not run');
      },
      reporter: { phase: () => undefined, progress: () => undefined, warnings: () => undefined, warning: () => undefined },
    });
    await expect(failed).rejects.toThrow(BuildError);
    await expect(failed).rejects.toMatchObject({
      message: 'the knowledge base has 1 content error; nothing was built.',
      details: ['guide/intro.md:3:6: Broken link "glossary.md": topic "guide" has no subject "glossary" (it is missing or disabled). Fix the link, or add the subject.'],
    });
    expect(fs.existsSync(path.join(dir, 'dist'))).toBe(false);
  });

  it('are those of the site data the dev server reads, with the same severities', async () => {
    const dir = makeTree({
      'kb.toml': '[kb.topic.guide]\nsubjects = "guide"\n\n[[check.override]]\nfiles = ["guide/fonts/**"]\nseverity = { binary = "off" }\n',
      'guide/fonts/a.ttf': new Uint8Array([0, 1, 0, 0]),
      'guide/b.ttf': new Uint8Array([0, 1, 0, 0]),
    });
    const data = await readSiteData(['kb.toml'], dir);
    expect(data.diagnostics.map((d) => `${d.code} ${path.relative(dir, d.file ?? '')}`)).toEqual(['binary guide/b.ttf']);
  });
});
