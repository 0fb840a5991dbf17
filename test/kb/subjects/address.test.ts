import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressOf, encodeAddressSegment } from '../../../src/kb/index.ts';

describe('addressOf (content/reference/site-addresses.md)', () => {
  it.each([
    ['clang++', 'clang~2B~2B'],
    ['[[', '~5B~5B'],
    ['notes.v2', 'notes~2Ev2'],
    ['.md', '~2Emd'],
    ['café', 'café'],
    ['~', '~7E'],
    ['a b', 'a~20b'],
    ['.', '~2E'],
    ['..', '~2E~2E'],
    ['Zz09-_', 'Zz09-_'],
    ['中文١٢', '中文١٢'],
    ['€', '~E2~82~AC'],
    ['e\u0301', 'e~CC~81'],
    ['😀', '~F0~9F~98~80'],
    ['maintainers/jean', 'maintainers/jean'],
    ['a/clang++', 'a/clang~2B~2B'],
    ['x/.', 'x/~2E'],
  ])('%s → %s', (slug, address) => {
    expect(addressOf(slug)).toBe(address);
  });

  it('encodes one segment the same way', () => {
    expect(encodeAddressSegment('notes.v2')).toBe('notes~2Ev2');
  });
});

/** Inverts the address encoding, to prove that no two slugs share an address. */
function decodeAddress(address: string): string {
  return address
    .split('/')
    .map((segment) =>
      segment.replace(/(?:~[0-9A-F]{2})+/g, (run) => new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(run.slice(1).split('~'), (h) => parseInt(h, 16)))),
    )
    .join('/');
}

const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && s.isWellFormed());
const mixedSegment = fc.oneof(
  segment,
  fc.string({ unit: fc.constantFrom('a', 'Z', '0', '-', '_', '.', '~', ' ', '%', '+', 'é', 'ß', '中', '١', '\u0301', '😀', '~2E'), minLength: 1, maxLength: 8 }),
);
const slug = fc.array(mixedSegment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));

describe('addressOf properties', () => {
  it('only contains [A-Za-z0-9_~/-] or non-ASCII letters and digits', () => {
    fc.assert(
      fc.property(slug, (s) => {
        for (const char of addressOf(s)) {
          const ok = char.codePointAt(0)! < 0x80 ? /^[A-Za-z0-9_~/-]$/.test(char) : /^[\p{L}\p{N}]$/u.test(char);
          expect(ok, `character ${JSON.stringify(char)} in ${JSON.stringify(addressOf(s))}`).toBe(true);
        }
      }),
    );
  });

  it('never has a "." or ".." segment, nor an empty one', () => {
    fc.assert(
      fc.property(slug, (s) => {
        for (const part of addressOf(s).split('/')) expect(['', '.', '..']).not.toContain(part);
      }),
    );
  });

  it('keeps the segments of the slug', () => {
    fc.assert(
      fc.property(slug, (s) => {
        expect(addressOf(s).split('/')).toEqual(s.split('/').map(encodeAddressSegment));
      }),
    );
  });

  it('can be decoded back to the slug, so distinct slugs never share an address', () => {
    fc.assert(
      fc.property(slug, (s) => {
        expect(decodeAddress(addressOf(s))).toBe(s);
      }),
    );
    fc.assert(
      fc.property(slug, slug, (a, b) => {
        fc.pre(a !== b);
        expect(addressOf(a)).not.toBe(addressOf(b));
      }),
    );
  });
});
