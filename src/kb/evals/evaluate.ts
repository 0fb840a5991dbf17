/**
 * The offline evaluation (content/reference/evaluations.md): for each question, where `find`
 * ranks its expected subjects, whether the `<knowledge>` section and the topic's listing lead to
 * them, and the tokens an agent reads to reach them. No model; the same knowledge view the CLI
 * and the agent server answer through, so the figures are those of the tools agents call.
 * Deterministic: the same knowledge base and questions give the same report.
 */
import { countTokens, loadTokenizer } from '../catalog/tokens.ts';
import type { KnowledgeView } from '../view/view.ts';
import type { EvalQuestion } from './questions.ts';
import { type EvalReport, type EvaluatedQuestion, type ExpectedResult, type SectionReach, EVAL_FORMAT_VERSION } from './report-schema.ts';

/** How deep `find`'s ranking is read: an expected subject ranked lower counts as not found. */
export const EVAL_FIND_LIMIT = 10;

/** Reaches from weakest to strongest: a question shows the weakest of its expected subjects'. */
const REACH_ORDER: readonly SectionReach[] = ['none', 'topic', 'index', 'preloaded'];

/** Figures are rounded to this many decimals. */
const DECIMALS = 4;

function round(value: number): number {
  const scale = 10 ** DECIMALS;
  return Math.round(value * scale) / scale;
}

/** What a topic's listing lists: its available subjects and those already in the prompt. */
interface ParsedListing {
  available: ReadonlySet<string>;
  learned: ReadonlySet<string>;
  tokens: number;
}

/** The slugs under each heading of a listing (content/agents/learn-tool.md, "Listing a topic"). */
function parseListing(text: string): ParsedListing {
  const available = new Set<string>();
  const learned = new Set<string>();
  let into: Set<string> | undefined;
  for (const line of text.split('\n')) {
    if (line === '## Available subjects:') into = available;
    else if (line === '## Already learned (in system prompt):') into = learned;
    else if (line.startsWith('## ')) into = undefined;
    else if (into && line.startsWith('- ')) into.add(line.slice(2));
  }
  return { available, learned, tokens: countTokens(text) };
}

/** Whether the section lists a topic: its line `- <id>…` among the topics to learn, or a block of its pre-loaded subjects. */
function sectionNamesTopic(section: string, topic: string, title: string | undefined): boolean {
  const escaped = topic.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (new RegExp(`^- ${escaped}(?: \\(\\*\\*|: |$)`, 'm').test(section)) return true;
  return section.includes(`<topic "${title ?? topic}">`);
}

/**
 * Evaluates `questions` against a knowledge view. `titles` maps topic ids to titles (the section
 * names a pre-loaded topic by its title). Every question is asked of `find` with a limit of
 * {@link EVAL_FIND_LIMIT}; each expected subject's topic is listed and the subject loaded as
 * `learn` returns it. A failed call (a site that cannot be read) rejects.
 */
export async function evaluateQuestions(view: KnowledgeView, questions: readonly EvalQuestion[], titles: ReadonlyMap<string, string | undefined>): Promise<EvalReport> {
  await loadTokenizer();
  const section = (await view.prompt()) ?? '';
  const sectionTokens = countTokens(section);
  const hasIndex = section.includes('\nSubjects you can learn, most useful first (topic/slug: summary):\n');
  const listings = new Map<string, Promise<ParsedListing | undefined>>();
  const listingOf = (topic: string): Promise<ParsedListing | undefined> => {
    let listing = listings.get(topic);
    if (!listing) {
      listing = view.listing(topic).then((outcome) => (outcome.ok ? parseListing(outcome.text) : undefined));
      listings.set(topic, listing);
    }
    return listing;
  };
  const subjectTokens = new Map<string, number | null>();
  const tokensOf = async (topic: string, slug: string): Promise<number | null> => {
    const key = `${topic}/${slug}`;
    if (!subjectTokens.has(key)) {
      const outcome = await view.learn({ topic, subjects: slug });
      subjectTokens.set(key, outcome.ok ? countTokens(outcome.text) : null);
    }
    return subjectTokens.get(key)!;
  };

  const evaluated: EvaluatedQuestion[] = [];
  for (const question of questions) {
    const found = await view.find({ query: question.ask, limit: EVAL_FIND_LIMIT });
    if (!found.ok) throw new Error(`find failed for question ${JSON.stringify(question.id)}: ${found.message}`);
    const ranks = new Map(found.results.map((r, i) => [`${r.topic}/${r.slug}`, i + 1]));
    const expect: ExpectedResult[] = [];
    for (const { topic, slug } of question.expect) {
      const listing = await listingOf(topic);
      const preloaded = listing?.learned.has(slug) ?? false;
      let reach: SectionReach = 'none';
      if (preloaded) reach = 'preloaded';
      else if (hasIndex && new RegExp(`^- ${`${topic}/${slug}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?::|$)`, 'm').test(section)) reach = 'index';
      else if (sectionNamesTopic(section, topic, titles.get(topic))) reach = 'topic';
      expect.push({
        topic,
        slug,
        rank: ranks.get(`${topic}/${slug}`) ?? null,
        section: reach,
        listed: preloaded || (listing?.available.has(slug) ?? false),
        tokens: await tokensOf(topic, slug),
      });
    }
    const ranked = expect.map((e) => e.rank).filter((r): r is number => r !== null);
    const rank = ranked.length === 0 ? null : Math.min(...ranked);
    // What an agent reads: the section once, each topic's listing once, then each subject not already in the prompt.
    let tokens = sectionTokens;
    const listed = new Set<string>();
    for (const e of expect) {
      if (e.section === 'preloaded') continue;
      if (!listed.has(e.topic)) {
        listed.add(e.topic);
        tokens += (await listingOf(e.topic))?.tokens ?? 0;
      }
      tokens += e.tokens ?? 0;
    }
    evaluated.push({
      id: question.id,
      ask: question.ask,
      rank,
      hitAt1: rank === 1,
      hitAt3: rank !== null && rank <= 3,
      reciprocalRank: rank === null ? 0 : round(1 / rank),
      section: expect.reduce<SectionReach>((weakest, e) => (REACH_ORDER.indexOf(e.section) < REACH_ORDER.indexOf(weakest) ? e.section : weakest), 'preloaded'),
      listed: expect.every((e) => e.listed),
      tokens,
      expect,
    });
  }
  return { version: EVAL_FORMAT_VERSION, findLimit: EVAL_FIND_LIMIT, sectionTokens, questions: evaluated, totals: totalsOf(evaluated) };
}

/** The totals of evaluated questions: the shares of hits at 1 and 3, the mean reciprocal rank and the mean tokens. */
export function totalsOf(questions: readonly EvaluatedQuestion[]): EvalReport['totals'] {
  const n = questions.length;
  const share = (count: number): number => (n === 0 ? 0 : round(count / n));
  return {
    questions: n,
    hitAt1: share(questions.filter((q) => q.hitAt1).length),
    hitAt3: share(questions.filter((q) => q.hitAt3).length),
    mrr: n === 0 ? 0 : round(questions.reduce((sum, q) => sum + q.reciprocalRank, 0) / n),
    meanTokens: n === 0 ? 0 : Math.round(questions.reduce((sum, q) => sum + q.tokens, 0) / n),
    led: share(questions.filter((q) => q.section !== 'none' && q.listed).length),
  };
}
