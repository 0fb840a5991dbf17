/** `syllabus dev`: Astro's development server over a knowledge base. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { startDevServer } from '../astro/run-astro.ts';
import { BuildError } from '../build/build-error.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { openLiveSite, type LiveSite } from '../build/live-site.ts';
import { plural } from '../kb/diagnostics/diagnostics.ts';
import { normalizeBase } from '../kb/publish/site-urls.ts';
import { waitForStopSignal } from './stop-signal.ts';

export const DEV_HELP = `Usage: syllabus dev [--config PATH]… [--host HOST] [--port N]

Serves the site while you write: the knowledge base is read once at the start, pages are
rendered on request, and editing a subject or the config reads it again and reloads the open
pages. Stop it with Ctrl-C.

Options:
  -c, --config PATH  config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
      --host HOST    address to listen on (default 127.0.0.1)
      --port N       port (default 4321)
  -h, --help         show this help

Exit codes: 0 stopped, 1 the server failed, 2 usage or configuration error.`;

/** Runs `dev`; resolves when the server stops. */
export async function devCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, host: { type: 'string' }, port: { type: 'string' } }, 'dev');
  if (values.help) {
    io.out(DEV_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`dev takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'dev');
  const port = Number(values.port ?? '4321');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw usageError(`--port must be a whole number from 0 to 65535 (got ${JSON.stringify(values.port)}).`, 'dev');
  const config = await configForCommand(values.config, io);
  const files = configPaths(values.config, io).map((p) => path.resolve(io.cwd, p));
  const cache = cacheFolder(defaultCacheDir(files[0]!));
  // A build run meanwhile rewrites the cache's sources and summaries: the pages then show them.
  // The watcher follows a folder only if it exists when the server starts.
  fs.mkdirSync(cache.sources, { recursive: true });
  const site = openLiveSite({ configFiles: files, cache, cwd: io.cwd });
  const base = normalizeBase(config.site.base);
  // Read while Astro loads and sets up; its integration waits for the read before the server
  // listens, so that no request and no module Vite loads waits on it.
  const read = readFirst(site, io);
  try {
    const server = await startDevServer(
      { site, base, siteUrl: config.site.url, root: cache.devAstroRoot, cacheDir: cache.devAstro, cwd: io.cwd },
      values.host ?? '127.0.0.1',
      port,
    );
    await read;
    const host = server.address.host.includes(':') ? `[${server.address.host}]` : server.address.host;
    const any = server.address.host === '0.0.0.0' || server.address.host === '::';
    await warmUp(`http://${any ? '127.0.0.1' : host}:${server.address.port}${base}`);
    const stopped = waitForStopSignal();
    io.err(`Serving http://${host}:${server.address.port}${base} (ready ${seconds(performance.now())} after the start; Ctrl-C stops)`);
    await stopped;
    await server.stop();
  } catch (error) {
    throw new CliError(`the development server failed: ${(error as Error).message}`, 1);
  }
  return 0;
}

/** `ms` as seconds, for the messages of `dev`. */
function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Reads the knowledge base once, and says what it read. A knowledge base that cannot be served yet
 * (content errors) is said too, and the server starts anyway: its pages show the errors until an
 * edit fixes them.
 */
async function readFirst(site: LiveSite, io: CommandIo): Promise<void> {
  const started = performance.now();
  io.status?.('reading the knowledge base…');
  try {
    const data = await site.site();
    io.status?.(null);
    const subjects = data.catalog.topics.reduce((sum, topic) => sum + topic.subjects.length, 0);
    io.err(`Read ${plural(subjects, 'subject')} in ${plural(data.catalog.topics.length, 'topic')} (${seconds(performance.now() - started)}).`);
  } catch (error) {
    io.status?.(null);
    const details = error instanceof BuildError ? error.details : [];
    io.err(`warning: ${(error as Error).message}`);
    for (const line of details) io.err(`  ${line}`);
    io.err('The pages show this until it is fixed: saving a file reads the knowledge base again.');
  }
}

/**
 * Asks the server for the home page once, so that Vite has compiled Astro's runtime and the
 * site's layout (several seconds, more on a busy machine) before the server says it is ready,
 * rather than while the first reader waits. An answer that fails changes nothing: the reader gets
 * the same.
 */
async function warmUp(home: string): Promise<void> {
  try {
    await (await fetch(home)).arrayBuffer();
  } catch {
    // Not reachable from here (a firewall, a proxy): the first reader's page compiles it.
  }
}
