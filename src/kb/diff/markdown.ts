/**
 * The knowledge diff as markdown for a pull-request comment (content/reference/cli/diff.md,
 * "Markdown"): a summary, token deltas, then each change, with line diffs in `<details>` (open
 * when short, folded when long). The output stays under a size budget (a GitHub comment holds at
 * most 65,536 characters): long patches are cut, long lists end in "and N more".
 */
import type { EvalDelta } from '../evals/report-schema.ts';
import type { ChangedSubject, ContentChange, DiffSide, DiffSubject, KnowledgeDelta, KnowledgeDiff, MovedSubject, SubjectRef, VisibilityChange } from './schema.ts';

/** Limits of {@link renderDiffMarkdown}. */
export interface DiffMarkdownOptions {
  /** The most characters of the whole text (default 50,000: well under GitHub's 65,536). */
  maxLength?: number;
  /** The most entries shown per section (default 50). */
  maxItems?: number;
  /** The most lines shown of one patch (default 200). */
  maxPatchLines?: number;
  /** Patches of more lines than this are folded (default 12); shorter ones are shown open. */
  foldLines?: number;
  /** Said after "and N more …" (default: where to find all of them, `syllabus diff --json`). */
  moreHint?: string;
}

const DEFAULTS: Required<DiffMarkdownOptions> = {
  maxLength: 50_000,
  maxItems: 50,
  maxPatchLines: 200,
  foldLines: 12,
  moreHint: 'All of them: `syllabus diff --json`.',
};

/** The most characters of one patch line shown, and of one patch. */
const MAX_LINE_LENGTH = 500;
const MAX_PATCH_LENGTH = 12_000;

/** Room kept for the "and N more" line of each section still to come. */
const SECTION_RESERVE = 160;

/** An entry of a section: a list line, or a block (separated by blank lines). */
type Item = { kind: 'line' | 'block'; text: string };

/** The diff as markdown, without a final line break. */
export function renderDiffMarkdown(diff: KnowledgeDiff, options: DiffMarkdownOptions = {}): string {
  const limits = { ...DEFAULTS, ...options };
  const head = [`## Knowledge diff`, '', `${sideLabel(diff.base)} → ${sideLabel(diff.head)}`];
  if (diff.base.kind !== diff.head.kind) head.push('', 'The source is compared as published: its hidden and disabled subjects are left out.');
  if (diff.equal) return [...head, '', 'No changes: both sides have the same subjects, visibility and `<knowledge>` sections.'].join('\n');

  const sections: { title: string; items: Item[]; noun: string }[] = [];
  const tokenRows = tokenTable(diff);
  const out: string[] = [head.join('\n'), summaryLine(diff)];
  if (tokenRows !== null) out.push(`### Tokens\n\n${tokenRows}`);
  if (diff.evals) out.push(questionsSection(diff.evals, limits));

  const knowledge: Item[] = [];
  if (diff.knowledge.change !== null) knowledge.push(knowledgeItem('The `<knowledge>` section', '<code>&lt;knowledge&gt;</code>', diff.knowledge, limits));
  for (const profile of diff.profiles) {
    if (profile.status === 'unchanged') continue;
    const title = `profile <code>${escapeHtml(profile.name)}</code>`;
    if (profile.status === 'changed') knowledge.push(knowledgeItem(`Profile ${code(profile.name)}`, title, profile, limits));
    else
      knowledge.push({ kind: 'line', text: `- Profile ${code(profile.name)}: ${profile.status}${profile.tokens.delta === 0 ? '' : ` (${signed(profile.tokens.delta)} tokens)`}` });
  }
  sections.push({ title: '`<knowledge>` sections', items: knowledge, noun: 'sections' });
  sections.push({ title: 'Added', items: diff.added.map((s) => ({ kind: 'line', text: `- ${ref(s)} (${describeSubject(s)})` })), noun: 'added subjects' });
  sections.push({ title: 'Removed', items: diff.removed.map((s) => ({ kind: 'line', text: `- ${ref(s)} (${describeSubject(s)})` })), noun: 'removed subjects' });
  sections.push({ title: 'Moved', items: diff.moved.map((m) => movedItem(m, limits)), noun: 'moved subjects' });
  sections.push({ title: 'Changed', items: diff.changed.map((c) => changedItem(c, limits)), noun: 'changed subjects' });
  sections.push({ title: 'Visibility', items: diff.visibility.map(visibilityItem), noun: 'visibility changes' });

  const present = sections.filter((s) => s.items.length > 0);
  let used = out.reduce((sum, part) => sum + part.length + 2, 0);
  present.forEach((section, index) => {
    const reserve = (present.length - index) * SECTION_RESERVE;
    const heading = `### ${section.title}`;
    used += heading.length + 2;
    const shown: Item[] = [];
    for (const item of section.items) {
      if (shown.length >= limits.maxItems || used + item.text.length + 2 + reserve > limits.maxLength) break;
      shown.push(item);
      used += item.text.length + 2;
    }
    const left = section.items.length - shown.length;
    if (left > 0) {
      const more: Item = {
        kind: 'line',
        text: `- … and ${left} more ${section.noun}${shown.length === 0 ? ' (too long to show here)' : ''}.${limits.moreHint === '' ? '' : ` ${limits.moreHint}`}`,
      };
      shown.push(more);
      used += more.text.length + 2;
    }
    out.push(`${heading}\n\n${joinItems(shown)}`);
  });
  return out.join('\n\n');
}

/**
 * The questions section: the totals on both sides, the regressions, then a row per question whose
 * rank or tokens changed (at most `maxItems`).
 */
function questionsSection(evals: EvalDelta, limits: Required<DiffMarkdownOptions>): string {
  const { base, head } = evals.totals;
  const share = (n: number): string => n.toFixed(2);
  const whose = evals.questionSet === 'head' ? "the head's question set" : "the base's question set";
  const lines = [
    '### Questions',
    '',
    `hit@1 ${share(base.hitAt1)} → ${share(head.hitAt1)}, hit@3 ${share(base.hitAt3)} → ${share(head.hitAt3)}, MRR ${share(base.mrr)} → ${share(head.mrr)}, mean tokens ${number(base.meanTokens)} → ${number(head.meanTokens)} (${head.questions} ${head.questions === 1 ? 'question' : 'questions'}, ${whose}).`,
  ];
  if (evals.regressions.length > 0) {
    const n = evals.regressions.length;
    lines.push(
      '',
      `**${n} ${n === 1 ? 'question regressed' : 'questions regressed'}** (left the top 3 of \`find\`, or no longer found): ${evals.regressions.map((id) => code(id)).join(', ')}.`,
    );
  }
  if (evals.questions.length === 0) {
    lines.push('', 'No question changed rank or tokens.');
    return lines.join('\n');
  }
  const rank = (r: number | null): string => (r === null ? '–' : String(r));
  const hit = (h: boolean): string => (h ? 'yes' : 'no');
  lines.push('', '| question | change | rank | hit@3 | tokens |', '| --- | --- | ---: | :---: | ---: |');
  for (const q of evals.questions.slice(0, limits.maxItems)) {
    lines.push(
      `| ${tableCode(q.id)} | ${q.change} | ${rank(q.rank.base)} → ${rank(q.rank.head)} | ${hit(q.hitAt3.base)} → ${hit(q.hitAt3.head)} | ${number(q.tokens.base)} → ${number(q.tokens.head)} (${signed(q.tokens.delta)}) |`,
    );
  }
  const left = evals.questions.length - limits.maxItems;
  if (left > 0) lines.push('', `… and ${left} more changed questions.${limits.moreHint === '' ? '' : ` ${limits.moreHint}`}`);
  if (evals.unchanged > 0) lines.push('', `${evals.unchanged} ${evals.unchanged === 1 ? 'question' : 'questions'} unchanged.`);
  return lines.join('\n');
}

function joinItems(items: readonly Item[]): string {
  let text = '';
  items.forEach((item, index) => {
    if (index > 0) text += item.kind === 'line' && items[index - 1]!.kind === 'line' ? '\n' : '\n\n';
    text += item.text;
  });
  return text;
}

function sideLabel(side: DiffSide): string {
  return `${code(side.label)} (${side.kind})`;
}

function summaryLine(diff: KnowledgeDiff): string {
  const { summary } = diff;
  const parts: string[] = [];
  const add = (n: number, one: string, many = `${one}`): void => {
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  };
  add(summary.changed, 'changed');
  add(summary.added, 'added');
  add(summary.removed, 'removed');
  add(summary.moved, 'moved');
  add(summary.visibility, 'visibility change', 'visibility changes');
  const subjects = parts.length > 0 ? `Subjects: ${parts.join(', ')}. ` : 'No subject changed. ';
  const tokens = summary.tokens;
  const k = diff.knowledge.tokens;
  return `${subjects}Listed subjects: ${fromTo(tokens.base, tokens.head, tokens.delta)} tokens. \`<knowledge>\`: ${fromTo(k.base, k.head, k.delta)} tokens.`;
}

/** The tokens table: the `<knowledge>` section, each profile and each topic that changed; null when nothing did. */
function tokenTable(diff: KnowledgeDiff): string | null {
  const rows: string[] = [];
  const row = (label: string, tokens: { base: number | null; head: number | null; delta: number }, note = ''): void => {
    rows.push(`| ${label}${note} | ${tokens.base === null ? '–' : number(tokens.base)} | ${tokens.head === null ? '–' : number(tokens.head)} | ${signed(tokens.delta)} |`);
  };
  if (diff.knowledge.tokens.delta !== 0 || diff.knowledge.change !== null) row('`<knowledge>`', diff.knowledge.tokens);
  for (const p of diff.profiles) if (p.status !== 'unchanged') row(`profile ${tableCode(p.name)}`, p.tokens, statusNote(p.status));
  for (const t of diff.topics) if (t.status !== 'unchanged') row(`topic ${tableCode(t.id)}`, t.tokens, statusNote(t.status));
  if (rows.length === 0) return null;
  return ['| | base | head | change |', '| --- | ---: | ---: | ---: |', ...rows].join('\n');
}

function statusNote(status: string): string {
  return status === 'added' || status === 'removed' ? ` (${status})` : '';
}

function knowledgeItem(label: string, htmlLabel: string, delta: KnowledgeDelta, limits: Required<DiffMarkdownOptions>): Item {
  const t = delta.tokens;
  return (
    patchItem(`${htmlLabel}: ${fromTo(t.base, t.head, t.delta)} tokens`, delta.change!, limits) ?? { kind: 'line', text: `- ${label}: ${fromTo(t.base, t.head, t.delta)} tokens` }
  );
}

function movedItem(moved: MovedSubject, limits: Required<DiffMarkdownOptions>): Item {
  const tokens = moved.tokens.delta === 0 ? '' : `, ${fromTo(moved.tokens.base, moved.tokens.head, moved.tokens.delta)} tokens`;
  if (moved.change === null) return { kind: 'line', text: `- ${ref(moved.from)} → ${ref(moved.to)}${tokens}` };
  const similar = `moved and changed (${Math.floor(moved.similarity * 100)} % similar)`;
  const html = `${htmlRef(moved.from)} → ${htmlRef(moved.to)}: ${similar}${tokens}`;
  return patchItem(html, moved.change, limits) ?? { kind: 'line', text: `- ${ref(moved.from)} → ${ref(moved.to)}: ${similar}${tokens}, ${skippedChange(moved.change)}` };
}

function changedItem(changed: ChangedSubject, limits: Required<DiffMarkdownOptions>): Item {
  const t = changed.tokens;
  const flags = (['hidden', 'disabled', 'learned'] as const).filter((flag) => changed[flag]);
  const note = flags.length > 0 ? ` (${flags.join(', ')})` : '';
  const tokens = `${fromTo(t.base, t.head, t.delta)} tokens`;
  return patchItem(`${htmlRef(changed)}${note}: ${tokens}`, changed.change, limits) ?? { kind: 'line', text: `- ${ref(changed)}${note}: ${skippedChange(changed.change)}` };
}

function visibilityItem(change: VisibilityChange): Item {
  const words = change.changes.map(({ flag, to }) => {
    if (flag === 'learned') return to ? 'now learned (pre-loaded)' : 'no longer learned';
    return to ? `now ${flag}` : `no longer ${flag}`;
  });
  return { kind: 'line', text: `- ${ref(change)}: ${words.join(', ')}` };
}

/** A line diff in `<details>` under `summary` (HTML); null for a change without lines (a skipped file). */
function patchItem(summary: string, change: ContentChange, limits: Required<DiffMarkdownOptions>): Item | null {
  if (change.type !== 'lines') return null;
  const lines = change.patch.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const shown: string[] = [];
  let length = 0;
  for (const line of lines) {
    const cut = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)} …` : line;
    if (shown.length >= limits.maxPatchLines || length + cut.length > MAX_PATCH_LENGTH) break;
    shown.push(cut);
    length += cut.length + 1;
  }
  const counts = `${change.additions} ${change.additions === 1 ? 'line' : 'lines'} added, ${change.deletions} removed`;
  const body = shown.join('\n');
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(body) + 1));
  const left = lines.length - shown.length;
  const open = lines.length <= limits.foldLines ? ' open' : '';
  const parts = [`<details${open}><summary>${summary} (${counts})</summary>`, '', `${fence}diff\n${body}\n${fence}`];
  if (left > 0) parts.push('', `… ${left} more patch ${left === 1 ? 'line' : 'lines'} not shown.`);
  parts.push('', '</details>');
  return { kind: 'block', text: parts.join('\n') };
}

function skippedChange(change: ContentChange): string {
  if (change.type !== 'skipped') return 'changed';
  const what = (s: { skipped: string | null }): string | null =>
    s.skipped === 'binary' ? 'binary file' : s.skipped === 'too-large' ? 'file over the size limit' : s.skipped === 'unreadable' ? 'unreadable file' : null;
  const base = what(change.base);
  const head = what(change.head);
  const sizes = `${number(change.base.bytes)} → ${number(change.head.bytes)} bytes`;
  if (base !== null && base === head) return `${base} changed (${sizes})`;
  return `${base ?? 'text file'} became a ${head ?? 'text file'} (${sizes}; no line diff)`;
}

function describeSubject(s: DiffSubject): string {
  const parts = [tokenCount(s.tokens)];
  if (s.skipped === 'binary') parts.push(`binary file, ${number(s.bytes)} bytes`);
  if (s.skipped === 'too-large') parts.push(`over the size limit, ${number(s.bytes)} bytes`);
  if (s.skipped === 'unreadable') parts.push('unreadable');
  if (s.hidden) parts.push('hidden');
  if (s.disabled) parts.push('disabled');
  if (s.learned) parts.push('learned');
  return parts.join(', ');
}

function tokenCount(n: number): string {
  return `${number(n)} ${n === 1 ? 'token' : 'tokens'}`;
}

function fromTo(base: number | null, head: number | null, delta: number): string {
  return `${base === null ? 'none' : number(base)} → ${head === null ? 'none' : number(head)} (${signed(delta)})`;
}

function number(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function signed(n: number): string {
  return n > 0 ? `+${number(n)}` : n < 0 ? `-${number(-n)}` : '±0';
}

/** `topic/slug` as inline code. */
function ref(subject: SubjectRef): string {
  return code(`${subject.topic}/${subject.slug}`);
}

function htmlRef(subject: SubjectRef): string {
  return `<code>${escapeHtml(`${subject.topic}/${subject.slug}`)}</code>`;
}

/** Inline code that holds any text: the delimiter is longer than any backtick run inside. */
function code(text: string): string {
  const ticks = '`'.repeat(longestBacktickRun(text) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text}${pad}${ticks}`;
}

/** Inline code inside a table cell, where `|` ends the cell even in code. */
function tableCode(text: string): string {
  return code(text).replace(/\|/g, '\\|');
}

function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return longest;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
