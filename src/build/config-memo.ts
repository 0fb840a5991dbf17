/**
 * Validated config files kept between runs, by path and text: a command run again on an unchanged
 * `kb.toml` (an agent's many `learn` calls) merges the kept result instead of parsing the TOML
 * and validating it again, and never loads the parser or the schema. Paths are still resolved
 * and checked on every run (`mergeConfigFiles`).
 *
 * The memo lives in Syllabus's own installation (`node_modules/.cache/syllabus/`), never beside
 * the knowledge base: a file there could come from a pull request, and a forged entry would skip
 * validation. A memo that cannot be read or written is simply not used.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeCacheFile } from '../kb/files/cache-file.ts';
import type { ValidatedConfigFile } from '../kb/config/merge.ts';
import type { ConfigText } from '../kb/config/read.ts';
import { packageRoot, packageVersion } from './package-info.ts';

/** Bumped when what the memo keeps changes shape. */
const MEMO_FORMAT = 1;
/** The memo keeps the files last used, at most this many. */
const MEMO_ENTRIES = 32;

interface StoredMemo {
  format: number;
  /** The validating code the results come from: Syllabus's version and modules. */
  code: string;
  entries: { file: string; text: string; result: Omit<ValidatedConfigFile, 'configText'> }[];
}

/** The validated files of earlier runs; see the module comment. */
export interface ConfigMemo {
  /** The kept result for this exact file and text, or undefined. */
  get(configText: ConfigText): ValidatedConfigFile | undefined;
  /** Keeps a result of this run. */
  set(result: ValidatedConfigFile): void;
  /** Writes the memo when this run added to it. */
  save(): void;
}

/**
 * Opens the memo, or returns undefined when Syllabus runs from its TypeScript sources (its tests):
 * there the validating code changes without a new version.
 */
export function openConfigMemo(): ConfigMemo | undefined {
  if (import.meta.url.endsWith('.ts')) return undefined;
  const modules = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
  const code = `${packageVersion()} ${modules}`;
  const root = packageRoot();
  // Installed: the node_modules that holds the package; a checkout: its own node_modules.
  const nodeModules = path.basename(path.dirname(root)) === 'node_modules' ? path.dirname(root) : path.join(root, 'node_modules');
  const file = path.join(nodeModules, '.cache', 'syllabus', 'config-memo.json');
  let entries: StoredMemo['entries'] = [];
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as StoredMemo;
    if (stored.format === MEMO_FORMAT && stored.code === code && Array.isArray(stored.entries)) entries = stored.entries;
  } catch {
    // No memo yet, or a damaged one: the files are validated again.
  }
  let changed = false;
  return {
    get(configText) {
      const kept = entries.find((e) => e.file === configText.file && e.text === configText.text);
      return kept ? { configText, ...kept.result } : undefined;
    },
    set({ configText, file: tables, diagnostics }) {
      entries = [{ file: configText.file, text: configText.text, result: { file: tables, diagnostics } }, ...entries.filter((e) => e.file !== configText.file)].slice(
        0,
        MEMO_ENTRIES,
      );
      changed = true;
    },
    save() {
      if (!changed) return;
      try {
        writeCacheFile(file, JSON.stringify({ format: MEMO_FORMAT, code, entries } satisfies StoredMemo));
      } catch {
        // A read-only installation: the next run validates again.
      }
    },
  };
}
