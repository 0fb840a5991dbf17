import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isUnwatched } from '../../src/astro/integration.ts';

const root = path.join(path.sep, 'project');
const at = (...parts: string[]) => path.join(root, ...parts);

describe('isUnwatched', () => {
  it('skips the project folders that hold no site source', () => {
    expect(isUnwatched(at('test', 'fixtures', 'symlinks', 't', 'loop'), root, [at('content')])).toBe(true);
    expect(isUnwatched(at('dist', 'index.html'), root, [at('content')])).toBe(true);
    expect(isUnwatched(at('.syllabus-cache', 'astro'), root, [at('content')])).toBe(true);
  });

  it('watches the sources, the content and anything outside the project', () => {
    expect(isUnwatched(at('src', 'pages', 'index.astro'), root, [at('content')])).toBe(false);
    expect(isUnwatched(at('content', 'guide', 'start.md'), root, [at('content')])).toBe(false);
    expect(isUnwatched(path.join(path.sep, 'elsewhere', 'kb', 'a.md'), root, [at('content')])).toBe(false);
  });

  it('watches a knowledge base served from a skipped folder, and the folders above it', () => {
    const kb = at('test', 'fixtures', 'site');
    expect(isUnwatched(at('test', 'fixtures', 'site', 'handbook', 'welcome.md'), root, [kb])).toBe(false);
    expect(isUnwatched(at('test', 'fixtures'), root, [kb])).toBe(false);
    expect(isUnwatched(at('test', 'fixtures', 'symlinks'), root, [kb])).toBe(true);
  });
});
