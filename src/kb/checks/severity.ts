/**
 * The severities `[check]` sets (content/reference/configuration.md, "[check]"), applied to
 * diagnostics in this one place, so that `check`, the build and the dev server report alike.
 */
import path from 'node:path';
import type { CheckConfig, CheckOverride, Severity } from '../config/schema.ts';
import { compilePattern } from '../patterns/glob.ts';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';

/**
 * The diagnostics as `[check]` wants them: a warning's code set to `"off"` is dropped, to
 * `"error"` becomes a content error; `[check.severity]` first, then each `[[check.override]]`
 * whose `files` match the diagnostic's file, in order (the last one that names the code wins).
 * Errors are never changed. Applying it twice gives the same list.
 */
export function applySeverities(diagnostics: readonly Diagnostic[], check: CheckConfig): Diagnostic[] {
  const overrides = check.override.map(compileOverride);
  const out: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    if (DIAGNOSTIC_CODES[diagnostic.code].kind !== 'warning') {
      out.push(diagnostic);
      continue;
    }
    let severity: Severity | undefined = check.severity[diagnostic.code];
    for (const override of overrides) {
      const set = override.severity[diagnostic.code];
      if (set !== undefined && diagnostic.file !== undefined && override.matches(diagnostic.file)) severity = set;
    }
    if (severity === 'off') continue;
    if (severity === undefined) out.push(diagnostic);
    else out.push({ ...diagnostic, kind: severity === 'error' ? 'content-error' : 'warning' });
  }
  return out;
}

/** An override with its globs compiled into one test over absolute file paths. */
function compileOverride(override: CheckOverride): CheckOverride & { matches: (file: string) => boolean } {
  const tests = override.files.flatMap((pattern) => {
    const compiled = compilePattern(pattern);
    return compiled.ok ? [compiled.test] : [];
  });
  return {
    ...override,
    matches: (file) => {
      const relative = path.relative(override.root, file);
      if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) return false;
      const posix = relative.split(path.sep).join('/');
      return tests.some((test) => test(posix));
    },
  };
}
