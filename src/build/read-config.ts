/** The build's first stage: the config files read and merged, once. */
import { type SyllabusConfig, loadConfig } from '../kb/config-load.ts';
import { readConfigFiles } from '../kb/config-read.ts';
import { type Diagnostic, formatDiagnostic, hasConfigErrors, sortDiagnostics } from '../kb/diagnostics.ts';
import { BuildError } from './build-error.ts';

/** A loaded config and every diagnostic found while loading it; configuration errors included. */
export interface LoadedConfig {
  /** The merged config, or undefined when a file could not be read or parsed. */
  config: SyllabusConfig | undefined;
  diagnostics: Diagnostic[];
}

/** Reads and merges the config files `paths` (relative to `cwd`); problems are diagnostics, never exceptions. */
export function loadSiteConfig(paths: readonly string[], cwd: string): LoadedConfig {
  const read = readConfigFiles(paths, cwd);
  if (read.diagnostics.length > 0) return { config: undefined, diagnostics: read.diagnostics };
  const loaded = loadConfig(read.sources);
  return { config: loaded.config, diagnostics: loaded.diagnostics };
}

/**
 * The config of `loaded`, or a {@link BuildError} listing every configuration error (each with
 * its file and line or dotted key, relative to `cwd`).
 */
export function configOrError(loaded: LoadedConfig, cwd: string): SyllabusConfig {
  if (!loaded.config || hasConfigErrors(loaded.diagnostics)) {
    const lines = sortDiagnostics(loaded.diagnostics.filter((d) => d.kind === 'config-error')).map((d) => formatDiagnostic(d, cwd));
    throw new BuildError(`the configuration has ${lines.length === 1 ? 'an error' : `${lines.length} errors`}; nothing was built.`, lines, 'config');
  }
  return loaded.config;
}
