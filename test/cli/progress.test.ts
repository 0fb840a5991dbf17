/**
 * The build's report on the terminal (src/cli/progress.ts): phase lines always, a status line
 * redrawn in place only on a terminal outside CI.
 */
import { describe, expect, it } from 'vitest';
import type { CommandIo } from '../../src/cli/io.ts';
import { createBuildReporter, phaseLine, terminalStatus, warningSummaryLines } from '../../src/cli/progress.ts';
import type { Diagnostic } from '../../src/kb/diagnostics/diagnostics.ts';

/** An io that records every call, in order. */
function recordingIo(withStatus: boolean): { io: CommandIo; calls: string[] } {
  const calls: string[] = [];
  const io: CommandIo = {
    cwd: '/',
    env: {},
    out: (text) => calls.push(`out ${text}`),
    err: (line) => calls.push(`err ${line}`),
    status: withStatus ? (line) => calls.push(`status ${line ?? '(cleared)'}`) : undefined,
  };
  return { io, calls };
}

describe('phase lines', () => {
  it('put the phase name in a column, then what it did and its time', () => {
    expect(phaseLine('read', '1 topic, 3 subjects', 240)).toBe('read      1 topic, 3 subjects (0.2 s)');
    expect(phaseLine('summaries', '3 written', 1250)).toBe('summaries 3 written (1.3 s)');
  });
});

describe('the summary of warnings', () => {
  const warning = (code: Diagnostic['code'], file: string | undefined, message: string): Diagnostic => ({ kind: 'warning', code, message, ...(file ? { file, line: 1 } : {}) });

  it('shows the first three of each code as check prints them, then how many more and where to see them all', () => {
    const warnings = [
      warning('binary', '/kb/skills/a/Inter.ttf', 'Binary file: its content is skipped.'),
      warning('near-duplicate', '/kb/skills/a/forms.md', '2 are near-duplicates.'),
      warning('binary', '/kb/skills/b/Inter.ttf', 'Binary file: its content is skipped.'),
      warning('binary', '/kb/skills/c/Inter.ttf', 'Binary file: its content is skipped.'),
      warning('binary', '/kb/skills/d/Inter.ttf', 'Binary file: its content is skipped.'),
      warning('binary', '/kb/skills/e/Inter.ttf', 'Binary file: its content is skipped.'),
      ...['401', '404', '429', '500'].map((status) => warning('summary-failed', undefined, `LLM summaries: HTTP ${status}.`)),
    ];
    expect(warningSummaryLines(warnings, '/kb')).toEqual([
      'warning[binary]: skills/a/Inter.ttf:1: Binary file: its content is skipped.',
      'warning[binary]: skills/b/Inter.ttf:1: Binary file: its content is skipped.',
      'warning[binary]: skills/c/Inter.ttf:1: Binary file: its content is skipped.',
      'warning[binary]: 2 more (5 in all): run `syllabus check` to see them all',
      'warning[near-duplicate]: skills/a/forms.md:1: 2 are near-duplicates.',
      'warning[summary-failed]: LLM summaries: HTTP 401.',
      'warning[summary-failed]: LLM summaries: HTTP 404.',
      'warning[summary-failed]: LLM summaries: HTTP 429.',
      'warning[summary-failed]: 1 more (4 in all): `syllabus build --json` lists them all',
    ]);
  });

  it('is printed by the reporter on stderr, and nothing for no warning', () => {
    const { io, calls } = recordingIo(false);
    const reporter = createBuildReporter(io, () => 0);
    reporter.warnings([]);
    reporter.warnings([warning('no-site-url', '/kb.toml', '[site] url is not set.')]);
    expect(calls).toEqual(['err warning[no-site-url]: kb.toml:1: [site] url is not set.']);
  });
});

describe('the build reporter', () => {
  it('prints phase lines and warnings only, when there is no terminal', () => {
    const { io, calls } = recordingIo(false);
    const reporter = createBuildReporter(io, () => 0);
    reporter.warning('a.md: something to fix.');
    reporter.progress('pages', 1, 2);
    reporter.progress('pages', 2, 2);
    reporter.phase('pages', '2 pages', 1000);
    expect(calls).toEqual(['err warning: a.md: something to fix.', 'err pages     2 pages (1.0 s)']);
  });

  it('redraws a status line with the count, the total and the rate, at most ten times a second, and clears it before a line', () => {
    const { io, calls } = recordingIo(true);
    let now = 1000;
    const reporter = createBuildReporter(io, () => now);
    reporter.progress('pages', 1, 300);
    now += 50;
    reporter.progress('pages', 2, 300); // too soon after the last redraw
    now += 50;
    reporter.progress('pages', 100, 300);
    now += 900;
    reporter.progress('pages', 300, 300); // the last one always shows
    reporter.phase('pages', '300 pages', 1000);
    now += 10;
    reporter.progress('search', 5, 10);
    reporter.warning('x.md: a warning.');
    expect(calls).toEqual([
      'status pages     1/300',
      'status pages     100/300 (1000/s)',
      'status pages     300/300 (300/s)',
      'status (cleared)',
      'err pages     300 pages (1.0 s)',
      'status search    5/10',
      'status (cleared)',
      'err warning: x.md: a warning.',
    ]);
  });
});

describe('the terminal status line', () => {
  const stream = (isTTY: boolean, columns = 20) => {
    const written: string[] = [];
    return { written, stream: { isTTY, columns, write: (text: string) => written.push(text) } };
  };

  it('is off when stderr is not a terminal, and on CI', () => {
    expect(terminalStatus(stream(false).stream, {})).toBeUndefined();
    expect(terminalStatus(stream(true).stream, { CI: 'true' })).toBeUndefined();
    expect(terminalStatus(stream(true).stream, { CI: '1' })).toBeUndefined();
  });

  it('redraws in place on a terminal, cut to its width', () => {
    for (const env of [{}, { CI: 'false' }, { CI: '' }, { CI: '0' }]) {
      const { written, stream: tty } = stream(true);
      const status = terminalStatus(tty, env)!;
      status('pages     1234/7428 (512/s)');
      status(null);
      expect(written).toEqual(['\r\x1b[2Kpages     1234/7428', '\r\x1b[2K']);
    }
  });
});
