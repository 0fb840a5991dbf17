/**
 * The build's summary of its warnings (content/reference/cli/build.md, "What it prints"): by
 * code, with a count and the first few, so a large knowledge base prints a screenful, not a
 * line per finding; `check` prints them all.
 */
import type { Diagnostic, DiagnosticCode } from './diagnostics.ts';

/** How many diagnostics of each code the build's summary shows. */
export const SHOWN_PER_CODE = 3;

/** The diagnostics of one code: how many, and the first `shown` of them. */
export interface CodeSummary {
  code: DiagnosticCode;
  count: number;
  first: Diagnostic[];
}

/**
 * Diagnostics grouped by code, each group with its count and its first `shown` diagnostics (in
 * the order given); groups in the order of their codes' first diagnostics.
 */
export function summarizeByCode(diagnostics: readonly Diagnostic[], shown: number = SHOWN_PER_CODE): CodeSummary[] {
  const groups = new Map<DiagnosticCode, CodeSummary>();
  for (const diagnostic of diagnostics) {
    let group = groups.get(diagnostic.code);
    if (!group) groups.set(diagnostic.code, (group = { code: diagnostic.code, count: 0, first: [] }));
    group.count++;
    if (group.first.length < shown) group.first.push(diagnostic);
  }
  return [...groups.values()];
}
