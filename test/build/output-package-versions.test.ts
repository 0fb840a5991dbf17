/**
 * Cached renderings and built pages are keyed by the installed versions of the packages that
 * shape them (src/build/package-info.ts), so that updating Shiki, Sätteri or Pagefind builds
 * everything again even when no package.json of Syllabus changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { outputPackageVersions } from '../../src/build/package-info.ts';
import { sharedDigestInput } from '../../src/build/render/render-subjects.ts';
import { ROOT } from '../helpers/run-cli.ts';

const installed = (folder: string): string => (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', folder, 'package.json'), 'utf8')) as { version: string }).version;

describe('outputPackageVersions', () => {
  it('names each package that shapes the output with its installed version', () => {
    const names = ['astro', 'shiki', 'satteri', '@astrojs/markdown-satteri', 'hast-util-sanitize', 'pagefind'];
    expect(outputPackageVersions()).toBe(names.map((name) => `${name}@${installed(name)}`).join(' '));
  });

  it('is part of every rendering key', () => {
    const context = { allowHtml: false, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() };
    expect(sharedDigestInput(context)).toContain(outputPackageVersions());
  });
});
