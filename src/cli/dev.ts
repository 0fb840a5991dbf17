/** `syllabus dev`: Astro's development server over a knowledge base. */
import fs from 'node:fs';
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { startDevServer } from '../astro/run-astro.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { openLiveSite } from '../build/live-site.ts';
import { normalizeBase } from '../kb/publish/site-urls.ts';

export const DEV_HELP = `Usage: syllabus dev [--config PATH]… [--host HOST] [--port N]

Serves the site while you write: pages are rendered on request, and editing a subject or the
config reloads the knowledge base. Stop it with Ctrl-C.

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
  try {
    const server = await startDevServer(
      { site, base, siteUrl: config.site.url, root: cache.devAstroRoot, cacheDir: cache.devAstro, cwd: io.cwd },
      values.host ?? '127.0.0.1',
      port,
    );
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await server.stop();
  } catch (error) {
    throw new CliError(`the development server failed: ${(error as Error).message}`, 1);
  }
  return 0;
}
