/** `syllabus dev`: Astro's development server over a knowledge base. */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';
import { projectRoot } from './project-root.ts';
import { llmSummariesFile, withCachedSummaries } from './llm-summaries.ts';
import { sourcesCacheDir } from '../sources/source-cache.ts';
import { prepareSiteData } from '../astro/site-data.ts';
import { provideSiteDataSource } from '../astro/site-data-access.ts';

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
  configForCommand(values.config, io);
  const files = configPaths(values.config, io).map((p) => path.resolve(io.cwd, p));
  process.env['SYLLABUS_CONFIG_FILES'] = JSON.stringify(files);
  const root = projectRoot();
  // The dev server's store lives where Vite's watcher never looks (Astro's own default place):
  // a store inside the watched project would trigger a reload with every write. One store per
  // knowledge base, so that two dev servers on different ones do not overwrite each other's.
  const key = createHash('sha1').update(files.join('\0')).digest('hex').slice(0, 12);
  process.env['SYLLABUS_ASTRO_CACHE'] = path.join(root, 'node_modules', '.astro', `syllabus-dev-${key}`);
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  // LLM summaries come from the build's cache only: editing a page never calls the model.
  const cacheDir = path.join(path.dirname(files[0]!), '.syllabus-cache');
  // A build run meanwhile rewrites these: the pages then show what it fetched and summarised.
  const watch = [sourcesCacheDir(cacheDir), llmSummariesFile(cacheDir)];
  // The watcher follows a folder only if it exists when the server starts.
  fs.mkdirSync(sourcesCacheDir(cacheDir), { recursive: true });
  provideSiteDataSource(() => prepareSiteData(files, undefined, { summarize: async (catalog, config) => withCachedSummaries(catalog, config.kb.summaries, cacheDir), watch }));
  const { dev } = await import('astro');
  process.chdir(root);
  try {
    const server = await dev({ root, server: { host: values.host ?? '127.0.0.1', port } });
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
