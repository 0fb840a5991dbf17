/**
 * The `[check]` table (content/reference/configuration.md, "[check]"): its defaults, how files
 * merge it, and the configuration errors of codes, values and globs, each at its line.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kb/index.ts';

const TOPIC = '[kb.topic.x]\nsubjects = "x"\n\n';
const load = (...texts: string[]) => loadConfig(texts.map((text, i) => ({ file: i === 0 ? '/kb/kb.toml' : `/kb/more/${i}.toml`, text })));

describe('[check]: values', () => {
  it('defaults to no severities, no overrides, prose only', () => {
    expect(load(TOPIC).config!.check).toEqual({ near_duplicate_code: false, severity: {}, override: [] });
  });

  it('keeps severities and overrides, each override with the folder of its file', () => {
    const text = `${TOPIC}[check]
near_duplicate_code = true

[check.severity]
near-duplicate = "off"
broken-link = "error"

[[check.override]]
files = ["**/LICENSE*", "vendor/**"]
severity = { binary = "off" }

[[check.override]]
files = ["drafts/**"]
[check.override.severity]
missing-title = "warning"
`;
    const { config, diagnostics } = load(text);
    expect(diagnostics).toEqual([]);
    expect(config!.check).toEqual({
      near_duplicate_code: true,
      severity: { 'near-duplicate': 'off', 'broken-link': 'error' },
      override: [
        { root: '/kb', files: ['**/LICENSE*', 'vendor/**'], severity: { binary: 'off' } },
        { root: '/kb', files: ['drafts/**'], severity: { 'missing-title': 'warning' } },
      ],
    });
  });

  it('merges files: a later severity replaces the same code, overrides are appended in order', () => {
    const first = `${TOPIC}[check.severity]\nnear-duplicate = "off"\nbinary = "off"\n\n[[check.override]]\nfiles = ["a/**"]\nseverity = { binary = "error" }\n`;
    const second = '[check.severity]\nbinary = "warning"\n\n[[check.override]]\nfiles = ["b/**"]\nseverity = { binary = "off" }\n';
    expect(load(first, second).config!.check).toEqual({
      near_duplicate_code: false,
      severity: { 'near-duplicate': 'off', binary: 'warning' },
      override: [
        { root: '/kb', files: ['a/**'], severity: { binary: 'error' } },
        { root: '/kb/more', files: ['b/**'], severity: { binary: 'off' } },
      ],
    });
  });
});

describe('[check]: configuration errors', () => {
  const errors = (text: string) => load(`${TOPIC}${text}`).diagnostics.map(({ code, message, line }) => ({ code, message, line }));

  it('an unknown code, with the closest warning code', () => {
    expect(errors('[check.severity]\nnear-duplicates = "off"\n')).toEqual([
      { code: 'unknown-code', message: 'check.severity.near-duplicates: no warning has the code "near-duplicates". Did you mean "near-duplicate"?', line: 5 },
    ]);
  });

  it('an unknown code with nothing close, pointing at the list', () => {
    expect(errors('[[check.override]]\nfiles = ["a"]\nseverity = { E501 = "off" }\n')).toEqual([
      {
        code: 'unknown-code',
        message:
          'check.override[0].severity.E501: no warning has the code "E501". Use the code of a warning as check prints it, e.g. near-duplicate (reference/diagnostics lists them).',
        line: 6,
      },
    ]);
  });

  it("an error's code: errors stay errors", () => {
    expect(errors('[check.severity]\nduplicate-slug = "warning"\nunknown-key = "off"\n')).toEqual([
      {
        code: 'unknown-code',
        message:
          'check.severity.duplicate-slug: duplicate-slug is a content error, and errors always stay errors: only warnings can be set to "error", "warning" or "off". Remove the key, and fix what the error reports.',
        line: 5,
      },
      {
        code: 'unknown-code',
        message:
          'check.severity.unknown-key: unknown-key is a configuration error, and errors always stay errors: only warnings can be set to "error", "warning" or "off". Remove the key, and fix what the error reports.',
        line: 6,
      },
    ]);
  });

  it('a severity that is not "error", "warning" or "off"', () => {
    expect(errors('[check.severity]\nbinary = "ignore"\n')).toEqual([
      { code: 'wrong-type', message: 'check.severity.binary: expected one of "error", "warning", "off", got the string "ignore". Change the value.', line: 5 },
    ]);
  });

  it('a glob that does not compile, in the second override, and an override without files', () => {
    expect(errors(`[[check.override]]\nfiles = ["a/**"]\n\n[[check.override]]\nfiles = ["ok", "${'*a*b*c[d]'}"]\n\n[[check.override]]\nfiles = []\n`)).toEqual([
      { code: 'wrong-type', message: 'check.override[2].files: expected at least one pattern, like ["**/LICENSE*"], got an array. Change the value.', line: 11 },
    ]);
    expect(errors(`[[check.override]]\nfiles = ["a/**"]\n\n[[check.override]]\nfiles = ["ok", "${'*a*b*c[d]'}"]\n`)).toEqual([
      { code: 'invalid-pattern', message: 'check.override[1].files[1]: Invalid pattern "*a*b*c[d]". Fix or remove the pattern.', line: 8 },
    ]);
  });

  it('an unknown key in [check] and in an override, with a suggestion', () => {
    expect(errors('[check]\nnear_duplicates_code = true\n\n[[check.override]]\nfile = ["a"]\n')).toEqual([
      { code: 'wrong-type', message: 'check.override[0].files: expected an array of strings, like ["a", "b"], got nothing. Change the value.', line: 7 },
      { code: 'unknown-key', message: 'check.override[0].file: unknown key. Did you mean "files"?', line: 8 },
      { code: 'unknown-key', message: 'check.near_duplicates_code: unknown key. Did you mean "near_duplicate_code"?', line: 5 },
    ]);
  });
});
