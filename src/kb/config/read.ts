/** Reading config files from disk: the thin fs step before `loadConfig`. */
import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';

/** A config file as read: its path (absolute) and its text. */
export interface ConfigText {
  file: string;
  text: string;
}

/**
 * Reads config files (paths relative to `cwd`). A file that cannot be read is a configuration
 * error naming it.
 */
export function readConfigFiles(paths: readonly string[], cwd: string): { configTexts: ConfigText[]; diagnostics: Diagnostic[] } {
  const configTexts: ConfigText[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const given of paths) {
    const file = path.resolve(cwd, given);
    try {
      const bytes = fs.readFileSync(file);
      configTexts.push({ file, text: new TextDecoder().decode(bytes) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const what = code === 'ENOENT' ? 'does not exist' : code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code ?? String(error)})`;
      diagnostics.push({
        kind: 'config-error',
        code: 'config-unreadable',
        message: `The config file ${JSON.stringify(given)} ${what}. Pass the path of a kb.toml with --config (or SYLLABUS_CONFIG).`,
        file,
      });
    }
  }
  return { configTexts, diagnostics };
}
