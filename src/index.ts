/**
 * `syllabus-kb`: Syllabus from JavaScript — the same commands as the `syllabus` command line, and
 * the site build as a typed function.
 *
 * ```js
 * import { build, run } from 'syllabus-kb';
 * const result = await build({ config: 'content/kb.toml', out: 'dist' });
 * const { code, stdout } = await run(['learn', 'guide', 'getting-started']);
 * ```
 */
import path from 'node:path';
import { astroPagesStage } from './astro/run-astro.ts';
import { buildSite, type BuildReporter, type BuildResult } from './build/build-site.ts';
import { main } from './cli/main.ts';
import { sourcesUserAgent } from './build/package-info.ts';

export { BuildError } from './build/build-error.ts';
export type { BuildReporter, BuildResult } from './build/build-site.ts';

/** Options of {@link build}. */
export interface BuildSiteOptions {
  /** The config file, or several (later ones merge over earlier ones), relative to `cwd`. Default `content/kb.toml`. */
  config?: string | readonly string[];
  /** The output folder, relative to `cwd`. Default `dist`. */
  out?: string;
  /** The build cache, relative to `cwd`. Default `.syllabus-cache/` beside the first config file. */
  cache?: string;
  /** The folder paths are relative to. Default: the current folder. */
  cwd?: string;
  /** The environment the LLM summaries' API key is read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** What to do with each phase line, progress and warning. Default: nothing. */
  reporter?: Partial<BuildReporter>;
}

/**
 * Builds the site of a knowledge base, as `syllabus build` does. Resolves with what was built;
 * rejects with a `BuildError` for configuration or content errors (its `details` list each one)
 * and for a stage that failed.
 */
export function build(options: BuildSiteOptions = {}): Promise<BuildResult> {
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const configs = typeof options.config === 'string' ? [options.config] : [...(options.config ?? ['content/kb.toml'])];
  return buildSite({
    configFiles: configs,
    cwd,
    outDir: path.resolve(cwd, options.out ?? 'dist'),
    cacheDir: options.cache === undefined ? undefined : path.resolve(cwd, options.cache),
    env: options.env ?? process.env,
    userAgent: sourcesUserAgent,
    pages: astroPagesStage(cwd),
    reporter: { phase: () => {}, progress: () => {}, warnings: () => {}, warning: () => {}, ...options.reporter },
  });
}

/** What a command printed, and its exit code. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a `syllabus` command (`['learn', 'guide']`) in this process and collects what it prints.
 * Exit codes are the command line's: 0 success, 1 a tool error or failed check, 2 a usage or
 * configuration error.
 */
export async function run(argv: readonly string[], options: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {}): Promise<CommandRun> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main([...argv], {
    cwd: path.resolve(options.cwd ?? process.cwd()),
    env: options.env ?? process.env,
    out: (text) => {
      if (text !== '') stdout.push(`${text}\n`);
    },
    err: (line) => stderr.push(`${line}\n`),
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}
