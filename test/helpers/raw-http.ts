/**
 * HTTP requests written byte for byte over a socket: fetch would normalise the path (`/./`,
 * `%2e%2e`, backslashes), and hostile-request tests need the server to see it as sent.
 */
import net from 'node:net';

/** A parsed HTTP/1.1 answer. */
export interface RawAnswer {
  status: number;
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Record<string, string>;
  body: Buffer;
}

/** The head of a request: `METHOD TARGET HTTP/1.1`, a Host, `Connection: close`, then `headers`. */
export function requestHead(method: string, target: string, headers: readonly string[] = []): Buffer {
  return Buffer.from([`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers, '', ''].join('\r\n'), 'utf8');
}

/** Writes `request` to `port` on 127.0.0.1 and resolves with every byte the server sent until it closed. */
export function sendRaw(port: number, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A server may close before reading all of a huge request; what it answered still counts.
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? resolve(Buffer.concat(chunks)) : reject(error)));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

const STATUS_LINE = /^HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*\r\n/;

/**
 * Parses `raw` as one HTTP/1.1 answer (a status line, header lines, a blank line, the body, plain
 * or chunked); undefined when it is not one. The answer to a HEAD request (`head`) has no body.
 */
export function parseAnswer(raw: Buffer, head = false): RawAnswer | undefined {
  let text = raw.toString('latin1');
  const status = STATUS_LINE.exec(text);
  if (!status) return undefined;
  text = text.slice(status[0].length);
  const headers: Record<string, string> = {};
  for (let line = HEADER_LINE.exec(text); line; line = HEADER_LINE.exec(text)) {
    const name = line[1]!.toLowerCase();
    headers[name] = name in headers ? `${headers[name]}, ${line[2]!}` : line[2]!;
    text = text.slice(line[0].length);
  }
  if (!text.startsWith('\r\n')) return undefined;
  let body = Buffer.from(text.slice(2), 'latin1');
  if (head) return body.length === 0 ? { status: Number(status[1]), headers, body } : undefined;
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let rest = body.toString('latin1');
    for (;;) {
      const size = /^([0-9a-fA-F]+)\r\n/.exec(rest);
      if (!size) return undefined;
      const length = parseInt(size[1]!, 16);
      if (length === 0) break;
      parts.push(Buffer.from(rest.slice(size[0].length, size[0].length + length), 'latin1'));
      rest = rest.slice(size[0].length + length + 2);
    }
    body = Buffer.concat(parts);
  } else if (headers['content-length'] !== undefined && Number(headers['content-length']) !== body.length) {
    return undefined;
  }
  return { status: Number(status[1]), headers, body };
}
