/**
 * The build's report on the terminal: a line per finished phase, a summary of the warnings by
 * code (content/reference/cli/build.md, "What it prints"), and, on a terminal,
 * a status line for the long phases (rendering, pages, search) with how many are done, of how
 * many, and how fast, redrawn in place.
 */
import type { BuildReporter } from '../build/build-site.ts';
import { DIAGNOSTIC_CODES } from '../kb/diagnostics/codes.ts';
import { type Diagnostic, formatDiagnostic } from '../kb/diagnostics/diagnostics.ts';
import { summarizeByCode } from '../kb/diagnostics/summary.ts';
import type { CommandIo } from './io.ts';

/** At most this many redraws of the status line per second. */
const REDRAWS_PER_SECOND = 10;

/** What the status line calls each long phase. */
const PROGRESS_LABELS: Readonly<Record<string, string>> = { render: 'rendering', pages: 'pages', search: 'search' };

/** A phase line: the phase's name in a column, what it did, and its time (`read      1 topic, 3 subjects (0.2 s)`). */
export function phaseLine(name: string, text: string, ms: number): string {
  return `${name.padEnd(9)} ${text} (${seconds(ms)})`;
}

/**
 * The build's warnings by code: the first three of each as `check` prints them
 * (`warning[<code>]: <file>:<line>: <message>`), then how many more and where to see them all;
 * a warning `[check]` made an error never gets here (the build stops).
 */
export function warningSummaryLines(warnings: readonly Diagnostic[], cwd: string): string[] {
  const lines: string[] = [];
  for (const { code, count, first } of summarizeByCode(warnings)) {
    for (const diagnostic of first) lines.push(`warning[${code}]: ${formatDiagnostic(diagnostic, cwd)}`);
    if (count === first.length) continue;
    const where = DIAGNOSTIC_CODES[code].reportedBy === 'build' ? '`syllabus build --json` lists them all' : 'run `syllabus check` to see them all';
    lines.push(`warning[${code}]: ${count - first.length} more (${count} in all): ${where}`);
  }
  return lines;
}

/** A duration as the build prints it: tenths of a second. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The build's reporter on `io`; `now` is the clock (milliseconds). */
export function createBuildReporter(io: CommandIo, now: () => number = () => performance.now()): BuildReporter {
  const status = io.status;
  let phase: { name: string; since: number; drawn: number } | undefined;
  const clear = (): void => {
    if (phase) status?.(null);
    phase = undefined;
  };
  return {
    phase(name, text, ms) {
      clear();
      io.err(phaseLine(name, text, ms));
    },
    warnings(warnings) {
      clear();
      for (const line of warningSummaryLines(warnings, io.cwd)) io.err(line);
    },
    warning(text) {
      clear();
      io.err(`warning: ${text}`);
    },
    waiting(text) {
      clear();
      io.err(`waiting   ${text}`);
    },
    progress(name, done, total) {
      if (!status) return;
      const at = now();
      if (phase?.name !== name) phase = { name, since: at, drawn: -Infinity };
      if (done < total && at - phase.drawn < 1000 / REDRAWS_PER_SECOND) return;
      phase.drawn = at;
      const elapsed = (at - phase.since) / 1000;
      const rate = elapsed > 0 ? ` (${Math.round(done / elapsed)}/s)` : '';
      status(`${(PROGRESS_LABELS[name] ?? name).padEnd(9)} ${done}/${total}${rate}`);
    },
  };
}

/** What {@link terminalStatus} needs of stderr. */
export interface StatusStream {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  write(text: string): unknown;
}

/**
 * The status line of `stream` (see `CommandIo.status`): on a terminal, outside CI (`CI` unset,
 * empty, `false` or `0`), a line redrawn in place and cut to the terminal's width; else undefined,
 * and long work prints its phase lines alone.
 */
export function terminalStatus(stream: StatusStream, env: Readonly<Record<string, string | undefined>>): ((line: string | null) => void) | undefined {
  const ci = env['CI'];
  if (stream.isTTY !== true || !(ci === undefined || ci === '' || ci === 'false' || ci === '0')) return undefined;
  return (line) => {
    stream.write(line === null ? '\r\x1b[2K' : `\r\x1b[2K${line.slice(0, Math.max(1, (stream.columns || 80) - 1))}`);
  };
}
