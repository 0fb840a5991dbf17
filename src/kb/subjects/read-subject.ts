/** Reading a subject's file into its content as `learn` returns it. A thin fs layer over `format.ts`. */
import fs from 'node:fs';
import { BINARY_SNIFF_BYTES, decodeSubjectText, isBinary, presentSubjectText, skippedMessage, type SkipReason } from './format.ts';

/** A subject's content as every surface shows it, and what reading it found. */
export interface SubjectContent {
  /** The content (content/reference/subject-formats.md): as it is, fenced, or the message of a skipped subject. */
  content: string;
  /** The decoded text before fencing (`''` when skipped). */
  text: string;
  /** Why the content is a message instead of the file, if it is. */
  skipped: SkipReason | null;
  /** Whether the file held invalid UTF-8 (replaced by U+FFFD). */
  invalidUtf8: boolean;
  /** Size of the file as stored, in bytes (0 when unreadable). */
  bytes: number;
  /** The file's bytes, when it was read whole. */
  raw: Uint8Array | null;
}

/** What reading needs to know about a subject. */
export interface ReadableSubject {
  slug: string;
  file: string;
  extension: string;
}

/**
 * Reads a subject's file. An oversized file is not read past its first 8192 bytes (enough to tell
 * a binary one, whose message wins).
 */
export function readSubjectContent(subject: ReadableSubject, maxBytes: number): SubjectContent {
  const skip = (reason: SkipReason, bytes: number, raw: Uint8Array | null = null): SubjectContent => ({
    content: skippedMessage(subject.slug, reason, maxBytes),
    text: '',
    skipped: reason,
    invalidUtf8: false,
    bytes,
    raw,
  });
  let fd: number;
  try {
    fd = fs.openSync(subject.file, 'r');
  } catch {
    return skip('unreadable', 0);
  }
  try {
    const size = fs.fstatSync(fd).size;
    if (size > maxBytes) {
      const head = new Uint8Array(Math.min(size, BINARY_SNIFF_BYTES));
      fs.readSync(fd, head, 0, head.length, 0);
      return skip(isBinary(head) ? 'binary' : 'too-large', size);
    }
    const raw = fs.readFileSync(fd);
    if (isBinary(raw)) return skip('binary', raw.length, raw);
    const { text, invalidUtf8 } = decodeSubjectText(raw);
    return { content: presentSubjectText(text, subject.extension), text, skipped: null, invalidUtf8, bytes: raw.length, raw };
  } catch {
    return skip('unreadable', 0);
  } finally {
    fs.closeSync(fd);
  }
}
