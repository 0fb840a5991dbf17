/** The glob dialect of subject patterns (SPEC 3): picomatch's, with negation and extglobs off. */
import picomatch from 'picomatch';

/** A compiled pattern: a predicate over slugs, or the reason it could not be compiled. */
export type CompiledPattern =
  | { ok: true; test: (slug: string) => boolean; base: string }
  | { ok: false; message: string };

const OPTIONS = { dot: true, nonegate: true, noextglob: true } as const;

/**
 * Compiles a pattern. `*` and `?` never cross `/`; `**` as a whole component matches zero or more
 * components; `[abc]`, `{a,b}` and `\` escapes work; a leading `!` and `@(…)` are plain
 * characters; matching is case-sensitive. `dot` is on so that `disabled` globs reach hidden
 * subjects (whose slugs may start with `.`, as `..md` → `.md`).
 */
export function compilePattern(pattern: string): CompiledPattern {
  try {
    const test = picomatch(pattern, OPTIONS);
    return { ok: true, test, base: literalBase(pattern) };
  } catch {
    return { ok: false, message: invalidPatternMessage(pattern) };
  }
}

/**
 * The folder every match of a glob lies in (or is), as a slug prefix: `maintainers/*` →
 * `maintainers`. `''` when there is none, or when escapes make it unsafe to compare literally.
 */
function literalBase(pattern: string): string {
  const { base, isGlob } = picomatch.scan(pattern, OPTIONS);
  return isGlob && !base.includes('\\') ? base : '';
}

/** The tool error for a pattern that cannot be compiled. */
export function invalidPatternMessage(pattern: string): string {
  return `Invalid pattern ${JSON.stringify(pattern)}.`;
}
