/**
 * A gzip-compressed tar archive (POSIX ustar) of in-memory files, with the same bytes for the same
 * files on every machine: no times, owners or modes of the files on disk, a fixed order, and a
 * fixed gzip header. What the Agent Skills archives of the site are made with
 * (content/agents/agent-skills.md).
 */
import { gzipSync } from 'node:zlib';

/** One file of an archive: its path inside it (`/` separators) and its bytes. */
export interface ArchiveEntry {
  path: string;
  bytes: Uint8Array;
}

const BLOCK = 512;

/** Whether ustar can hold `path`: at most 100 bytes, or split at a `/` into 155 and 100. */
export function fitsTarPath(path: string): boolean {
  return splitTarPath(path) !== undefined;
}

/**
 * The `.tar.gz` of `entries`, in the order given: regular files, mode 0644, owner 0, time 0.
 * Throws for a path {@link fitsTarPath} refuses (check first).
 */
export function createTarGz(entries: readonly ArchiveEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    blocks.push(tarHeader(entry.path, entry.bytes.length));
    blocks.push(Buffer.from(entry.bytes));
    const padding = (BLOCK - (entry.bytes.length % BLOCK)) % BLOCK;
    if (padding > 0) blocks.push(Buffer.alloc(padding));
  }
  blocks.push(Buffer.alloc(2 * BLOCK));
  const gzip = gzipSync(Buffer.concat(blocks), { level: 9 });
  // The gzip header's OS byte is the platform zlib was built for; 3 (Unix) everywhere keeps the bytes equal.
  gzip[9] = 3;
  return gzip;
}

function tarHeader(path: string, size: number): Buffer {
  const split = splitTarPath(path);
  if (!split) throw new Error(`The path ${JSON.stringify(path)} is too long for a tar archive.`);
  const header = Buffer.alloc(BLOCK);
  header.write(split.name, 0, 100, 'utf8');
  header.write('0000644\0', 100, 'ascii');
  header.write('0000000\0', 108, 'ascii');
  header.write('0000000\0', 116, 'ascii');
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  header.write('00000000000\0', 136, 'ascii');
  header.write('        ', 148, 'ascii');
  header.write('0', 156, 'ascii');
  header.write('ustar\0', 257, 'ascii');
  header.write('00', 263, 'ascii');
  header.write(split.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return header;
}

/** `path` as ustar's `prefix` and `name` fields, or undefined when it does not fit them. */
function splitTarPath(path: string): { prefix: string; name: string } | undefined {
  const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
  if (bytes(path) <= 100) return { prefix: '', name: path };
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) {
    const prefix = path.slice(0, at);
    const name = path.slice(at + 1);
    if (bytes(prefix) <= 155 && bytes(name) <= 100 && name !== '') return { prefix, name };
  }
  return undefined;
}
