/** The glob dialect of subject patterns (content/reference/patterns.md): picomatch's, with negation and extglobs off. */
import { createRequire } from 'node:module';
import type picomatchModule from 'picomatch';
import { compileWildcards, isWildcardOnly } from './glob-match.ts';

// Loaded for the first pattern that needs a regex: most patterns do not (see compileFresh).
let loadedPicomatch: typeof picomatchModule | undefined;
const picomatchOf = (): typeof picomatchModule => (loadedPicomatch ??= createRequire(import.meta.url)('picomatch') as typeof picomatchModule);
/** picomatch's longest input (its own check), known without loading it. */
const MAX_PATTERN_LENGTH = 65536;

/** A compiled pattern: a predicate over slugs, or the reason it could not be compiled. */
export type CompiledPattern = { ok: true; test: (slug: string) => boolean; base: string } | { ok: false; message: string };

const OPTIONS = { dot: true, nonegate: true, noextglob: true } as const;

/**
 * Compiles a pattern. `*` and `?` never cross `/`; `**` as a whole component matches zero or more
 * components; `[abc]`, `{a,b}` and `\` escapes work; a leading `!` and `@(…)` are plain
 * characters; matching is case-sensitive. `dot` is on so that `disabled` globs reach hidden
 * subjects (whose slugs may start with `.`, as `..md` → `.md`).
 */
export function compilePattern(pattern: string): CompiledPattern {
  let compiled = compiledPatterns.get(pattern);
  if (!compiled) {
    // A long-running server meets patterns from every agent call: the memo stays bounded.
    if (compiledPatterns.size >= MEMO_LIMIT) compiledPatterns.clear();
    compiled = compileFresh(pattern);
    compiledPatterns.set(pattern, compiled);
  }
  return compiled;
}

/** Compiled patterns by pattern: the config's are compiled when it loads, and again where subjects are resolved. */
const compiledPatterns = new Map<string, CompiledPattern>();
const MEMO_LIMIT = 1000;

/** Characters that make a pattern more than an exact slug, and segments picomatch reads otherwise. */
const NOT_LITERAL = /[*?[\]{}()!|\\+@]|(^|\/)\.{1,2}(\/|$)|^\/|\/$|\/\//;

function compileFresh(pattern: string): CompiledPattern {
  // The commonest patterns need no regex: an exact slug matches itself only; `folder/**` the
  // folder and everything below it; `folder/*` the folder's own subjects. They match exactly what
  // picomatch would (test/kb/patterns/glob-shortcuts.property.test.ts), and compiling picomatch's first
  // pattern costs a short command (`learn`) much of its time.
  const literal = (text: string): boolean => text !== '' && text.length <= MAX_PATTERN_LENGTH && !NOT_LITERAL.test(text);
  if (literal(pattern)) return { ok: true, test: (slug) => slug === pattern, base: '' };
  if (pattern.endsWith('/**') && literal(pattern.slice(0, -3))) {
    const folder = pattern.slice(0, -3);
    return { ok: true, test: (slug) => slug === folder || slug.startsWith(`${folder}/`), base: folder };
  }
  if (pattern.endsWith('/*') && literal(pattern.slice(0, -2))) {
    const folder = pattern.slice(0, -2);
    return { ok: true, test: (slug) => slug.startsWith(`${folder}/`) && slug.length > folder.length + 1 && !slug.includes('/', folder.length + 1), base: folder };
  }
  if (isWildcardOnly(pattern) && pattern.length <= MAX_PATTERN_LENGTH) {
    const matches = compileWildcards(pattern);
    return { ok: true, test: (slug) => matches(DOT_SEGMENT.test(slug) ? maskDotSegments(slug) : slug), base: literalBase(pattern) };
  }
  // The rest go through picomatch's regex, which backtracks: with `[…]`, `{…}` or `\`, a pattern
  // may hold two runs of `*` at most, so that no pattern costs more than the square of a slug.
  if (wildcardRuns(pattern) > MAX_REGEX_WILDCARDS) return { ok: false, message: invalidPatternMessage(pattern) };
  // picomatch reads a run of three or more `\` its own way (it collapses the run), and a pattern
  // it tokenizes that ends in four or more never finishes compiling (`!b\\\\`): such runs are refused.
  if (BACKSLASH_RUN.test(pattern)) return { ok: false, message: invalidPatternMessage(pattern) };
  try {
    const escaped = escapeGroups(pattern);
    const matches = picomatchOf()(escaped, OPTIONS);
    const test = (slug: string): boolean => matches(DOT_SEGMENT.test(slug) ? maskDotSegments(slug) : slug);
    return { ok: true, test, base: literalBase(escaped) };
  } catch {
    return { ok: false, message: invalidPatternMessage(pattern) };
  }
}

/** Three or more `\` in a row, which a pattern may not hold (see compileFresh). */
const BACKSLASH_RUN = /\\{3}/;

/** Runs of `*` a pattern compiled to a regex may hold (see compileFresh). */
const MAX_REGEX_WILDCARDS = 2;

/** How many runs of unescaped `*` a pattern holds (`a*b**c` holds two). */
function wildcardRuns(pattern: string): number {
  let runs = 0;
  let inRun = false;
  for (let i = 0; i < pattern.length; i++) {
    const star = pattern[i] === '*';
    if (star && !inRun) runs++;
    inRun = star;
    if (pattern[i] === '\\') i++;
  }
  return runs;
}

/**
 * Escapes `(`, `)`, `|` and `+`, which picomatch still reads as regex syntax with extglobs off: in
 * our dialect `@(a|b)` is ordinary characters, and so is a run of `+` (picomatch turns `++` into
 * `\++`, one or more `+`, and `+++` into a regex that matches nothing).
 */
function escapeGroups(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '\\') {
      out += char + (pattern[i + 1] ?? '');
      i++;
    } else {
      out += char === '(' || char === ')' || char === '|' || char === '+' ? `\\${char}` : char;
    }
  }
  return out;
}

const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

/**
 * Slugs can have `.` and `..` segments (`...md` → `.`); picomatch never matches those, even with
 * `dot`, so `**` would miss them. They are matched as one or two ordinary characters instead.
 */
function maskDotSegments(slug: string): string {
  return slug
    .split('/')
    .map((segment) => (segment === '.' ? '\uE000' : segment === '..' ? '\uE000\uE000' : segment))
    .join('/');
}

/**
 * The folder every match of a glob lies in (or is), as a slug prefix: `maintainers/*` →
 * `maintainers`. `''` when there is none, or when escapes make it unsafe to compare literally.
 */
function literalBase(pattern: string): string {
  const { base, isGlob } = picomatchOf().scan(pattern, OPTIONS);
  return isGlob && !base.includes('\\') ? base : '';
}

/** The tool error for a pattern that cannot be compiled. */
export function invalidPatternMessage(pattern: string): string {
  return `Invalid pattern ${JSON.stringify(pattern)}.`;
}
