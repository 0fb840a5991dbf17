/**
 * The guide's own question set (content/evals.toml): `syllabus eval` on the bundled guide meets
 * the thresholds of content/kb.toml, and the figures README.md and content/reference/evaluations.md
 * print are the ones it measures now, so that an edit of the guide that changes them says so.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCliInProcess } from '../../helpers/run-cli.ts';

/** The row of figures a page prints under `| Questions | hit@1 | hit@3 | MRR | Mean tokens |`. */
function printedFigures(file: string): string {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const header = lines.indexOf('| Questions | hit@1 | hit@3 | MRR | Mean tokens |');
  expect(header, `${file} has the table of the guide's figures`).toBeGreaterThanOrEqual(0);
  return lines[header + 2]!;
}

describe("the guide's question set", () => {
  it('meets its thresholds, and README.md and reference/evaluations print its figures', async () => {
    const run = await runCliInProcess(['eval', '--json', '--config', path.join(ROOT, 'content/kb.toml')]);
    expect(run.code, run.stderr).toBe(0);
    const { totals } = JSON.parse(run.stdout) as { totals: { questions: number; hitAt1: number; hitAt3: number; mrr: number; meanTokens: number } };
    const row = `| ${totals.questions} | ${totals.hitAt1.toFixed(2)} | ${totals.hitAt3.toFixed(2)} | ${totals.mrr.toFixed(2)} | ${totals.meanTokens.toLocaleString('en-US')} |`;
    expect({ readme: printedFigures('README.md'), guide: printedFigures('content/reference/evaluations.md') }).toEqual({ readme: row, guide: row });
  });
});
