/**
 * `[check]`'s severities (content/reference/configuration.md, "[check]"): a code turned off or
 * made an error, for every file or for the files an override's globs match, the last override
 * that names the code winning; errors never changed.
 */
import { describe, expect, it } from 'vitest';
import type { CheckConfig } from '../../../src/kb/config/schema.ts';
import type { Diagnostic } from '../../../src/kb/diagnostics/diagnostics.ts';
import { applySeverities } from '../../../src/kb/checks/severity.ts';

const at = (code: Diagnostic['code'], file?: string, kind: Diagnostic['kind'] = 'warning'): Diagnostic => ({ kind, code, message: `${code} here.`, ...(file ? { file } : {}) });
const check = (parts: Partial<CheckConfig>): CheckConfig => ({ near_duplicate_code: false, severity: {}, override: [], ...parts });
/** What is left of diagnostics, as `kind code file` lines. */
const applied = (diagnostics: Diagnostic[], config: CheckConfig): string[] => applySeverities(diagnostics, config).map((d) => `${d.kind} ${d.code} ${d.file ?? '-'}`);

describe('applySeverities', () => {
  const diagnostics = [
    at('near-duplicate', '/kb/skills/pdf/LICENSE.txt'),
    at('near-duplicate', '/kb/guide/a.md'),
    at('binary', '/kb/skills/pdf/fonts/Inter.ttf'),
    at('knowledge-tokens'),
    at('duplicate-slug', '/kb/guide/a.md', 'content-error'),
    at('unknown-table', '/kb/kb.toml'),
  ];

  it('leaves everything as it is without [check]', () => {
    expect(applySeverities(diagnostics, check({}))).toEqual(diagnostics);
  });

  it('turns a code off and makes another an error, everywhere, never touching errors', () => {
    expect(applied(diagnostics, check({ severity: { 'near-duplicate': 'off', 'knowledge-tokens': 'error', binary: 'warning' } }))).toEqual([
      'warning binary /kb/skills/pdf/fonts/Inter.ttf',
      'content-error knowledge-tokens -',
      'content-error duplicate-slug /kb/guide/a.md',
      'warning unknown-table /kb/kb.toml',
    ]);
  });

  it('applies overrides to the files their globs match, relative to their own folder; the last that names a code wins', () => {
    const config = check({
      severity: { 'near-duplicate': 'error' },
      override: [
        { root: '/kb', files: ['**/LICENSE*', '**/*.ttf'], severity: { 'near-duplicate': 'off', binary: 'off' } },
        { root: '/kb/skills', files: ['pdf/fonts/**'], severity: { binary: 'warning' } },
        // Outside its folder, and no file at all: never matched.
        { root: '/kb/guide', files: ['**'], severity: { 'unknown-table': 'off', 'knowledge-tokens': 'off' } },
        { root: '/kb', files: ['kb.toml'], severity: { 'duplicate-slug': 'off' } },
      ],
    });
    expect(applied(diagnostics, config)).toEqual([
      'content-error near-duplicate /kb/guide/a.md',
      'warning binary /kb/skills/pdf/fonts/Inter.ttf',
      'warning knowledge-tokens -',
      'content-error duplicate-slug /kb/guide/a.md',
      'warning unknown-table /kb/kb.toml',
    ]);
  });

  it('gives the same list when applied twice', () => {
    const config = check({ severity: { 'near-duplicate': 'error', binary: 'off' }, override: [{ root: '/kb', files: ['guide/**'], severity: { 'near-duplicate': 'off' } }] });
    const once = applySeverities(diagnostics, config);
    expect(applySeverities(once, config)).toEqual(once);
  });
});
