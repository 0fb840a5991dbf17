/**
 * Every diagnostic code is documented in content/reference/diagnostics.md, in the section of its
 * default severity, warnings with the commands that report them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type ReportedBy } from '../../../src/kb/diagnostics/codes.ts';
import { ROOT } from '../../helpers/run-cli.ts';

const reference = fs.readFileSync(path.join(ROOT, 'content/reference/diagnostics.md'), 'utf8');

/** The rows of the first table after a heading: its cells, code first. */
function rowsAfter(heading: string): string[][] {
  const section = reference.slice(reference.indexOf(`\n${heading}\n`));
  const table = section
    .slice(section.indexOf('\n| Code |') + 1)
    .split('\n')
    .slice(2);
  const rows: string[][] = [];
  for (const line of table) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ').map((cell) => cell.replace(/^\| /, '').replace(/ \|$/, '').replaceAll('`', '')));
  }
  return rows;
}

const REPORTED_BY: Record<string, ReportedBy> = { 'check, build': 'all', 'check only': 'check', 'build only': 'build' };

describe('content/reference/diagnostics.md', () => {
  it('lists every code once, in the section of its default severity (in any order)', () => {
    const documented = {
      'config-error': rowsAfter('## Configuration errors')
        .map(([code]) => code)
        .sort(),
      'content-error': rowsAfter('## Content errors')
        .map(([code]) => code)
        .sort(),
      warning: rowsAfter('## Warnings')
        .map(([code]) => code)
        .sort(),
    };
    const codes = Object.entries(DIAGNOSTIC_CODES);
    expect(documented).toEqual({
      'config-error': codes
        .filter(([, info]) => info.kind === 'config-error')
        .map(([code]) => code)
        .sort(),
      'content-error': codes
        .filter(([, info]) => info.kind === 'content-error')
        .map(([code]) => code)
        .sort(),
      warning: codes
        .filter(([, info]) => info.kind === 'warning')
        .map(([code]) => code)
        .sort(),
    });
  });

  it('says which commands report each warning', () => {
    const documented = Object.fromEntries(rowsAfter('## Warnings').map(([code, by]) => [code, REPORTED_BY[by!] ?? by]));
    const expected = Object.fromEntries(
      Object.entries(DIAGNOSTIC_CODES)
        .filter(([, info]) => info.kind === 'warning')
        .map(([code, info]) => [code, info.reportedBy]),
    );
    expect(documented).toEqual(expected);
  });
});
