/** How the long-running commands (`dev`, `preview`, `mcp --http`) learn that they should stop. */

/**
 * Resolves on the first SIGINT or SIGTERM. Call it before announcing that a server is ready: a
 * caller that stops the server as soon as it reads the announcement must find the listeners
 * already there, since a signal that comes first ends the process by default instead of cleanly
 * (the bin on an older Node passes its signals on, content/reference/cli/overview.md).
 */
export function waitForStopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = (): void => {
      // Removed once the signal's other listeners have run: proper-lockfile's (signal-exit) ends
      // the process with the signal when it finds itself the only listener left. A second signal
      // then does end the process at once.
      setImmediate(() => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      });
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
