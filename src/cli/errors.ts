/** Errors the CLI turns into exit codes (content/reference/cli/overview.md, "Exit codes"): 1 a tool error or failed check, 2 usage or configuration. */

/** A failure with the exit code it maps to. Its lines are printed on stderr, the first with `error: `. */
export class CliError extends Error {
  readonly exitCode: 1 | 2;
  /** Lines printed after the message (a usage hint, further configuration errors). */
  readonly details: readonly string[];

  constructor(message: string, exitCode: 1 | 2, details: readonly string[] = []) {
    super(message);
    this.exitCode = exitCode;
    this.details = details;
  }
}

/** A usage error (exit 2), with a pointer to the command's help. */
export function usageError(message: string, command: string): CliError {
  return new CliError(message, 2, [`Run "syllabus ${command} --help" for usage.`]);
}
