/**
 * Astro compiles the pages while the content is read (content/reference/decisions.md, "Pages
 * compiled while the content is read"): the preparation needs the code and the settings only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { astroPagesPreparation, bundleKeepingOf } from '../../src/astro/run-astro.ts';
import { holdsBundle } from '../../src/astro/pages-bundle.ts';
import { cacheFolder } from '../../src/build/cache-folder.ts';
import { makeTree, removeTrees } from '../helpers/temp-tree.ts';

afterAll(removeTrees);

describe('astroPagesPreparation', () => {
  it('compiles and keeps the pages without reading the site, and leaves them as they are once kept', async () => {
    const root = makeTree({});
    const cache = cacheFolder(path.join(root, '.syllabus-cache'));
    const input = { codeKey: 'code-1', base: '/docs/', siteUrl: 'https://kb.example.test', cache };
    // A build compiles ahead when its cache is in the folder it runs in.
    const cwd = process.cwd();
    process.chdir(root);
    try {
      // The site the compile is given rejects every question: the compile asks none.
      await astroPagesPreparation(root)(input, new AbortController().signal);
      expect(holdsBundle(bundleKeepingOf(input))).toBe(true);
      expect(holdsBundle(bundleKeepingOf({ ...input, base: '/' }))).toBe(false);
      expect(fs.readdirSync(cache.dir).sort()).toEqual(['astro', 'pages-bundle']);
      const description = path.join(cache.pagesBundle, 'bundle.json');
      const made = fs.statSync(description).mtimeMs;
      // Kept for this key: nothing is compiled again.
      await astroPagesPreparation(root)(input, new AbortController().signal);
      expect(fs.statSync(description).mtimeMs).toBe(made);
    } finally {
      process.chdir(cwd);
    }
  });

  it('compiles nothing when the cache is outside the folder the build runs in, nor once stopped', async () => {
    const elsewhere = cacheFolder(path.join(makeTree({}), '.syllabus-cache'));
    await astroPagesPreparation(process.cwd())({ codeKey: 'code-1', base: '/', siteUrl: undefined, cache: elsewhere }, new AbortController().signal);
    expect(fs.existsSync(elsewhere.dir)).toBe(false);
    const root = makeTree({});
    const cache = cacheFolder(path.join(root, '.syllabus-cache'));
    const cwd = process.cwd();
    process.chdir(root);
    try {
      const stop = new AbortController();
      const compiling = astroPagesPreparation(root)({ codeKey: 'code-1', base: '/', siteUrl: undefined, cache }, stop.signal);
      stop.abort();
      await expect(compiling).rejects.toThrow('the pages compile was stopped');
      expect(holdsBundle(bundleKeepingOf({ codeKey: 'code-1', base: '/', siteUrl: undefined, cache }))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});
