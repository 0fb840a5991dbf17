/** `syllabus build`: the site of a knowledge base (SPEC 6), built by Astro from the catalog. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCatalog, hasContentErrors, openKnowledgeBase, sortDiagnostics } from '../kb/index.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, configPaths, failOnConfigErrors, formatDiagnostic } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const BUILD_HELP = `Usage: syllabus build [--config PATH]… [--out DIR]

Builds the knowledge base into a static site. Content errors (duplicate slugs, a missing
subjects folder) stop the build; run "syllabus check" to see every problem.

Options:
  -c, --config PATH   config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -o, --out DIR       output folder (default dist/)
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
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, out: { type: 'string', short: 'o' } }, 'build');
  if (values.help) {
    io.out(BUILD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`build takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'build');
  const config = configForCommand(values.config, io);
  const kb = openKnowledgeBase(config);
  failOnConfigErrors(kb.diagnostics(), io);
  const { diagnostics } = await buildCatalog(kb);
  const all = sortDiagnostics([...kb.diagnostics(), ...diagnostics]);
  if (hasContentErrors(all)) {
    const errors = all.filter((d) => d.kind === 'content-error').map((d) => formatDiagnostic(d, io.cwd));
    throw new CliError(`the knowledge base has ${errors.length} content ${errors.length === 1 ? 'error' : 'errors'}; nothing was built.`, 1, errors.map((e) => `error: ${e}`));
  }
  for (const warning of all) io.err(`warning: ${formatDiagnostic(warning, io.cwd)}`);

  const root = projectRoot();
  const outDir = path.resolve(io.cwd, values.out ?? 'dist');
  // Astro builds inside the project, where its own packages resolve from the prerender step,
  // then the result replaces the output folder in one move.
  const staging = path.join(root, '.cache', 'site-build');
  fs.rmSync(staging, { recursive: true, force: true });
  process.env['SYLLABUS_CONFIG_FILES'] = JSON.stringify(configPaths(values.config, io).map((p) => path.resolve(io.cwd, p)));
  process.env['SYLLABUS_OUT_DIR'] = staging;
  process.env['ASTRO_TELEMETRY_DISABLED'] = '1';
  const { build } = await import('astro');
  // Parts of Astro's prerendering resolve from the current folder, whatever `root` says.
  const previous = process.cwd();
  process.chdir(root);
  try {
    await build({ root, outDir: staging, logLevel: 'warn' });
  } catch (error) {
    throw new CliError(`the site build failed: ${(error as Error).message}`, 1);
  } finally {
    process.chdir(previous);
  }
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(outDir), { recursive: true });
  try {
    fs.renameSync(staging, outDir);
  } catch {
    fs.cpSync(staging, outDir, { recursive: true });
    fs.rmSync(staging, { recursive: true, force: true });
  }
  const shown = path.relative(io.cwd, outDir);
  io.err(`Built ${shown === '' || shown.startsWith('..') ? outDir : shown}/`);
  return 0;
}
