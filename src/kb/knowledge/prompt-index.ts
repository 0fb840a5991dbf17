/**
 * The compact index of the `<knowledge>` section (content/agents/knowledge-section.md, "The
 * index of subjects"): with `[kb.prompt] index = true`, the subjects an agent can learn, as
 * `topic/slug` and a one-line summary, most useful first, within a token budget, and how many
 * were left out. Pure: the token counter is given.
 */

/** A subject the index may list. */
export interface IndexSubject {
  topic: string;
  slug: string;
  /** Its summary (content/agents/endpoints.md, "Summaries"); `''` when it has none. */
  summary: string;
}

/** A listable topic's subjects for the index: its visible subjects that are not pre-loaded, in slug order. */
export interface IndexTopic {
  id: string;
  subjects: readonly { slug: string; summary: string }[];
}

/** The index's first line. */
const HEADING = 'Subjects you can learn, most useful first (topic/slug: summary):';
/** A summary in the index is its first sentence, cut at a word boundary to at most this many characters. */
const SUMMARY_CHARACTERS = 120;
/** Index lines counted together (see {@link renderPromptIndex}). */
const LINES_PER_CHUNK = 64;

/**
 * The subjects in the order the index lists them (content/reference/decisions.md): a topic's
 * subjects nearest its folder's top first (overviews, a skill's SKILL.md), then in slug order;
 * topics take turns in config order, so that every topic is seen before any topic's deeper
 * subjects fill the budget.
 */
export function orderIndexSubjects(topics: readonly IndexTopic[]): IndexSubject[] {
  const queues = topics.map((topic) =>
    topic.subjects
      .map((s, order) => ({ topic: topic.id, slug: s.slug, summary: s.summary, depth: s.slug.split('/').length, order }))
      .sort((a, b) => a.depth - b.depth || a.order - b.order),
  );
  const out: IndexSubject[] = [];
  for (let round = 0; queues.some((q) => round < q.length); round++) {
    for (const queue of queues) {
      const next = queue[round];
      if (next) out.push({ topic: next.topic, slug: next.slug, summary: next.summary });
    }
  }
  return out;
}

/** A summary on one line: its first sentence, at most {@link SUMMARY_CHARACTERS} characters (cut at a space, with `…`). */
export function oneLineSummary(summary: string): string {
  const flat = summary.replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?= |$)/.exec(flat)?.[0] ?? flat;
  if (sentence.length <= SUMMARY_CHARACTERS) return sentence;
  const cut = sentence.slice(0, SUMMARY_CHARACTERS - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > 0 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

/**
 * The index text: its heading, a line `- topic/slug: summary` (`- topic/slug` without a summary)
 * per subject in the order given, as many as fit in `budget` tokens (counted by `count` on the
 * whole text, heading and last line included), and, when some were left out, the line
 * `… and <n> more: use learn with a topic to list them.` `''` when there is no subject, or when
 * the budget cannot hold the heading and that last line.
 */
export async function renderPromptIndex(subjects: readonly IndexSubject[], budget: number, count: (text: string) => Promise<number>): Promise<string> {
  if (subjects.length === 0) return '';
  const lines = subjects.map((s) => {
    const summary = oneLineSummary(s.summary);
    return `- ${s.topic}/${s.slug}${summary === '' ? '' : `: ${summary}`}`;
  });
  const more = (left: number): string => `… and ${left} more: use learn with a topic to list them.`;
  const text = (kept: number): string => [HEADING, '', ...lines.slice(0, kept), ...(kept < lines.length ? [more(lines.length - kept)] : [])].join('\n');
  // Line by line, the counts add up to about the whole text's; the whole text is then counted, and lines dropped until it fits.
  let kept = 0;
  let used = (await count(`${HEADING}\n\n`)) + (await count(more(lines.length)));
  // Lines are asked for a chunk at a time: a counter in another thread answers a chunk in one exchange.
  for (let fits = true; fits && kept < lines.length;) {
    const counts = await Promise.all(lines.slice(kept, kept + LINES_PER_CHUNK).map((line) => count(`${line}\n`)));
    for (const lineTokens of counts) {
      fits = used + lineTokens <= budget;
      if (!fits) break;
      used += lineTokens;
      kept++;
    }
  }
  while (kept > 0 && (await count(text(kept))) > budget) kept--;
  if (kept === 0 && (await count(text(0))) > budget) return '';
  return text(kept);
}
