/** The build's first stage: the config files read and merged, once. */
import { mergeConfigFiles, type SyllabusConfig, type ValidatedConfigFile } from '../kb/config/merge.ts';
import { readConfigFiles } from '../kb/config/read.ts';
import { formatDiagnostic, hasConfigErrors, sortDiagnostics, type Diagnostic } from '../kb/diagnostics/diagnostics.ts';
import { BuildError } from './build-error.ts';
import { openConfigMemo } from './config-memo.ts';

/** A loaded config and every diagnostic found while loading it; configuration errors included. */
export interface LoadedConfig {
  /** The merged config, or undefined when a file could not be read or parsed. */
  config: SyllabusConfig | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Reads, validates and merges the config files `paths` (relative to `cwd`); problems are
 * diagnostics, never exceptions. A file unchanged since an earlier run is not validated again
 * (see config-memo.ts); the validator is loaded only for the others.
 */
export async function loadSiteConfig(paths: readonly string[], cwd: string): Promise<LoadedConfig> {
  const read = readConfigFiles(paths, cwd);
  if (read.diagnostics.length > 0) return { config: undefined, diagnostics: read.diagnostics };
  const memo = openConfigMemo();
  const validated: ValidatedConfigFile[] = [];
  let validate: ((configText: (typeof read.configTexts)[number]) => ValidatedConfigFile) | undefined;
  for (const configText of read.configTexts) {
    const kept = memo?.get(configText);
    if (kept) {
      validated.push(kept);
      continue;
    }
    validate ??= (await import('../kb/config/validate.ts')).validateConfigFile;
    const fresh = validate(configText);
    memo?.set(fresh);
    validated.push(fresh);
  }
  memo?.save();
  const merged = mergeConfigFiles(validated);
  return { config: merged.config, diagnostics: merged.diagnostics };
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
