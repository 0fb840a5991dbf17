/**
 * The question set (content/reference/evaluations.md, "The question set"): a TOML file of
 * `[[question]]` tables, each a question a user would ask and the subjects that answer it.
 * Parsing is pure (text in, questions and diagnostics out); {@link readQuestionSet} only reads the
 * file. Whether the subjects exist is checked against a knowledge base by check-questions.ts.
 */
import fs from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { suggestName } from '../diagnostics/suggest.ts';
import { MAX_QUERY_LENGTH } from '../knowledge/call-limits.ts';

/** One question of the question set (content/reference/evaluations.md). */
export interface EvalQuestion {
  id: string;
  ask: string;
  expect: { topic: string; slug: string }[];
  answerIncludes: string[];
  rubric: string | undefined;
  /** 1-based line of its [[question]] header in the file, for messages. */
  line: number;
}

/** A question set as read: the questions that are well formed, and what is wrong with the others. */
export interface QuestionSet {
  /** The file, absolute. */
  file: string;
  questions: EvalQuestion[];
  diagnostics: Diagnostic[];
}

/** Question ids: lower-case letters, digits and `-`, as they show in tables and diffs. */
export const QUESTION_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The keys of a `[[question]]` table. */
const QUESTION_KEYS = ['id', 'ask', 'expect', 'answer_includes', 'rubric'] as const;

/** The longest rubric accepted, in characters; a question is at most what `find` takes ({@link MAX_QUERY_LENGTH}). */
const MAX_RUBRIC = 2000;

/** Reads and parses a question set; a file that cannot be read is a diagnostic, never an exception. */
export function readQuestionSet(file: string): QuestionSet {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const what = code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    const fix =
      code === 'ENOENT'
        ? 'Create it with [[question]] tables (reference/evaluations), or correct [eval] questions in kb.toml.'
        : 'Check its permissions, or correct [eval] questions in kb.toml.';
    return { file, questions: [], diagnostics: [questionError(file, undefined, `The question set ${what}. ${fix}`)] };
  }
  return { file, ...parseQuestionSet(text, file) };
}

/**
 * Parses the text of a question set. A question with a problem is left out and each problem is
 * a configuration error (`bad-questions`) naming the file, the line, the question and the key;
 * repeated ids and repeated questions are content errors (`duplicate-question`), the later one
 * left out.
 */
export function parseQuestionSet(text: string, file: string): { questions: EvalQuestion[]; diagnostics: Diagnostic[] } {
  let raw: Record<string, unknown>;
  try {
    raw = parse(text);
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const what = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document: /, '');
    return {
      questions: [],
      diagnostics: [
        { ...questionError(file, error.line, `TOML syntax error in the question set: ${what}. Fix the TOML at line ${error.line}, column ${error.column}.`), column: error.column },
      ],
    };
  }
  const diagnostics: Diagnostic[] = [];
  for (const key of Object.keys(raw)) {
    if (key === 'question') continue;
    const hint = suggestName(key, ['question']) ? ' Did you mean [[question]]?' : '';
    diagnostics.push(
      questionError(
        file,
        lineOf(text, new RegExp(`^\\s*\\[*\\s*["']?${escapeRegExp(key)}\\b`)),
        `${JSON.stringify(key)} is not part of a question set, which holds [[question]] tables only.${hint} Remove it.`,
      ),
    );
  }
  const tables = raw['question'];
  if (tables === undefined) {
    if (diagnostics.length === 0)
      diagnostics.push(questionError(file, undefined, 'The question set has no question. Add [[question]] tables with id, ask and expect (reference/evaluations).'));
    return { questions: [], diagnostics };
  }
  if (!Array.isArray(tables))
    return {
      questions: [],
      diagnostics: [
        ...diagnostics,
        questionError(file, lineOf(text, /^\s*\[?\s*question\b/), '"question" must be an array of tables: write each question under its own [[question]] header.'),
      ],
    };

  const headers = headerLines(text);
  const questions: EvalQuestion[] = [];
  const byId = new Map<string, EvalQuestion>();
  const byAsk = new Map<string, EvalQuestion>();
  tables.forEach((table: unknown, index) => {
    const line = headers[index] ?? 1;
    const next = headers[index + 1] ?? Number.POSITIVE_INFINITY;
    const parsed = parseQuestion(table, index, line, (key) => keyLine(text, key, line, next), file);
    diagnostics.push(...parsed.diagnostics);
    if (!parsed.question) return;
    const question = parsed.question;
    const sameId = byId.get(question.id);
    if (sameId) {
      diagnostics.push(
        duplicate(file, question.line, `question ${JSON.stringify(question.id)}: the id is already used by the question at line ${sameId.line}. Give each question its own id.`),
      );
      return;
    }
    const askKey = normalizeAsk(question.ask);
    const sameAsk = byAsk.get(askKey);
    if (sameAsk) {
      diagnostics.push(
        duplicate(
          file,
          question.line,
          `question ${JSON.stringify(question.id)}: asks what question ${JSON.stringify(sameAsk.id)} (line ${sameAsk.line}) asks. Remove one, or merge their expected subjects.`,
        ),
      );
      return;
    }
    byId.set(question.id, question);
    byAsk.set(askKey, question);
    questions.push(question);
  });
  return { questions, diagnostics };
}

/** One `[[question]]` table, checked key by key. */
function parseQuestion(table: unknown, index: number, line: number, lineOfKey: (key: string) => number, file: string): { question?: EvalQuestion; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  if (table === null || typeof table !== 'object' || Array.isArray(table))
    return { diagnostics: [questionError(file, line, `question ${index + 1} is not a table. Write it as a [[question]] table.`)] };
  const record = table as Record<string, unknown>;
  const id = typeof record['id'] === 'string' ? record['id'] : undefined;
  const name = id !== undefined && QUESTION_ID.test(id) ? `question ${JSON.stringify(id)}` : `question ${index + 1}`;
  const problem = (key: string, message: string): void => {
    diagnostics.push(questionError(file, lineOfKey(key), `${name}: ${key} ${message}`));
  };

  for (const key of Object.keys(record)) {
    if ((QUESTION_KEYS as readonly string[]).includes(key)) continue;
    const suggestion = suggestName(key, QUESTION_KEYS);
    problem(key, `is not a key of a question.${suggestion ? ` Did you mean ${suggestion}?` : ''} The keys are ${QUESTION_KEYS.join(', ')}.`);
  }
  if (record['id'] === undefined) problem('id', 'is missing. Add id = "<name>": lower-case letters, digits and "-", unique in the file.');
  else if (id === undefined) problem('id', `must be a string, like id = "install" (got ${describe(record['id'])}).`);
  else if (!QUESTION_ID.test(id)) problem('id', `${JSON.stringify(id)} is not a question id: use lower-case letters, digits and single "-" between them, like "roll-back".`);

  const ask = text(record['ask'], 'ask', MAX_QUERY_LENGTH, problem);
  const rubric = text(record['rubric'], 'rubric', MAX_RUBRIC, problem);

  const expect: EvalQuestion['expect'] = [];
  const rawExpect = record['expect'];
  if (rawExpect === undefined) problem('expect', 'is missing. Add expect = ["<topic>/<slug>"]: the subjects that answer the question.');
  else if (!Array.isArray(rawExpect) || rawExpect.some((v) => typeof v !== 'string'))
    problem('expect', `must be an array of strings, like ["guide/getting-started"] (got ${describe(rawExpect)}).`);
  else if (rawExpect.length === 0) problem('expect', 'is empty. Name at least one subject that answers the question, like ["guide/getting-started"].');
  else {
    const seen = new Set<string>();
    for (const value of rawExpect as string[]) {
      const slash = value.indexOf('/');
      if (slash <= 0 || slash === value.length - 1) {
        problem('expect', `${JSON.stringify(value)} is not "<topic>/<slug>": write the topic id, a "/" and the subject's slug, like "guide/getting-started".`);
        continue;
      }
      if (seen.has(value)) {
        problem('expect', `names ${JSON.stringify(value)} twice. Remove one.`);
        continue;
      }
      seen.add(value);
      expect.push({ topic: value.slice(0, slash), slug: value.slice(slash + 1) });
    }
  }

  const answerIncludes: string[] = [];
  const rawIncludes = record['answer_includes'];
  if (rawIncludes !== undefined) {
    if (!Array.isArray(rawIncludes) || rawIncludes.some((v) => typeof v !== 'string' || v.trim() === '')) {
      problem('answer_includes', `must be an array of non-empty strings, like ["npm install syllabus-kb"] (got ${describe(rawIncludes)}).`);
    } else answerIncludes.push(...(rawIncludes as string[]));
  }

  if (diagnostics.length > 0 || id === undefined || ask === undefined) return { diagnostics };
  return { question: { id, ask, expect, answerIncludes, rubric, line }, diagnostics };
}

/** A text key: a non-empty string of at most `max` characters; `ask` is required. */
function text(value: unknown, key: 'ask' | 'rubric', max: number, problem: (key: string, message: string) => void): string | undefined {
  if (value === undefined) {
    if (key === 'ask') problem(key, 'is missing. Add the question as a user would ask it, like ask = "How do I install Syllabus?".');
    return undefined;
  }
  if (typeof value !== 'string') {
    problem(key, `must be a string (got ${describe(value)}).`);
    return undefined;
  }
  if (value.trim() === '') {
    problem(key, 'is empty. Write it, or remove the key.');
    return undefined;
  }
  if (value.length > max) {
    problem(key, `is ${value.length} characters long, over the limit of ${max}. Shorten it.`);
    return undefined;
  }
  return value.trim();
}

/** Questions that differ only in case, spaces and a final `?` are the same question. */
function normalizeAsk(ask: string): string {
  return ask
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s?]+$/, '');
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return value.some((v) => typeof v !== 'string') ? 'an array with a value that is not a string' : 'an array';
  if (value instanceof Date) return 'a date';
  if (value === null || typeof value === 'object') return 'a table';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return typeof value === 'boolean' ? `the boolean ${value}` : `the number ${JSON.stringify(value)}`;
}

function questionError(file: string, line: number | undefined, message: string): Diagnostic {
  return { kind: 'config-error', code: 'bad-questions', message, file, ...(line === undefined ? {} : { line }) };
}

function duplicate(file: string, line: number, message: string): Diagnostic {
  return { kind: 'content-error', code: 'duplicate-question', message, file, line };
}

/** The 1-based lines of the `[[question]]` headers, in order. */
function headerLines(text: string): number[] {
  const lines: number[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (/^\s*\[\[\s*(?:question|"question"|'question')\s*\]\]/.test(line)) lines.push(i + 1);
  });
  return lines;
}

/** The line of `key = …` between a question's header and the next one; the header's line when it is not found. */
function keyLine(text: string, key: string, from: number, before: number): number {
  const lines = text.split(/\r?\n/);
  const pattern = new RegExp(`^\\s*["']?${escapeRegExp(key)}["']?\\s*=`);
  for (let i = from; i < Math.min(lines.length, before - 1); i++) if (pattern.test(lines[i]!)) return i + 1;
  return from;
}

function lineOf(text: string, pattern: RegExp): number | undefined {
  const index = text.split(/\r?\n/).findIndex((line) => pattern.test(line));
  return index === -1 ? undefined : index + 1;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
