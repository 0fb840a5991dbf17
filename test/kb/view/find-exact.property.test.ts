/**
 * The point lookup of one exact slug (`findExact`) must agree with the exact-equality step of
 * content/reference/patterns.md over the whole walked topic, whatever the tree, the `disabled` entries and the pattern.
 */
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugOf } from '../../../src/kb/index.ts';
import { dropLeadingDots } from '../../../src/kb/subjects/slug.ts';
import { openTree } from '../../helpers/open-tree.ts';

const component = fc
  .tuple(fc.constantFrom('', '', '.', '..'), fc.string({ unit: fc.constantFrom('a', 'b', '*', '.', '-'), minLength: 1, maxLength: 2 }), fc.constantFrom('', '.md', '.toml', '.txt'))
  .map(([prefix, body, ext]) => prefix + body + ext)
  .filter((name) => name !== '.' && name !== '..' && name !== '.git' && name !== 'links.txt');

const world = fc
  .uniqueArray(
    fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
    { minLength: 1, maxLength: 8 },
  )
  .filter((paths) => paths.every((p) => paths.every((q) => !q.startsWith(`${p}/`))))
  .chain((paths) => {
    const slugs = [...new Set(paths.map((p) => slugOf(p).slug))];
    const dotted = paths.map((p) => p.replace(/\.[^./]*$/, ''));
    const patterns = [...slugs, ...dotted, ...slugs.map((s) => `.${s}`), 'a*', '*', '**', 'nothing'];
    return fc.record({
      paths: fc.constant(paths),
      disabled: fc.subarray([...new Set([...slugs, ...dotted, 'a*', '*/**', '**', '.a', 'b*'])].filter((d) => d !== '')),
      pattern: fc.constantFrom(...patterns),
    });
  });

describe('findExact', () => {
  it('finds what the whole walk finds by exact equality, or nothing when the walk finds nothing', () => {
    fc.assert(
      fc.property(world, ({ paths, disabled, pattern }) => {
        const toml = `[kb.topic.t]\nsubjects = "t"\ndisabled = ${JSON.stringify(disabled)}\n`;
        const entries = Object.fromEntries(paths.map((p, i) => [`t/${p}`, `content ${i}\n`]));
        const point = openTree(toml, entries);
        const walked = openTree(toml, entries);
        try {
          const found = point.kb.findExact('t', pattern);
          const topic = walked.kb.topic('t')!;
          const expected = topic.bySlug.get(pattern) ?? topic.bySlug.get(dropLeadingDots(pattern));
          expect(found && { slug: found.slug, path: found.path }).toEqual(expected && { slug: expected.slug, path: expected.path });
        } finally {
          fs.rmSync(point.root, { recursive: true, force: true });
          fs.rmSync(walked.root, { recursive: true, force: true });
        }
      }),
      { numRuns: 150 },
    );
  });
});
