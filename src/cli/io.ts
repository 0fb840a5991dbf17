import type { Readable, Writable } from 'node:stream';

/** What a command may do to the outside world: write results, warn, know where it runs. */
export interface CommandIo {
  /** The folder relative paths are resolved from. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Writes a result to stdout (a newline is added unless the text is empty). */
  out: (text: string) => void;
  /** Writes a message line to stderr. */
  err: (line: string) => void;
  /**
   * Shows `line` as the terminal's status line, redrawn in place (null clears it). Only on a
   * terminal, outside CI: elsewhere this is undefined and long work prints its phase lines alone.
   */
  status?: ((line: string | null) => void) | undefined;
  /**
   * The byte streams of a command that speaks a protocol on stdin and stdout (`mcp`): the
   * process's own for the bin. Undefined where there are none; such a command then refuses to start.
   */
  stdio?: { input: Readable; output: Writable } | undefined;
}
