/** `syllabus preview`: serves a built site, as a static host would. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { parseCommandArgs } from './parse-args.ts';
import { serveStatic } from './static-server.ts';
import { waitForStopSignal } from './stop-signal.ts';

export const PREVIEW_HELP = `Usage: syllabus preview [--out DIR] [--host HOST] [--port N]

Serves a built site (run "syllabus build" first) until you stop it with Ctrl-C.

Options:
  -o, --out DIR    the built site (default dist/)
      --host HOST  address to listen on (default 127.0.0.1)
      --port N     port (default 4321)
  -h, --help       show this help

Exit codes: 0 stopped, 1 no built site in the folder, 2 usage error.`;

/** Runs `preview`; resolves when the server stops. */
export async function previewCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string', short: 'o' }, host: { type: 'string' }, port: { type: 'string' } }, 'preview');
  if (values.help) {
    io.out(PREVIEW_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`preview takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'preview');
  const port = Number(values.port ?? '4321');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)}).`, 'preview');
  const dir = path.resolve(io.cwd, values.out ?? 'dist');
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new CliError(`${dir} holds no built site (no index.html). Run "syllabus build" first, or pass --out with the folder you built into.`, 1);
  }
  const server = await serveStatic(dir, values.host ?? '127.0.0.1', port, {
    // The target is the client's text: quoted, so that it cannot write to the terminal.
    onError: (error, request) =>
      io.err(`warning: ${request.method} ${JSON.stringify(request.url)} failed and was answered 500: ${error instanceof Error ? error.message : String(error)}`),
  });
  const stopped = waitForStopSignal();
  io.err(`Serving ${path.relative(io.cwd, dir) || '.'}/ at ${server.url}/ (Ctrl-C stops)`);
  await stopped;
  await server.close();
  return 0;
}
