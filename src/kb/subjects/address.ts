/** Subject addresses (content/reference/site-addresses.md): the same on disk and in a URL, never `.`, `..` or colliding. */

const ASCII_KEPT = /^[A-Za-z0-9_-]$/;
const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const encoder = new TextEncoder();

/** Whether a character stays as it is in an address. */
function isKept(char: string): boolean {
  return (char.codePointAt(0) ?? 0) < 0x80 ? ASCII_KEPT.test(char) : LETTER_OR_DIGIT.test(char);
}

/**
 * Encodes one slug segment: ASCII letters, digits, `-`, `_` and non-ASCII letters and digits stay;
 * every other character (`.` and `~` included) becomes `~` plus two upper-case hex digits per
 * UTF-8 byte.
 */
export function encodeAddressSegment(segment: string): string {
  let out = '';
  for (const char of segment) {
    if (isKept(char)) {
      out += char;
      continue;
    }
    for (const byte of encoder.encode(char)) {
      out += '~' + byte.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

/** Encodes a whole slug segment by segment (`a/clang++` → `a/clang~2B~2B`). */
export function addressOf(slug: string): string {
  return slug.split('/').map(encodeAddressSegment).join('/');
}
