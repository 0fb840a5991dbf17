/**
 * The limits of one `learn` or `find` call (content/agents/learn-tool.md, "Limits"): how many
 * patterns, how long one pattern, how long a query. Every surface (the CLI, the agent server, a
 * published site read with `--remote`) checks its arguments with `parseLearnArguments` and
 * `parseFindArguments`, which apply these, so an oversized call gets the same message everywhere,
 * before any file is read or fetched.
 */

/**
 * The most patterns one `learn` call takes. Agents name a few subjects at a time; a glob (`**`,
 * `folder/**`) loads any number, so a longer list is a runaway call, not a need.
 */
export const MAX_PATTERNS_PER_CALL = 100;

/** The longest pattern, in characters: slugs are paths, far shorter. */
export const MAX_PATTERN_LENGTH = 1000;

/** The longest `find` query, in characters: a query is a few words, or a subject's title. */
export const MAX_QUERY_LENGTH = 1000;

/** How much of a refused pattern its message quotes. */
const QUOTED_LENGTH = 40;

/** Whether patterns are within the limits; a message naming the limit when not. */
export function checkPatterns(patterns: readonly string[]): { ok: true } | { ok: false; message: string } {
  if (patterns.length > MAX_PATTERNS_PER_CALL) {
    return {
      ok: false,
      message: `Too many patterns: ${patterns.length} given, at most ${MAX_PATTERNS_PER_CALL} per call. Load fewer subjects at a time, or use a glob such as "folder/**".`,
    };
  }
  const long = patterns.find((p) => p.length > MAX_PATTERN_LENGTH);
  if (long !== undefined) {
    return {
      ok: false,
      message: `Pattern too long: ${long.length} characters (${JSON.stringify(`${long.slice(0, QUOTED_LENGTH)}…`)}), at most ${MAX_PATTERN_LENGTH} per pattern. Name a subject by its slug, or use a glob such as "folder/**".`,
    };
  }
  return { ok: true };
}

/** Whether a `find` query is within the limit; a message naming the limit when not. */
export function checkQuery(query: string): { ok: true } | { ok: false; message: string } {
  if (query.length > MAX_QUERY_LENGTH) {
    return {
      ok: false,
      message: `Query too long: ${query.length} characters, at most ${MAX_QUERY_LENGTH}. Search with a few words, or the title or name of a subject.`,
    };
  }
  return { ok: true };
}
