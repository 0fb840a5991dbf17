/** The glob dialect of subject patterns (SPEC 3): picomatch's, with negation and extglobs off. */
import picomatch from 'picomatch';

/** A compiled pattern: a predicate over slugs, or the reason it could not be compiled. */
export type CompiledPattern = { ok: true; test: (slug: string) => boolean } | { ok: false; message: string };

/**
 * Compiles a pattern. `*` and `?` never cross `/`; `**` as a whole component matches zero or more
 * components; `[abc]`, `{a,b}` and `\` escapes work; a leading `!` and `@(…)` are plain
 * characters; matching is case-sensitive. `dot` is on so that `disabled` globs reach hidden
 * subjects (whose slugs may start with `.`, as `..md` → `.md`).
 */
export function compilePattern(pattern: string): CompiledPattern {
  try {
    const test = picomatch(pattern, { dot: true, nonegate: true, noextglob: true });
    return { ok: true, test };
  } catch {
    return { ok: false, message: invalidPatternMessage(pattern) };
  }
}

/** The tool error for a pattern that cannot be compiled. */
export function invalidPatternMessage(pattern: string): string {
  return `Invalid pattern ${JSON.stringify(pattern)}.`;
}
