/**
 * `syllabus build --watch`: the build that stays running. It builds, then builds again in the same
 * process after every change to the config files or below a topic's folder, until Ctrl-C
 * (content/reference/cli/build.md, "Watching"). A build in a process that is already running
 * skips what every new process pays (starting, loading its modules, compiling its hot code), and
 * the host keeps the catalog's thread between builds, so a one-subject rebuild takes about two
 * thirds of what `syllabus build` takes for it (content/guide/performance.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { watchFolders, type WatchTargets } from '../agent/folder-watch.ts';
import { displayPath } from '../kb/diagnostics/diagnostics.ts';
import { isOutside } from '../kb/files/paths.ts';
import { CliError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { waitForStopSignal } from './stop-signal.ts';

/** How long the files must stay unchanged before a build starts: an editor's save is often several writes. */
export const QUIET_MS = 50;

/** What {@link watchBuilds} runs and watches. */
export interface WatchedBuild {
  /** One build. A {@link CliError} it throws is reported, and the watch goes on. */
  build(): Promise<void>;
  /** What to watch for the next build: read before each one, since the config may have changed. */
  targets(): Promise<WatchTargets>;
  /** Folders the builds write (the output folder and the cache): their changes are the build's own. */
  written: readonly string[];
}

/**
 * Builds, then builds again after each change to what `watched.targets()` names, one build at a
 * time; resolves once a stop signal (SIGINT, SIGTERM) comes, after the build under way ends.
 * Throws a {@link CliError} when the system refuses to watch the files.
 */
export async function watchBuilds(watched: WatchedBuild, io: CommandIo): Promise<void> {
  const stop = waitForStopSignal();
  let stopping = false;
  let building = false;
  void stop.then(() => {
    stopping = true;
    if (building) io.err('Stopping once this build ends (Ctrl-C again stops at once).');
    wake();
  });
  const written = watched.written.map((folder) => path.resolve(folder));
  let changes = 0;
  // The first change since the last build started: what the next build is said to follow.
  let firstChange: string | undefined;
  let wake = (): void => undefined;
  const watch = watchFolders((changed) => {
    if (isWritten(written, changed)) return;
    changes++;
    firstChange ??= changed;
    wake();
  });
  /** Resolves at the next change or stop signal, at once when one came since `seen` changes. */
  const nextChange = (seen: number): Promise<void> => (changes !== seen || stopping ? Promise.resolve() : new Promise((resolve) => (wake = resolve)));
  try {
    for (;;) {
      try {
        // Watched before the build reads anything: a change made while it builds still counts.
        watch.update(await watched.targets());
      } catch (error) {
        throw new CliError(
          `could not watch the knowledge base's folders: ${(error as Error).message}. Raise the system's limit of watched folders (on Linux, sysctl fs.inotify.max_user_watches) or build without --watch.`,
          1,
        );
      }
      const before = changes;
      firstChange = undefined;
      building = true;
      try {
        await watched.build();
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        io.err(`error: ${error.message}`);
        for (const line of error.details) io.err(line);
      } finally {
        building = false;
      }
      if (stopping) return;
      io.err('Watching for changes (Ctrl-C stops).');
      await nextChange(before);
      if (stopping) return;
      // The files settle first: a save is often several writes, and a checkout many.
      for (let seen = -1; seen !== changes;) {
        seen = changes;
        await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      }
      if (stopping) return;
      io.err(`Changed: ${displayPath(firstChange ?? '', io.cwd)}; building again.`);
    }
  } finally {
    watch.close();
  }
}

/**
 * Whether `changed` is the builds' own writing: inside one of the `written` folders, or the folder
 * an output folder is moved to while it is replaced (`<out>.old-…`, src/build/output-folder.ts).
 */
function isWritten(written: readonly string[], changed: string): boolean {
  return written.some(
    (folder) => !isOutside(folder, changed) || (path.dirname(changed) === path.dirname(folder) && path.basename(changed).startsWith(`${path.basename(folder)}.old-`)),
  );
}

/**
 * Runs `syllabus <args>` as a command of its own, as this process was started, its output passed
 * on line by line; resolves with its exit code.
 */
export function runCommandApart(args: readonly string[], io: CommandIo): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1]!, ...args], { cwd: io.cwd, env: io.env, stdio: ['ignore', 'pipe', 'pipe'] });
    // Line by line, decoded across chunks; a last line without its newline too.
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', io.out);
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on('line', io.err);
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}
