/**
 * `syllabus-kb`: Syllabus from JavaScript — the same commands as the `syllabus` command line, the
 * site build as a typed function, and the agent server over a published site as a `fetch` handler.
 *
 * ```js
 * import { build, createMcpHandler, run } from 'syllabus-kb';
 * const result = await build({ config: 'content/kb.toml', out: 'dist' });
 * const { code, stdout } = await run(['learn', 'guide', 'getting-started']);
 * const handler = createMcpHandler({ site: 'https://kb.example.com/' }); // (request: Request) => Promise<Response>
 * ```
 */
import path from 'node:path';
import { astroPagesStage } from './astro/run-astro.ts';
import { buildSite, type BuildReporter, type BuildResult } from './build/build-site.ts';
import { main } from './cli/main.ts';
import { packageVersion, sourcesUserAgent } from './build/package-info.ts';
import { openRemoteView } from './remote/remote-view.ts';
import type { McpFetchHandler } from './agent/mcp-fetch-handler.ts';

export { BuildError } from './build/build-error.ts';
export type { BuildReporter, BuildResult } from './build/build-site.ts';
export type { McpFetchHandler } from './agent/mcp-fetch-handler.ts';

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

/** Options of {@link createMcpHandler}. */
export interface McpHandlerOptions {
  /** The published site's root URL (http or https), as `--remote` takes it. */
  site: string;
  /** The time limit of one request to the site, in milliseconds. Default: `SYLLABUS_REMOTE_TIMEOUT_MS`, else 10 s. */
  timeoutMs?: number;
  /** How long the site's catalog and knowledge file are reused, in milliseconds. Default 30 s. */
  cacheMs?: number;
  /** Where to report a request that failed unexpectedly (answered 500). Default: `console.error`. */
  log?: (line: string) => void;
}

/**
 * The agent server over a published site as a Web `fetch` handler, for a serverless host
 * (content/agents/integration/mcp-http.md): stateless Streamable HTTP, answering every call as
 * `syllabus mcp --remote <site>` does. POST carries the protocol, whatever the path; other methods
 * get 405. Throws at once when `site` is not an http(s) URL.
 */
export function createMcpHandler(options: McpHandlerOptions): McpFetchHandler {
  const view = openRemoteView(options.site, { timeoutMs: options.timeoutMs, cacheMs: options.cacheMs });
  // The MCP SDK is loaded on the first request: importing the package for build() or run() does not load it.
  let handler: Promise<McpFetchHandler> | undefined;
  return async (request) => {
    handler ??= import('./agent/mcp-fetch-handler.ts').then(({ createMcpFetchHandler }) =>
      createMcpFetchHandler(view, { name: 'syllabus', version: packageVersion(), log: options.log ?? ((line) => console.error(line)) }),
    );
    return (await handler)(request);
  };
}
