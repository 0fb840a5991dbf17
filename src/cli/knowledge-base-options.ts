/** Opening the knowledge base named by `--config` / `SYLLABUS_CONFIG` for a command. */
import type { SyllabusConfig } from '../kb/config/merge.ts';
import { type Diagnostic, formatDiagnostic, hasConfigErrors, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { loadSiteConfig, type LoadedConfig } from '../build/read-config.ts';
import { openLocalKnowledgeBase } from '../url-sources/local-sources.ts';
import { CliError } from './errors.ts';
import type { CommandIo } from './io.ts';

/** The default config file, relative to the current folder. */
export const DEFAULT_CONFIG = 'content/kb.toml';

/**
 * The config paths a command uses: `--config` values, else `SYLLABUS_CONFIG`, else the default.
 * A NUL character in SYLLABUS_CONFIG is a usage error (exit 2); `--config` values were checked
 * with the other arguments (parse-args.ts).
 */
export function configPaths(flags: readonly string[] | undefined, io: CommandIo): string[] {
  if (flags && flags.length > 0) return [...flags];
  const fromEnv = io.env['SYLLABUS_CONFIG'];
  if (fromEnv?.includes('\0')) {
    throw new CliError(`SYLLABUS_CONFIG ${JSON.stringify(fromEnv)} contains a NUL character, which no path can hold. Set it to the path of a kb.toml.`, 2);
  }
  if (fromEnv) return [fromEnv];
  return [DEFAULT_CONFIG];
}

/** Reads and merges config files, returning configuration errors as diagnostics. */
export function readConfig(flags: readonly string[] | undefined, io: CommandIo): Promise<LoadedConfig> {
  return loadSiteConfig(configPaths(flags, io), io.cwd);
}

/** Throws the exit-2 error for configuration errors, listing every one. */
export function failOnConfigErrors(diagnostics: readonly Diagnostic[], io: CommandIo): void {
  if (!hasConfigErrors(diagnostics)) return;
  const lines = sortDiagnostics(diagnostics.filter((d) => d.kind === 'config-error')).map((d) => formatDiagnostic(d, io.cwd));
  throw new CliError(
    lines[0]!,
    2,
    lines.slice(1).map((l) => `error: ${l}`),
  );
}

/** Reads the config for a command; configuration errors throw (exit 2). */
export async function configForCommand(flags: readonly string[] | undefined, io: CommandIo): Promise<SyllabusConfig> {
  const loaded = await readConfig(flags, io);
  failOnConfigErrors(loaded.diagnostics, io);
  return loaded.config!;
}

/**
 * Opens the knowledge base of a config, its URL sources as the last build cached them (never
 * fetched here); configuration errors found on disk throw (exit 2).
 */
export function openForCommand(config: SyllabusConfig, io: CommandIo): KnowledgeBase {
  const { kb } = openLocalKnowledgeBase(config);
  failOnConfigErrors(kb.diagnostics(), io);
  return kb;
}

/** Prints content errors as warnings (content/reference/diagnostics.md: `learn` and `prompt` warn and go on). */
export function warnContentErrors(kb: KnowledgeBase, io: CommandIo): void {
  for (const diagnostic of kb.diagnostics()) {
    if (diagnostic.kind === 'content-error') io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`);
  }
}
