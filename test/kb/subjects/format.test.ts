import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isBinary, slugOf } from '../../../src/kb/index.ts';
import { decodeSubjectText, fenceText, formatOf, languageOf, presentSubjectText, skippedMessage } from '../../../src/kb/subjects/format.ts';
import { readSubjectContent } from '../../../src/kb/subjects/read-subject.ts';
import { unfenceText } from '../../../src/kb/subjects/format.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('formatOf and languageOf (content/reference/subject-formats.md)', () => {
  it.each(['md', 'markdown', 'txt', 'text', ''])('.%s is passed through', (extension) => {
    expect(formatOf(extension)).not.toBe('code');
    expect(languageOf(extension)).toBeNull();
    expect(presentSubjectText('a `b`\n```', extension)).toBe('a `b`\n```');
  });

  it.each([
    ['toml', 'toml'],
    ['json', 'json'],
    ['yaml', 'yaml'],
    ['yml', 'yaml'],
    ['rs', 'rust'],
    ['py', 'python'],
    ['js', 'javascript'],
    ['mjs', 'javascript'],
    ['cjs', 'javascript'],
    ['ts', 'typescript'],
    ['mts', 'typescript'],
    ['cts', 'typescript'],
    ['sh', 'sh'],
    ['local', 'local'],
    ['gz', 'gz'],
  ])('.%s is fenced as %s', (extension, language) => {
    expect(formatOf(extension)).toBe('code');
    expect(languageOf(extension)).toBe(language);
    expect(presentSubjectText('x = 1', extension)).toBe('```' + language + '\nx = 1\n```');
  });

  it('matches extensions case-insensitively through the slug', () => {
    expect(languageOf(slugOf('README.MD').extension)).toBeNull();
    expect(languageOf(slugOf('Cargo.TOML').extension)).toBe('toml');
    expect(languageOf(slugOf('script.PY').extension)).toBe('python');
    expect(languageOf(slugOf('Odd.SH').extension)).toBe('sh');
  });

  it('treats an empty extension (notes.) as none', () => {
    expect(languageOf(slugOf('notes.').extension)).toBeNull();
  });

  it('fences an empty file as the opening then the closing fence line', () => {
    expect(presentSubjectText('', 'toml')).toBe('```toml\n```');
    expect(presentSubjectText('', 'md')).toBe('');
  });

  it('uses one more backtick than the longest run in the content', () => {
    expect(fenceText('a ``` b', 'rust')).toBe('````rust\na ``` b\n````');
    expect(fenceText('`x` and ``y``', 'py')).toBe('```py\n`x` and ``y``\n```');
    expect(fenceText('`````', 'json')).toBe('``````json\n`````\n``````');
  });
});

describe('decodeSubjectText (content/reference/subject-formats.md, "Reading")', () => {
  it('drops a BOM', () => {
    expect(decodeSubjectText(Uint8Array.of(0xef, 0xbb, 0xbf, 0x61))).toEqual({ text: 'a', invalidUtf8: false });
  });

  it('turns CRLF into LF and removes trailing line breaks', () => {
    expect(decodeSubjectText(bytes('a\r\nb\r\n\r\n'))).toEqual({ text: 'a\nb', invalidUtf8: false });
    expect(decodeSubjectText(bytes('a\n\n\n'))).toEqual({ text: 'a', invalidUtf8: false });
    expect(decodeSubjectText(bytes('\n\na\n'))).toEqual({ text: '\n\na', invalidUtf8: false });
  });

  it('keeps a lone \\r, also at the end', () => {
    expect(decodeSubjectText(bytes('a\rb\r'))).toEqual({ text: 'a\rb\r', invalidUtf8: false });
    expect(decodeSubjectText(bytes('a\r\r\n'))).toEqual({ text: 'a\r', invalidUtf8: false });
  });

  it('keeps trailing spaces and tabs', () => {
    expect(decodeSubjectText(bytes('a \t\n'))).toEqual({ text: 'a \t', invalidUtf8: false });
  });

  it('replaces invalid UTF-8 with U+FFFD and flags it', () => {
    expect(decodeSubjectText(Uint8Array.of(0x61, 0xff, 0x62, 0x0a))).toEqual({ text: 'a\uFFFDb', invalidUtf8: true });
    expect(decodeSubjectText(Uint8Array.of(0xc3))).toEqual({ text: '\uFFFD', invalidUtf8: true });
  });

  it('decodes an empty file to an empty text', () => {
    expect(decodeSubjectText(new Uint8Array())).toEqual({ text: '', invalidUtf8: false });
  });
});

describe('binary and oversized subjects (content/reference/subject-formats.md, "Skipped files")', () => {
  it('calls a file binary when a NUL is among the first 8192 bytes', () => {
    const late = new Uint8Array(8193).fill(0x61);
    late[8192] = 0;
    expect(isBinary(late)).toBe(false);
    late[8191] = 0;
    expect(isBinary(late)).toBe(true);
  });

  it('writes the skip messages exactly', () => {
    expect(skippedMessage('a/"b"', 'binary', 10)).toBe('Subject "a/\\"b\\"" is a binary file and was skipped.');
    expect(skippedMessage('big', 'too-large', 1048576)).toBe('Subject "big" is larger than 1048576 bytes and was skipped.');
  });

  it('reads files: binary beats oversized, the limit counts stored bytes', () => {
    const root = makeTree({
      'bin.png': Uint8Array.of(0x89, 0x50, 0x00, 0x47),
      'big-bin.dat': Uint8Array.of(0x00, ...new Array(20).fill(0x61)),
      'exact.md': 'é'.repeat(5),
      'over.md': 'é'.repeat(5) + 'x',
      'crlf.toml': '\ufeffa = 1\r\n\r\n',
    });
    const read = (name: string, max = 10) => readSubjectContent({ slug: slugOf(name).slug, file: path.join(root, name), extension: slugOf(name).extension }, max).content;
    expect(read('bin.png')).toBe('Subject "bin" is a binary file and was skipped.');
    expect(read('big-bin.dat')).toBe('Subject "big-bin" is a binary file and was skipped.');
    expect(read('exact.md')).toBe('ééééé');
    expect(read('over.md')).toBe('Subject "over" is larger than 10 bytes and was skipped.');
    expect(read('crlf.toml', 100)).toBe('```toml\na = 1\n```');
  });
});

/** Splits a fenced block back into fence, language and body. */
function parseFence(block: string): { open: string; close: string; body: string } {
  const lines = block.split('\n');
  return { open: lines[0]!, close: lines.at(-1)!, body: lines.slice(1, -1).join('\n') };
}

const longestRun = (text: string): number => Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));

describe('fenceText properties', () => {
  const content = fc.string({ unit: fc.constantFrom('`', '`', '`', 'a', '\n', ' ', '~', '\r', 'é'), maxLength: 40 });
  const language = fc.constantFrom('toml', 'json', 'rust', 'sh', 'x');

  it('always closes: no backtick run in the content is as long as the fence', () => {
    fc.assert(
      fc.property(content, language, (text, lang) => {
        const fence = parseFence(fenceText(text, lang)).close;
        expect(fence).toMatch(/^`+$/);
        expect(fence.length).toBe(Math.max(3, longestRun(text) + 1));
        expect(longestRun(text)).toBeLessThan(fence.length);
      }),
    );
  });

  it('parses back: fence+language, the content, the fence', () => {
    fc.assert(
      fc.property(content, language, (text, lang) => {
        const { open, close, body } = parseFence(fenceText(text, lang));
        expect(open).toBe(close + lang);
        expect(body).toBe(text);
      }),
    );
  });

  it('unfenceText gives the text back, the empty text included', () => {
    fc.assert(
      fc.property(content, language, (text, lang) => {
        expect(unfenceText(fenceText(text, lang))).toBe(text);
      }),
    );
    expect(unfenceText('```toml\n```')).toBe('');
  });
});
