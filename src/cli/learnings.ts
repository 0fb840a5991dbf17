/** `syllabus learnings add|stats|prune <file>`: the rules over a learnings store (content/reference/cli/learnings.md). */
import path from 'node:path';
import { plural } from '../kb/diagnostics/diagnostics.ts';
import { writeFileAtomically } from '../kb/files/atomic-write.ts';
import { readLearningsFile } from '../kb/learnings/file.ts';
import { type HeldLock, LOCK_STALE_MS, LOCK_TIMEOUT_VARIABLE, LOCK_WAIT_MS, lockWaitFromEnv, withLearningsLock } from '../kb/learnings/lock.ts';
import {
  DEFAULT_PRUNE_MAX_AGE_DAYS,
  type NewLearning,
  PRUNE_CONFIDENCE_BELOW,
  type PruneRules,
  addLearning,
  learningsStats,
  newLearningId,
  pruneLearnings,
  pruneRules,
} from '../kb/learnings/rules.ts';
import {
  LEARNING_CATEGORIES,
  type Learning,
  type LearningCategory,
  type LearningsStore,
  MAX_LEARNING_KEYWORDS,
  describeEntryProblems,
  emptyLearningsStore,
  serializeLearningsStore,
} from '../kb/learnings/store.ts';
import { formatConfidence, learningSlug } from '../kb/learnings/subjects.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { parseCommandArgs } from './parse-args.ts';

export const LEARNINGS_HELP = `Usage: syllabus learnings <add|stats|prune> <file> [options]

Maintains a learnings store: the JSON file (the format of content/reference/cli/learnings.md) that a topic's
learnings = "…" names. Changes are written atomically: a crash leaves the old file or the new one.
add and prune hold the store's lock, the folder <file>.lock, from reading the store to writing it:
commands run at once take turns. One waits up to ${formatDuration(LOCK_WAIT_MS)} for another's lock (${LOCK_TIMEOUT_VARIABLE}).

  syllabus learnings add <file> --category C --content TEXT [--keyword K]… [--task-id ID]
                         [--related-file PATH] [--code-pattern TEXT] [--approach TEXT] [--id ID]
      adds a learning (confidence 0.5, never used); refused when its words have a Jaccard
      similarity over 0.8 with an existing learning's. Creates the file if it does not exist.
  syllabus learnings stats <file>
      counts by category, average confidence, the most used learnings, and how many prune would remove
  syllabus learnings prune <file> [--dry-run]
      removes learnings never used, with confidence under 0.7, created more than --max-age days ago

Options:
      --category C          add: ${LEARNING_CATEGORIES.join(', ')} (required)
      --content TEXT        add: the learning, in natural language (required)
      --keyword K           add: a keyword (repeatable, at most ${MAX_LEARNING_KEYWORDS}; default: the first ${MAX_LEARNING_KEYWORDS} keywords of the content)
      --task-id ID          add: the task that produced it (default "")
      --related-file PATH   add: a related file (structured.file)
      --code-pattern TEXT   add: a code pattern (structured.pattern)
      --approach TEXT       add: an implementation approach (structured.approach)
      --id ID               add: the id (default learn-<time in base 36>-<6 random characters>)
      --max-age DAYS        stats, prune: the age past which an unused, low-confidence learning is pruned (default ${DEFAULT_PRUNE_MAX_AGE_DAYS})
      --dry-run             prune: print what would be removed, change nothing
      --now TIME            the current time, ISO 8601 (default: now)
      --json                print the result as JSON
  -h, --help                show this help

Exit codes: 0 success (also when nothing is pruned), 1 the store cannot be read or written or
is not a store, another command held its lock too long, or add refused a duplicate or a taken id,
2 usage error.`;

const OPTIONS = {
  category: { type: 'string' },
  content: { type: 'string' },
  keyword: { type: 'string', multiple: true },
  'task-id': { type: 'string' },
  'related-file': { type: 'string' },
  'code-pattern': { type: 'string' },
  approach: { type: 'string' },
  id: { type: 'string' },
  'max-age': { type: 'string' },
  'dry-run': { type: 'boolean' },
  now: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The options each action accepts (besides --now, --json and --help). */
const ACCEPTS: Record<string, readonly (keyof typeof OPTIONS)[]> = {
  add: ['category', 'content', 'keyword', 'task-id', 'related-file', 'code-pattern', 'approach', 'id'],
  stats: ['max-age'],
  prune: ['max-age', 'dry-run'],
};

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K] extends { type: 'boolean' } ? boolean : string };

/** Runs `learnings`; returns the exit code. */
export async function learningsCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, OPTIONS, 'learnings');
  if (values.help) {
    io.out(LEARNINGS_HELP);
    return 0;
  }
  const [action, file, ...extra] = positionals;
  if (action === undefined) throw usageError('learnings needs an action: syllabus learnings <add|stats|prune> <file>.', 'learnings');
  const accepted = ACCEPTS[action];
  if (!accepted) throw usageError(`unknown action ${JSON.stringify(action)}: use add, stats or prune.`, 'learnings');
  if (file === undefined) throw usageError(`learnings ${action} needs the store's file: syllabus learnings ${action} <file>.`, 'learnings');
  if (extra.length > 0) throw usageError(`learnings ${action} takes one file (got also ${JSON.stringify(extra[0])}).`, 'learnings');
  for (const name of Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]) {
    if (values[name] !== undefined && name !== 'now' && name !== 'json' && !accepted.includes(name)) {
      throw usageError(`--${name} is not an option of learnings ${action}.`, 'learnings');
    }
  }
  const now = parseNow(values.now);
  const target = { given: file, path: path.resolve(io.cwd, file) };
  if (action === 'add') return addAction(target, values, now, io);
  const rules = pruneRules(now, parseMaxAge(values['max-age']));
  if (action === 'stats') return statsAction(target, readStore(target, io, false), rules, values, io);
  if (values['dry-run']) return pruneAction(target, readStore(target, io, false), rules, values, io, undefined);
  return changeStore(target, io, false, (lock) => pruneAction(target, readStore(target, io, false), rules, values, io, lock));
}

interface Target {
  /** The path as given on the command line (for messages). */
  given: string;
  path: string;
}

function parseNow(value: string | undefined): Date {
  if (value === undefined) return new Date();
  const time = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(time))
    throw usageError(`--now must be an ISO 8601 time like 2024-01-10T08:00:00.000Z (got ${JSON.stringify(value)}).`, 'learnings');
  return new Date(time);
}

function parseMaxAge(value: string | undefined): number {
  if (value === undefined) return DEFAULT_PRUNE_MAX_AGE_DAYS;
  const days = Number(value);
  if (value.trim() === '' || !Number.isFinite(days) || days < 0) throw usageError(`--max-age must be a number of days, 0 or more (got ${JSON.stringify(value)}).`, 'learnings');
  return days;
}

/** Reads the store; problems with the whole file are errors (exit 1), invalid entries warnings. */
function readStore(target: Target, io: CommandIo, createIfMissing: boolean): LearningsStore {
  const reading = readLearningsFile(target.path);
  if (!reading.ok) {
    if (reading.missing && createIfMissing) return emptyLearningsStore();
    const place = reading.line ? `${target.given}:${reading.line}${reading.column ? `:${reading.column}` : ''}` : target.given;
    const fix = reading.missing ? 'Check the path; "syllabus learnings add" creates a new store.' : reading.fix;
    throw new CliError(`${place}: the learnings store ${reading.problem}. ${fix}`, 1);
  }
  for (const entry of reading.store.entries) {
    if (!entry.learning) io.err(`warning: ${target.given}:${entry.line}: ${describeEntryProblems(entry)} It is left as it is and otherwise ignored; fix the entry, or remove it.`);
  }
  return reading.store;
}

/**
 * Runs `work` (read the store, change it, write it) holding the store's lock. A lock another
 * command holds longer than the wait, or one that cannot be made, is an error (exit 1).
 */
async function changeStore(target: Target, io: CommandIo, creates: boolean, work: (lock: HeldLock) => number): Promise<number> {
  const wait = lockWaitFromEnv(io.env);
  if (!wait.ok) throw usageError(wait.message, 'learnings');
  const outcome = await withLearningsLock(target.path, work, { waitMs: wait.value });
  if (outcome.ok) return outcome.value;
  const lock = `${target.given}.lock`;
  if (outcome.reason === 'busy') {
    throw new CliError(
      `${target.given} is unchanged: another "syllabus learnings" command holds its lock, the folder ${lock}, and did not release it within ${formatDuration(outcome.waitedMs)}. Run the command again. If no "syllabus learnings" command is running, remove ${lock} (a lock whose process died is also removed by itself ${formatDuration(LOCK_STALE_MS)} after its last update).`,
      1,
    );
  }
  // No folder, so no store: say so as reading it would.
  if (outcome.code === 'ENOENT' && !creates) readStore(target, io, false);
  throw new CliError(`cannot write ${target.given} (${outcome.code}); it is unchanged. Check that its folder exists and is writable.`, 1);
}

/** `300 ms`, `15 s`, `1.5 s`. */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** Writes the store, if its lock is still this command's. */
function writeStore(target: Target, store: LearningsStore, now: Date, lock: HeldLock): void {
  if (lock.lost()) {
    throw new CliError(
      `cannot write ${target.given}: its lock, ${target.given}.lock, was removed or taken over while this command held it, so ${target.given} is unchanged by this command. Run the command again.`,
      1,
    );
  }
  try {
    writeFileAtomically(target.path, serializeLearningsStore(store, now.toISOString()));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CliError(`cannot write ${target.given} (${code}); it is unchanged. Check that its folder exists and is writable.`, 1);
  }
}

async function addAction(target: Target, values: Values, now: Date, io: CommandIo): Promise<number> {
  const category = values.category;
  if (category === undefined) throw usageError(`learnings add needs --category (${LEARNING_CATEGORIES.join(', ')}).`, 'learnings');
  if (!(LEARNING_CATEGORIES as readonly string[]).includes(category)) {
    throw usageError(`--category must be one of ${LEARNING_CATEGORIES.join(', ')} (got ${JSON.stringify(category)}).`, 'learnings');
  }
  const content = values.content;
  if (content === undefined || content.trim() === '') throw usageError("learnings add needs --content with the learning's text.", 'learnings');
  if (values.keyword && values.keyword.length > MAX_LEARNING_KEYWORDS) {
    throw usageError(`at most ${MAX_LEARNING_KEYWORDS} --keyword values (got ${values.keyword.length}).`, 'learnings');
  }
  if (values.id !== undefined && values.id === '') throw usageError('--id must not be empty.', 'learnings');
  const structured = {
    ...(values['related-file'] !== undefined ? { file: values['related-file'] } : {}),
    ...(values['code-pattern'] !== undefined ? { pattern: values['code-pattern'] } : {}),
    ...(values.approach !== undefined ? { approach: values.approach } : {}),
  };
  const input: NewLearning = {
    id: values.id ?? newLearningId(now, Math.random),
    taskId: values['task-id'] ?? '',
    category: category as LearningCategory,
    content,
    keywords: values.keyword,
    structured,
    createdAt: now.toISOString(),
  };
  return changeStore(target, io, true, (lock) => addToStore(target, input, values, now, io, lock));
}

/** Adds `input` to the store, read under `lock`, and writes it; refuses a duplicate or a taken id. */
function addToStore(target: Target, input: NewLearning, values: Values, now: Date, io: CommandIo, lock: HeldLock): number {
  const store = readStore(target, io, true);
  let outcome = addLearning(store, input);
  // A generated id that is taken (vanishingly rare) is drawn again.
  while (!outcome.added && outcome.reason === 'id-taken' && values.id === undefined) outcome = addLearning(store, { ...input, id: newLearningId(now, Math.random) });
  if (!outcome.added) {
    if (values.json) {
      io.out(
        JSON.stringify(
          outcome.reason === 'duplicate'
            ? {
                added: false,
                reason: 'duplicate',
                duplicateOf: {
                  slug: learningSlug(outcome.duplicate.learning),
                  id: outcome.duplicate.learning.id,
                  shared: outcome.duplicate.shared,
                  union: outcome.duplicate.union,
                },
              }
            : { added: false, reason: 'id-taken', id: outcome.id },
          null,
          2,
        ),
      );
      return 1;
    }
    if (outcome.reason === 'id-taken')
      throw new CliError(`not added: ${target.given} already has a learning with id ${JSON.stringify(outcome.id)}. Choose another --id, or leave --id out.`, 1);
    const { learning, shared, union } = outcome.duplicate;
    throw new CliError(
      `not added: it duplicates ${learningSlug(learning)} in ${target.given} (their contents share ${shared} of the ${union} words they use, a Jaccard similarity over 0.8). Update that learning instead, or say what is new.`,
      1,
    );
  }
  writeStore(target, outcome.store, now, lock);
  const count = outcome.store.entries.filter((e) => e.learning).length;
  if (values.json) io.out(JSON.stringify({ added: true, slug: learningSlug(outcome.learning), learning: outcome.learning }, null, 2));
  else io.out(`Added ${learningSlug(outcome.learning)} to ${target.given} (${plural(count, 'learning')}).`);
  return 0;
}

function statsAction(target: Target, store: LearningsStore, rules: PruneRules, values: Values, io: CommandIo): number {
  const stats = learningsStats(store, rules);
  if (values.json) {
    io.out(JSON.stringify({ ...stats, mostUsed: stats.mostUsed.map(usageOf) }, null, 2));
    return 0;
  }
  const lines = [`${target.given}: ${plural(stats.totalLearnings, 'learning')}`];
  if (stats.invalidEntries > 0) lines.push(`Invalid entries: ${stats.invalidEntries} (not counted; see the warnings)`);
  lines.push(`By category: ${LEARNING_CATEGORIES.map((c) => `${c} ${stats.byCategory[c]}`).join(', ')}`);
  lines.push(`Average confidence: ${stats.avgConfidence === null ? 'none' : formatConfidence(stats.avgConfidence)}`);
  if (stats.mostUsed.length === 0) lines.push('Most used: none');
  else {
    lines.push('Most used:');
    for (const l of stats.mostUsed)
      lines.push(`- ${learningSlug(l)}: used ${plural(l.usedCount, 'time')}, ${l.successCount} successful, confidence ${formatConfidence(l.confidence)}`);
  }
  lines.push(`Prunable: ${stats.prunable} (${pruneCriteria(rules)})`);
  io.out(lines.join('\n'));
  return 0;
}

/** Prunes the store, read under `lock`; without one (`--dry-run`), changes nothing. */
function pruneAction(target: Target, store: LearningsStore, rules: PruneRules, values: Values, io: CommandIo, lock: HeldLock | undefined): number {
  const total = store.entries.filter((e) => e.learning).length;
  const { store: kept, pruned } = pruneLearnings(store, rules);
  const dryRun = values['dry-run'] ?? false;
  if (pruned.length > 0 && lock) writeStore(target, kept, new Date(rules.now), lock);
  if (values.json) {
    io.out(JSON.stringify({ pruned: pruned.map((l) => ({ slug: learningSlug(l), id: l.id, category: l.category })), kept: total - pruned.length, dryRun }, null, 2));
    return 0;
  }
  const head = `${dryRun ? 'Would prune' : 'Pruned'} ${pruned.length} of ${plural(total, 'learning')} ${dryRun ? 'in' : 'from'} ${target.given} (${pruneCriteria(rules)})`;
  io.out(pruned.length === 0 ? `${head}.` : [`${head}:`, ...pruned.map((l) => `- ${learningSlug(l)}`)].join('\n'));
  return 0;
}

/** What a learning's use is, for `stats --json`. */
function usageOf(learning: Learning): Record<string, unknown> {
  return {
    slug: learningSlug(learning),
    id: learning.id,
    category: learning.category,
    usedCount: learning.usedCount,
    successCount: learning.successCount,
    confidence: learning.confidence,
  };
}

function pruneCriteria(rules: PruneRules): string {
  const days = rules.maxAgeMs / 86_400_000;
  return `never used, confidence under ${PRUNE_CONFIDENCE_BELOW}, created more than ${plural(days, 'day')} before ${new Date(rules.now).toISOString()}`;
}
