/**
 * The commonest patterns are matched without compiling a glob (src/kb/patterns/glob.ts): an exact slug,
 * `folder/**` and `folder/*`. For every such pattern the shortcut must match exactly the slugs the
 * compiled glob matches (picomatch in the dialect of content/reference/patterns.md), and give the
 * same literal base.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/kb/patterns/glob.ts';

const OPTIONS = { dot: true, nonegate: true, noextglob: true } as const;
// Segments of slugs as the walk makes them: any characters but `/`, dot segments included.
const segment = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._~ -]{1,6}$/), fc.constantFrom('.', '..', 'a', 'b'));
const slugOf = (parts: string[]) => parts.join('/');
const slug = fc.array(segment, { minLength: 1, maxLength: 4 }).map(slugOf);

/** The dialect's matching of dot segments, as compilePattern does it (they are ordinary characters). */
function mask(text: string): string {
  return text
    .split('/')
    .map((s) => (s === '.' ? '\uE000' : s === '..' ? '\uE000\uE000' : s))
    .join('/');
}

describe('compilePattern shortcuts', () => {
  it('match the same slugs as the compiled glob, with the same base', () => {
    fc.assert(
      fc.property(slug, fc.constantFrom('', '/**', '/*'), fc.array(segment, { maxLength: 3 }), slug, (folder, suffix, more, other) => {
        const pattern = `${folder}${suffix}`;
        const compiled = compilePattern(pattern);
        if (!compiled.ok) return;
        const glob = picomatch(pattern, OPTIONS);
        for (const candidate of [folder, other, slugOf([folder, ...more]), `${folder}x`, `${folder}/x/y`, pattern.toUpperCase()]) {
          expect(compiled.test(candidate), `${pattern} on ${candidate}`).toBe(glob(mask(candidate)));
        }
        const { base, isGlob } = picomatch.scan(pattern, OPTIONS);
        expect(compiled.base).toBe(isGlob && !base.includes('\\') ? base : '');
      }),
      { numRuns: 3000 },
    );
  });
});
