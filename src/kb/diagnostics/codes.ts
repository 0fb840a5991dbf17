/**
 * Every diagnostic code with its default severity and the commands that report it
 * (content/reference/diagnostics.md). `[check]` may change the severity of warnings only
 * (content/reference/configuration.md, "[check]").
 */
import type { DiagnosticCode, DiagnosticKind } from './diagnostics.ts';

/** Which commands report a code: all of `check`, the build and the dev server, or one of them only. */
export type ReportedBy = 'all' | 'check' | 'build';

/** What a code is by default. */
export interface CodeInfo {
  kind: DiagnosticKind;
  reportedBy: ReportedBy;
}

const config: CodeInfo = { kind: 'config-error', reportedBy: 'all' };
const content: CodeInfo = { kind: 'content-error', reportedBy: 'all' };
const warning: CodeInfo = { kind: 'warning', reportedBy: 'all' };

/** Every code Syllabus reports; the type makes a code added to `DiagnosticCode` appear here too. */
export const DIAGNOSTIC_CODES: Readonly<Record<DiagnosticCode, CodeInfo>> = {
  'config-unreadable': config,
  'toml-syntax': config,
  'unknown-key': config,
  'wrong-type': config,
  'missing-subjects': config,
  'subjects-and-learnings': config,
  'bad-topic-id': config,
  'reserved-topic-id': config,
  'escaping-subjects': config,
  'invalid-pattern': config,
  'unknown-profile-topic': config,
  'missing-summaries-key': config,
  'missing-eval-key': config,
  'bad-summaries-endpoint': config,
  'bad-path': config,
  'bad-site-file': config,
  'bad-url': config,
  'bad-base': config,
  'bad-text': config,
  'bad-name': config,
  'unknown-code': config,
  'bad-questions': { kind: 'config-error', reportedBy: 'check' },
  'duplicate-slug': content,
  'missing-folder': content,
  'missing-store': content,
  'invalid-store': content,
  'duplicate-question': { kind: 'content-error', reportedBy: 'check' },
  'unknown-expected': { kind: 'content-error', reportedBy: 'check' },
  'disabled-expected': { kind: 'content-error', reportedBy: 'check' },
  'unknown-table': warning,
  'no-topics': warning,
  'skipped-symlink': warning,
  'hidden-symlink': warning,
  'unsafe-name': warning,
  'glob-name': warning,
  'symlink-cycle': warning,
  unreadable: warning,
  'special-file': warning,
  binary: warning,
  oversized: warning,
  'non-utf8': warning,
  'front-matter': warning,
  'unmatched-learned': warning,
  'unmatched-disabled': warning,
  'subject-tokens': warning,
  'knowledge-tokens': warning,
  'profile-topic-disabled': warning,
  'invalid-learning': warning,
  'invalid-source': warning,
  'duplicate-source': warning,
  'source-not-fetched': { kind: 'warning', reportedBy: 'check' },
  'source-failed': { kind: 'warning', reportedBy: 'build' },
  'no-site-url': { kind: 'warning', reportedBy: 'build' },
  'summary-failed': { kind: 'warning', reportedBy: 'build' },
  'broken-link': warning,
  'broken-mention': warning,
  'near-duplicate': warning,
  'missing-title': warning,
  'skill-name': warning,
  'skill-name-mismatch': warning,
  'skill-description': warning,
  'skill-compatibility': warning,
  'mdx-syntax': warning,
};

/** The codes whose severity `[check]` may set: the warnings, in the order of {@link DIAGNOSTIC_CODES}. */
export function warningCodes(): DiagnosticCode[] {
  return (Object.keys(DIAGNOSTIC_CODES) as DiagnosticCode[]).filter((code) => DIAGNOSTIC_CODES[code].kind === 'warning');
}
