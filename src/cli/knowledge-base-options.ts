/** Opening the knowledge base named by `--config` / `SYLLABUS_CONFIG` for a command. */
import path from 'node:path';
import {
  hasConfigErrors,
  loadConfig,
  sortDiagnostics,
  readConfigFiles,
  type Diagnostic,
  type KnowledgeBase,
  type SyllabusConfig,
} from '../kb/index.ts';
import { openLocalKnowledgeBase } from '../sources/local-sources.ts';
import { CliError } from './errors.ts';
import type { CommandIo } from './io.ts';

/** The default config file, relative to the current folder. */
export const DEFAULT_CONFIG = 'content/kb.toml';

/** The config paths a command uses: `--config` values, else `SYLLABUS_CONFIG`, else the default. */
export function configPaths(flags: readonly string[] | undefined, io: CommandIo): string[] {
  if (flags && flags.length > 0) return [...flags];
  const fromEnv = io.env['SYLLABUS_CONFIG'];
  if (fromEnv) return [fromEnv];
  return [DEFAULT_CONFIG];
}

/** Formats a diagnostic's place: `path:line:column` relative to the current folder. */
export function formatPlace(diagnostic: Diagnostic, cwd: string): string {
  if (!diagnostic.file) return '';
  const relative = path.relative(cwd, diagnostic.file);
  let place = relative === '' || relative.startsWith('..') ? diagnostic.file : relative;
  if (diagnostic.line) place += `:${diagnostic.line}`;
  if (diagnostic.line && diagnostic.column) place += `:${diagnostic.column}`;
  return place;
}

/** One line for a diagnostic: `place: message`. */
export function formatDiagnostic(diagnostic: Diagnostic, cwd: string): string {
  const place = formatPlace(diagnostic, cwd);
  return place ? `${place}: ${diagnostic.message}` : diagnostic.message;
}

/** The loaded config and all diagnostics found so far; configuration errors included. */
export interface LoadedConfig {
  config: SyllabusConfig | undefined;
  diagnostics: Diagnostic[];
}

/** Reads and merges config files, returning configuration errors as diagnostics. */
export function readConfig(flags: readonly string[] | undefined, io: CommandIo): LoadedConfig {
  const read = readConfigFiles(configPaths(flags, io), io.cwd);
  if (read.diagnostics.length > 0) return { config: undefined, diagnostics: read.diagnostics };
  const loaded = loadConfig(read.sources);
  return { config: loaded.config, diagnostics: loaded.diagnostics };
}

/** Throws the exit-2 error for configuration errors, listing every one. */
export function failOnConfigErrors(diagnostics: readonly Diagnostic[], io: CommandIo): void {
  if (!hasConfigErrors(diagnostics)) return;
  const lines = sortDiagnostics(diagnostics.filter((d) => d.kind === 'config-error')).map((d) => formatDiagnostic(d, io.cwd));
  throw new CliError(lines[0]!, 2, lines.slice(1).map((l) => `error: ${l}`));
}

/** Reads the config for a command; configuration errors throw (exit 2). */
export function configForCommand(flags: readonly string[] | undefined, io: CommandIo): SyllabusConfig {
  const loaded = readConfig(flags, io);
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

/** Prints content errors as warnings (SPEC 5: `learn` and `prompt` warn and go on). */
export function warnContentErrors(kb: KnowledgeBase, io: CommandIo): void {
  for (const diagnostic of kb.diagnostics()) {
    if (diagnostic.kind === 'content-error') io.err(`warning: ${formatDiagnostic(diagnostic, io.cwd)}`);
  }
}
