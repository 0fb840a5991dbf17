/**
 * Parsing and validating one config file (content/reference/configuration.md): TOML, then the schema (config/schema.ts), then
 * topic ids and patterns. Pure: a file's result depends on its path and text only, so a host may
 * keep it while the file is unchanged (see src/build/read-config.ts).
 */
import { parse, TomlError } from 'smol-toml';
import type * as z from 'zod/mini';
import { locatePath } from './locate.ts';
import { configError, dottedPath } from './config-error.ts';
import { mergeConfigFiles, type ConfigResult, type ValidatedConfigFile } from './merge.ts';
import type { ConfigText } from './read.ts';
import { ConfigFileSchema, KNOWN_KEYS, KNOWN_TABLES, RESERVED_TOPIC_IDS, TOPIC_ID } from './schema.ts';
import { profileNameProblem, quoteKey, quoteValue } from './values.ts';
import type { Diagnostic, DiagnosticCode } from '../diagnostics/diagnostics.ts';
import { compilePattern } from '../patterns/glob.ts';
import { splitKnowledgeFlag } from '../knowledge/extension.ts';
import { suggestName } from '../diagnostics/suggest.ts';
import { type CodeInfo, DIAGNOSTIC_CODES, warningCodes } from '../diagnostics/codes.ts';

/** Parses, validates and merges config files in order: `validateConfigFile` on each, then `mergeConfigFiles`. */
export function loadConfig(configTexts: readonly ConfigText[]): ConfigResult {
  return mergeConfigFiles(configTexts.map(validateConfigFile));
}

/** Describes a TOML value's type for an error message. */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null || value === undefined) return 'nothing';
  if (value instanceof Date) return 'a date';
  if (typeof value === 'object') return 'a table';
  if (typeof value === 'number') return Number.isInteger(value) ? `the integer ${value}` : `the number ${value}`;
  if (typeof value === 'string') return `the string ${quoteValue(value)}`;
  return typeof value === 'boolean' ? `the boolean ${value}` : `a ${typeof value}`;
}

/** Describes what a Zod type issue expected. */
function describeExpected(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    switch (issue.expected) {
      case 'string':
        return 'a string (in quotes)';
      case 'boolean':
        return 'true or false';
      case 'array':
        return 'an array of strings, like ["a", "b"]';
      case 'object':
        return 'a table';
      case 'int':
        return 'a whole number';
      case 'number':
        return 'a number';
      default:
        return String(issue.expected);
    }
  }
  if (issue.code === 'too_small') return issue.origin === 'array' ? 'at least one pattern, like ["**/LICENSE*"]' : 'a number greater than 0';
  if (issue.code === 'invalid_value') return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

/** The known keys for a table path, if Syllabus defines that table. */
function knownKeysAt(at: readonly PropertyKey[]): readonly string[] | undefined {
  const shape = at.map((p, i) =>
    (at[0] === 'kb' && at[1] === 'topic' && i === 2) || (at[0] === 'profile' && i === 1) || (at[0] === 'check' && at[1] === 'override' && i === 2) ? '*' : String(p),
  );
  return KNOWN_KEYS[shape.join('.')];
}

/** Normalises strings: `\r\n` → `\n`, trailing line breaks removed, empty strings dropped. */
function normalizeStrings(value: unknown): unknown {
  if (typeof value === 'string') {
    const text = value.replaceAll('\r\n', '\n').replace(/\n+$/, '');
    return text === '' ? undefined : text;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const normalized = normalizeStrings(item);
    if (normalized !== undefined) out[key] = normalized;
  }
  return out;
}

/** Parses and validates one config file: its tables when they are valid, and every problem found. */
export function validateConfigFile(configText: ConfigText): ValidatedConfigFile {
  const diagnostics: Diagnostic[] = [];
  let raw: Record<string, unknown>;
  try {
    raw = parse(configText.text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    diagnostics.push({
      kind: 'config-error',
      code: 'toml-syntax',
      message: `TOML syntax error: ${what}. Fix the TOML at line ${error.line}, column ${error.column}.`,
      file: configText.file,
      line: error.line,
      column: error.column,
    });
    return { configText, file: undefined, diagnostics };
  }

  for (const key of Object.keys(raw)) {
    if ((KNOWN_TABLES as readonly string[]).includes(key)) continue;
    const suggestion = suggestName(key, KNOWN_TABLES);
    if (suggestion) {
      const position = locatePath(configText.text, [key]);
      diagnostics.push({
        kind: 'warning',
        code: 'unknown-table',
        message: `[${quoteKey(key)}] is not a Syllabus table and is ignored. Did you mean [${suggestion}]?`,
        file: configText.file,
        ...(position ?? {}),
      });
    }
  }

  const known = Object.fromEntries(KNOWN_TABLES.filter((t) => t in raw).map((t) => [t, normalizeStrings(raw[t])]));
  const result = ConfigFileSchema.safeParse(known, { reportInput: true });
  if (!result.success) {
    for (const issue of result.error.issues) diagnostics.push(...describeIssue(configText, issue));
  }

  const topics = (raw['kb'] as { topic?: unknown } | undefined)?.topic;
  if (topics && typeof topics === 'object' && !Array.isArray(topics)) {
    for (const id of Object.keys(topics)) diagnostics.push(...checkTopicId(configText, id));
  }
  const profiles = raw['profile'];
  if (profiles && typeof profiles === 'object' && !Array.isArray(profiles)) {
    for (const name of Object.keys(profiles)) {
      const problem = profileNameProblem(name);
      if (problem) diagnostics.push(configError(configText, 'bad-name', ['profile', name], `${dottedPath(['profile', name])}: ${problem}`));
    }
  }
  if (diagnostics.some((d) => d.kind === 'config-error')) return { configText, file: undefined, diagnostics };
  const file = result.data!;
  for (const [id, topic] of Object.entries(file.kb?.topic ?? {})) {
    if (topic.subjects !== undefined && topic.learnings !== undefined) {
      diagnostics.push(
        configError(
          configText,
          'subjects-and-learnings',
          ['kb', 'topic', id, 'learnings'],
          `kb.topic.${id}: both subjects and learnings are set. A topic reads either a folder (subjects = "<folder>") or a learnings store (learnings = "<file>.json"); remove one of them.`,
        ),
      );
    }
    for (const field of ['learned', 'disabled'] as const) {
      topic[field]?.forEach((pattern, index) => {
        const compiled = compilePattern(pattern);
        if (!compiled.ok) {
          diagnostics.push(
            configError(configText, 'invalid-pattern', ['kb', 'topic', id, field, index], `kb.topic.${id}.${field}[${index}]: ${compiled.message} Fix or remove the pattern.`),
          );
        }
      });
    }
  }
  file.check?.override?.forEach((override, i) => {
    override.files.forEach((pattern, index) => {
      const compiled = compilePattern(pattern);
      if (!compiled.ok) {
        diagnostics.push(
          configError(
            configText,
            'invalid-pattern',
            ['check', 'override', i, 'files', index],
            `check.override[${i}].files[${index}]: ${compiled.message} Fix or remove the pattern.`,
          ),
        );
      }
    });
  });
  for (const [name, profile] of Object.entries(file.profile ?? {})) {
    profile.knowledge?.forEach((value, index) => {
      const compiled = compilePattern(splitKnowledgeFlag(value).pattern);
      if (!compiled.ok) {
        diagnostics.push(
          configError(
            configText,
            'invalid-pattern',
            ['profile', name, 'knowledge', index],
            `${dottedPath(['profile', name, 'knowledge', index])}: ${compiled.message} Fix or remove the pattern.`,
          ),
        );
      }
    });
  }
  return { configText, file: diagnostics.some((d) => d.kind === 'config-error') ? undefined : file, diagnostics };
}

/** Turns a schema issue into configuration errors with a fix (one per unknown key; a refused value with its rule's code). */
function describeIssue(configText: ConfigText, issue: z.core.$ZodIssue): Diagnostic[] {
  const base = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
  if (issue.code === 'unrecognized_keys' && base[0] === 'check' && base.at(-1) === 'severity') return issue.keys.map((key) => unknownCode(configText, [...base, key]));
  if (issue.code === 'unrecognized_keys') {
    const keys = knownKeysAt(base) ?? [];
    return issue.keys.map((key) => {
      const at = [...base, key];
      const suggestion = suggestName(key, keys);
      const hint = suggestion ? `Did you mean "${suggestion}"?` : `Remove it; valid keys here: ${keys.join(', ')}.`;
      return configError(configText, 'unknown-key', at, `${dottedPath(at)}: unknown key. ${hint}`);
    });
  }
  if (issue.code === 'custom') {
    const code = (issue.params as { code: DiagnosticCode }).code;
    return [configError(configText, code, base, `${dottedPath(base)}: ${issue.message}`)];
  }
  const input = (issue as { input?: unknown }).input;
  return [configError(configText, 'wrong-type', base, `${dottedPath(base)}: expected ${describeExpected(issue)}, got ${describeValue(input)}. Change the value.`)];
}

/**
 * A key of a severity table that is no warning code: an error's code (errors stay errors), or an
 * unknown one, with the closest warning code (content/reference/configuration.md, "[check]").
 */
function unknownCode(configText: ConfigText, at: readonly (string | number)[]): Diagnostic {
  const code = String(at.at(-1));
  const known = (DIAGNOSTIC_CODES as Readonly<Record<string, CodeInfo | undefined>>)[code];
  if (known) {
    const what = known.kind === 'config-error' ? 'a configuration error' : 'a content error';
    return configError(
      configText,
      'unknown-code',
      at,
      `${dottedPath(at)}: ${code} is ${what}, and errors always stay errors: only warnings can be set to "error", "warning" or "off". Remove the key, and fix what the error reports.`,
    );
  }
  const suggestion = suggestName(code, warningCodes());
  const hint = suggestion ? `Did you mean "${suggestion}"?` : 'Use the code of a warning as check prints it, e.g. near-duplicate (reference/diagnostics lists them).';
  return configError(configText, 'unknown-code', at, `${dottedPath(at)}: no warning has the code ${quoteValue(code)}. ${hint}`);
}

/** Topic ids must be valid and not reserved. */
function checkTopicId(configText: ConfigText, id: string): Diagnostic[] {
  const at = ['kb', 'topic', id];
  if ((RESERVED_TOPIC_IDS as readonly string[]).includes(id)) {
    return [
      configError(
        configText,
        'reserved-topic-id',
        at,
        `kb.topic.${id}: the topic id "${id}" is reserved for the site's own routes (${RESERVED_TOPIC_IDS.join(', ')}). Rename the table, e.g. [kb.topic.${id}-notes].`,
      ),
    ];
  }
  if (TOPIC_ID.test(id)) return [];
  let fixed = id.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^[^A-Za-z]+/, '');
  if (fixed === '') fixed = 'topic';
  return [
    configError(
      configText,
      'bad-topic-id',
      at,
      `kb.topic.${quoteValue(id)}: invalid topic id ${quoteValue(id)}. Topic ids start with a letter and contain only letters, digits, "-" and "_"; rename the table, e.g. [kb.topic.${fixed}].`,
    ),
  ];
}
