import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugOf } from '../../../src/kb/index.ts';
import { dropLeadingDots } from '../../../src/kb/subjects/slug.ts';

describe('slugOf (content/reference/.internals/slug-algorithm.md)', () => {
  it.each([
    ['notes.v2.md', 'notes.v2', false, 'md'],
    ['Makefile', 'Makefile', false, ''],
    ['.env.local', 'env', true, 'local'],
    ['.gitignore', 'gitignore', true, ''],
    ['..md', '.md', true, ''],
    ['...md', '.', true, 'md'],
    ['notes.', 'notes', false, ''],
    ['.internal-notes.md', 'internal-notes', true, 'md'],
    ['ast-grep/.rules.md', 'ast-grep/rules', true, 'md'],
    ['.hidden-dir/visible.md', 'hidden-dir/visible', true, 'md'],
    ['README.MD', 'README', false, 'md'],
    ['notes.TOML', 'notes', false, 'toml'],
    ['maintainers/jean.md', 'maintainers/jean', false, 'md'],
    ['a.b/c', 'a.b/c', false, ''],
    ['..dir/x.txt', '.dir/x', true, 'txt'],
  ])('%s → slug %s, hidden %s, extension %s', (file, slug, hidden, extension) => {
    expect(slugOf(file)).toEqual({ slug, hidden, extension });
  });

  it('drops only one leading dot per component', () => {
    expect(dropLeadingDots('ast-grep/.rules')).toBe('ast-grep/rules');
    expect(dropLeadingDots('..a/.b/c')).toBe('.a/b/c');
  });
});

/** A file or folder name that can exist on disk: no `/`, no NUL, not `.` or `..`. */
const component = fc
  .tuple(
    fc.constantFrom('', '.', '..'),
    fc.string({ unit: fc.constantFrom('a', 'B', '1', '-', '_', ' ', '~', '+', '.', 'é', '中', '[', '(', '!', '@', '*'), maxLength: 6 }),
    fc.constantFrom('', '.md', '.MD', '.toml', '.', '.tar.gz'),
  )
  .map(([prefix, body, ext]) => prefix + body + ext)
  .filter((name) => name !== '' && name !== '.' && name !== '..');

const relativePath = fc.array(component, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('slugOf properties', () => {
  it('never produces an empty segment for non-empty path components', () => {
    fc.assert(
      fc.property(relativePath, (file) => {
        const { slug } = slugOf(file);
        expect(slug.split('/')).toHaveLength(file.split('/').length);
        for (const segment of slug.split('/')) expect(segment).not.toBe('');
      }),
    );
  });

  it('is hidden exactly when some component starts with a dot', () => {
    fc.assert(
      fc.property(relativePath, (file) => {
        expect(slugOf(file).hidden).toBe(file.split('/').some((c) => c.startsWith('.')));
      }),
    );
  });

  it('keeps folder components, minus one leading dot', () => {
    fc.assert(
      fc.property(relativePath, (file) => {
        const folders = file.split('/').slice(0, -1);
        const slugFolders = slugOf(file).slug.split('/').slice(0, -1);
        expect(slugFolders).toEqual(folders.map((c) => (c.startsWith('.') ? c.slice(1) : c)));
      }),
    );
  });

  it('reports the last extension in lower case, and strips it from the name', () => {
    fc.assert(
      fc.property(relativePath, (file) => {
        const name = file.split('/').at(-1)!;
        const undotted = name.startsWith('.') ? name.slice(1) : name;
        const dot = undotted.lastIndexOf('.');
        const { slug, extension } = slugOf(file);
        const slugName = slug.split('/').at(-1)!;
        if (dot <= 0) {
          expect(slugName).toBe(undotted);
          expect(extension).toBe('');
        } else {
          expect(slugName).toBe(undotted.slice(0, dot));
          expect(extension).toBe(undotted.slice(dot + 1).toLowerCase());
        }
      }),
    );
  });
});
