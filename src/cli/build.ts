/** `syllabus build`: the site of a knowledge base (SPEC 6), built by Astro from the catalog, then indexed by Pagefind. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasContentErrors } from '../kb/index.ts';
import { prepareSiteData, provideSiteData, type SiteData } from '../astro/site-data.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths, failOnConfigErrors, formatDiagnostic } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const BUILD_HELP = `Usage: syllabus build [--config PATH]… [--out DIR] [--cache DIR]

Builds the knowledge base into a static site: pages for people, search, and the files agents
read. Content errors (duplicate slugs, a missing subjects folder) stop the build; run
"syllabus check" to see every problem. Unchanged subjects are not rendered again: the cache
keeps their rendering between builds.

Options:
  -c, --config PATH   config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -o, --out DIR       output folder (default dist/)
      --cache DIR     build cache (default .syllabus-cache/ beside the first config file)
  -h, --help          show this help

Exit codes: 0 built, 1 content errors or a failed build, 2 usage or configuration error.`;

/** The project folder (where astro.config.mjs is), from this file's place in the bundle or in src/. */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!dir.endsWith(`${path.sep}node_modules`) && path.basename(dir) !== 'src' && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return path.dirname(dir);
}

/** Runs `build`; returns the exit code. */
export async function buildCommand(argv: string[], io: CommandIo): Promise<number> {
  const started = performance.now();
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, out: { type: 'string', short: 'o' }, cache: { type: 'string' } }, 'build');
  if (values.help) {
    io.out(BUILD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`build takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'build');
  // Configuration errors stop the build before anything is read (exit 2).
  configForCommand(values.config, io);
  const files = configPaths(values.config, io).map((p) => path.resolve(io.cwd, p));
  const outDir = path.resolve(io.cwd, values.out ?? 'dist');
  const cacheDir = path.resolve(io.cwd, values.cache ?? path.join(path.dirname(files[0]!), '.syllabus-cache'));
  const shown = (dir: string): string => {
    const relative = path.relative(io.cwd, dir);
    return relative === '' || relative.startsWith('..') ? dir : relative;
  };

  let phase = performance.now();
  const lap = (): string => {
    const now = performance.now();
    const text = seconds(now - phase);
    phase = now;
    return text;
  };
  const data = await prepareSiteData(files);
  failOnConfigErrors(data.diagnostics, io);
  if (hasContentErrors(data.diagnostics)) {
    const errors = data.diagnostics.filter((d) => d.kind === 'content-error').map((d) => formatDiagnostic(d, io.cwd));
    throw new CliError(`the knowledge base has ${errors.length} content ${errors.length === 1 ? 'error' : 'errors'}; nothing was built.`, 1, errors.map((e) => `error: ${e}`));
  }
  const warnings = data.diagnostics.filter((d) => d.kind === 'warning');
  for (const warning of warnings) io.err(`warning: ${formatDiagnostic(warning, io.cwd)}`);
  const counts = countSubjects(data);
  io.err(`read      ${counts.topics} topics, ${counts.subjects} subjects (${lap()})`);

  provideSiteData(data);
  const root = projectRoot();
  // Astro builds inside the project, where its own packages resolve from the prerender step,
  // then the result replaces the output folder in one move.
  const staging = path.join(cacheDir, 'site-build');
  fs.rmSync(staging, { recursive: true, force: true });
  process.env['SYLLABUS_OUT_DIR'] = staging;
  process.env['SYLLABUS_ASTRO_CACHE'] = path.join(cacheDir, 'astro');
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  const { build } = await import('astro');
  // Parts of Astro's prerendering resolve from the current folder, whatever `root` says.
  const previous = process.cwd();
  process.chdir(root);
  try {
    await build({
      root,
      outDir: staging,
      cacheDir: path.join(cacheDir, 'astro'),
      base: data.routes.base,
      ...(data.site.url ? { site: data.site.url } : {}),
      logLevel: 'warn',
    });
  } catch (error) {
    throw new CliError(`the site build failed: ${(error as Error).message}`, 1);
  } finally {
    process.chdir(previous);
  }
  io.err(`pages     ${countPages(data)} pages, ${data.renderStats.rendered} subjects rendered, ${data.renderStats.unchanged} unchanged (${lap()})`);

  const indexed = await indexSearch(staging);
  io.err(`search    ${indexed} pages indexed (${lap()})`);

  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  try {
    fs.renameSync(staging, outDir);
  } catch {
    fs.cpSync(staging, outDir, { recursive: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
  io.err(
    `Built ${shown(outDir)}/: ${counts.topics} topics, ${counts.subjects} subjects (${counts.hidden} hidden, ${counts.disabled} disabled, ${counts.skipped} skipped), ${plural(warnings.length, 'warning')}, ${seconds(performance.now() - started)}`,
  );
  return 0;
}

/** Writes the Pagefind index of the pages in `dir`; returns how many pages it indexed. */
async function indexSearch(dir: string): Promise<number> {
  const pagefind = await import('pagefind');
  try {
    const { index, errors } = await pagefind.createIndex({});
    if (!index) throw new CliError(`the search index could not start: ${errors.join('; ')}`, 1);
    const added = await index.addDirectory({ path: dir });
    if (added.errors.length > 0) throw new CliError(`the search index failed: ${added.errors.join('; ')}`, 1);
    const written = await index.writeFiles({ outputPath: path.join(dir, 'pagefind') });
    if (written.errors.length > 0) throw new CliError(`the search index could not be written: ${written.errors.join('; ')}`, 1);
    return added.page_count;
  } finally {
    await pagefind.close();
  }
}

function countSubjects(data: SiteData): { topics: number; subjects: number; hidden: number; disabled: number; skipped: number } {
  const subjects = data.catalog.topics.flatMap((t) => t.subjects);
  return {
    topics: data.catalog.topics.length,
    subjects: subjects.length,
    hidden: subjects.filter((s) => s.hidden).length,
    disabled: data.kb.topics().reduce((sum, t) => sum + t.disabledCount, 0),
    skipped: subjects.filter((s) => s.skipped !== null).length,
  };
}

function countPages(data: SiteData): number {
  // Home, search and 404, then the topics and the subjects.
  return 3 + data.routes.topics.length + data.routes.subjects.length;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
