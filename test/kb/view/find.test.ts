/**
 * `find` (content/reference/cli/find.md) in the core: ranking (exact title or name first, then
 * score, topic order and slug), limits, the topic filter, the text and the tool's arguments; and,
 * for any knowledge base, results that are deterministic, never hidden or disabled, and exactly
 * those the page's rule gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, compareStrings, DEFAULT_FIND_LIMIT, findEntriesOf, parseFindArguments, rankSubjects, renderFindResults, type FindEntry } from '../../../src/kb/index.ts';
import { keywordsOf } from '../../../src/kb/summaries/keywords.ts';
import { runFind, type FindResult } from '../../../src/kb/view/find.ts';
import { openTree } from '../../helpers/open-tree.ts';

/** An entry with keywords as its title's words unless given. */
function entry(topic: string, slug: string, fields: Partial<FindEntry> = {}): FindEntry {
  const title = fields.title ?? slug.slice(slug.lastIndexOf('/') + 1);
  return { topic, slug, title, summary: '', keywords: keywordsOf(title), confidence: 1, ...fields };
}

/** A result as rankSubjects gives it. */
function result(e: FindEntry, fields: { exact?: boolean; overlap: number; score: number }): FindResult {
  return { topic: e.topic, slug: e.slug, title: e.title, summary: e.summary, exact: fields.exact ?? false, overlap: fields.overlap, confidence: e.confidence, score: fields.score };
}

const deploy = entry('guide', 'deploy', { title: 'Deploying', summary: 'How we ship.', keywords: ['deploying', 'ship', 'release', 'rollback'] });
const rollback = entry('guide', 'ops/rollback', { title: 'Rolling back', keywords: ['rolling', 'back', 'rollback', 'release'] });
const release = entry('guide', 'release-notes', { title: 'Release notes', keywords: ['release', 'notes'] });
const opsRelease = entry('ops', 'releasing', { title: 'Releasing services', keywords: ['releasing', 'services', 'release'] });
const learning = entry('ops', 'pattern/learn-1', { title: 'Use the release checklist', keywords: ['use', 'release', 'checklist', 'rollback'], confidence: 0.5 });
const ENTRIES = [deploy, release, rollback, learning, opsRelease];

describe('rankSubjects', () => {
  it('ranks by 0.7 × overlap + 0.3 × confidence, and leaves out subjects that share no keyword', () => {
    expect(rankSubjects(ENTRIES, 'release rollback', { limit: 5 })).toEqual([
      result(deploy, { overlap: 1, score: 1 }),
      result(rollback, { overlap: 1, score: 1 }),
      result(learning, { overlap: 1, score: 0.85 }),
      result(release, { overlap: 0.5, score: 0.65 }),
      result(opsRelease, { overlap: 0.5, score: 0.65 }),
    ]);
    expect(rankSubjects(ENTRIES, 'services', { limit: 5 })).toEqual([result(opsRelease, { overlap: 1, score: 1 })]);
  });

  it('breaks ties by topic config order, then by slug', () => {
    expect(rankSubjects(ENTRIES, 'release', { limit: 10 }).map((r) => `${r.topic}/${r.slug} ${r.score}`)).toEqual([
      'guide/deploy 1',
      'guide/ops/rollback 1',
      'guide/release-notes 1',
      'ops/releasing 1',
      'ops/pattern/learn-1 0.85',
    ]);
  });

  it('puts a subject whose title or last slug segment is the whole query (any case, trimmed) first, even with a lower score', () => {
    expect(rankSubjects(ENTRIES, '  RELEASE notes ', { limit: 3 }).map((r) => [`${r.topic}/${r.slug}`, r.exact, r.score])).toEqual([
      ['guide/release-notes', true, 1],
      ['guide/deploy', false, 0.65],
      ['guide/ops/rollback', false, 0.65],
    ]);
    expect(rankSubjects(ENTRIES, 'Learn-1', { limit: 2 }).map((r) => [`${r.topic}/${r.slug}`, r.exact, r.overlap, r.score])).toEqual([['ops/pattern/learn-1', true, 0, 0.15]]);
  });

  it('finds by exact name a query that has no keyword at all', () => {
    const ls = entry('common', 'ls', { title: 'ls', keywords: [] });
    const lsblk = entry('common', 'lsblk', { title: 'lsblk', keywords: ['lsblk'] });
    expect(keywordsOf('ls')).toEqual([]);
    expect(rankSubjects([ls, lsblk], 'ls', { limit: 5 })).toEqual([result(ls, { exact: true, overlap: 0, score: 0.3 })]);
    expect(rankSubjects([ls, lsblk], 'the', { limit: 5 })).toEqual([]);
    expect(rankSubjects([ls, lsblk], '', { limit: 5 })).toEqual([]);
  });

  it('returns at most limit subjects, the best ones', () => {
    expect(rankSubjects(ENTRIES, 'release', { limit: 2 }).map((r) => r.slug)).toEqual(['deploy', 'ops/rollback']);
    expect(rankSubjects(ENTRIES, 'release', { limit: 1 }).map((r) => r.slug)).toEqual(['deploy']);
  });

  it('keeps one topic only when asked, still in its own order', () => {
    expect(rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'ops' }).map((r) => r.slug)).toEqual(['releasing', 'pattern/learn-1']);
    expect(rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'nothing' })).toEqual([]);
  });

  it('rounds overlap and score to 4 decimals', () => {
    const [first] = rankSubjects([entry('t', 'a', { keywords: ['alpha'] })], 'alpha beta gamma', { limit: 1 });
    expect([first!.overlap, first!.score]).toEqual([0.3333, 0.5333]);
  });
});

describe('runFind', () => {
  const topics = [
    { id: 'guide', title: 'The Guide' },
    { id: 'ops', title: undefined },
  ];

  it('resolves the topic as learn does: by id, or by title in any case', () => {
    expect(runFind(ENTRIES, topics, { query: 'release', limit: 5, topic: 'the guide' })).toEqual({
      ok: true,
      results: rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'guide' }),
    });
    expect(runFind(ENTRIES, topics, { query: 'release', limit: 5, topic: 'ops' })).toEqual({ ok: true, results: rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'ops' }) });
  });

  it("answers an unknown topic with the learn tool's error", () => {
    expect(runFind(ENTRIES, topics, { query: 'release', limit: 5, topic: 'x' })).toEqual({ ok: false, message: 'Unknown topic "x". Valid topics: guide (The Guide), ops.' });
    expect(runFind([], [], { query: 'release', limit: 5, topic: 'x' })).toEqual({ ok: false, message: 'Unknown topic "x". There are no topics.' });
  });
});

describe('renderFindResults', () => {
  it('writes one line per subject: topic/slug, the title in bold, and the summary on one line when there is one', () => {
    const many = entry('guide', 'many', { title: 'Many lines', summary: 'First line.\nSecond   line.', keywords: ['release', 'rollback'] });
    expect(renderFindResults(rankSubjects([...ENTRIES, many], 'release rollback', { limit: 3 }))).toBe(
      ['- guide/deploy (**Deploying**): How we ship.', '- guide/many (**Many lines**): First line. Second line.', '- guide/ops/rollback (**Rolling back**)'].join('\n'),
    );
  });

  it('writes nothing for no result', () => {
    expect(renderFindResults([])).toBe('');
  });
});

describe('parseFindArguments', () => {
  const usage = 'Call find with {"query": "<words>"}, and optionally "limit" (a whole number, 1 or more; default 5) and "topic" (a topic id or title).';

  it('takes a query, and a limit and a topic when given (null counts as absent)', () => {
    expect(parseFindArguments({ query: 'deploy' })).toEqual({ ok: true, value: { query: 'deploy', limit: DEFAULT_FIND_LIMIT, topic: undefined } });
    expect(parseFindArguments({ query: 'deploy', limit: 2, topic: 'ops' })).toEqual({ ok: true, value: { query: 'deploy', limit: 2, topic: 'ops' } });
    expect(parseFindArguments({ query: '', limit: null, topic: null })).toEqual({ ok: true, value: { query: '', limit: 5, topic: undefined } });
  });

  it('explains every wrong argument', () => {
    expect(parseFindArguments('deploy')).toEqual({ ok: false, message: `Invalid arguments: expected an object. ${usage}` });
    expect(parseFindArguments([])).toEqual({ ok: false, message: `Invalid arguments: expected an object. ${usage}` });
    expect(parseFindArguments({})).toEqual({ ok: false, message: `Invalid arguments: "query" must be a string and is required. ${usage}` });
    expect(parseFindArguments({ query: 3 })).toEqual({ ok: false, message: `Invalid arguments: "query" must be a string. ${usage}` });
    expect(parseFindArguments({ query: 'x', limit: 0 })).toEqual({ ok: false, message: `Invalid arguments: "limit" must be a whole number, 1 or more (got 0). ${usage}` });
    expect(parseFindArguments({ query: 'x', limit: 2.5 })).toEqual({ ok: false, message: `Invalid arguments: "limit" must be a whole number, 1 or more (got 2.5). ${usage}` });
    expect(parseFindArguments({ query: 'x', limit: '3' })).toEqual({ ok: false, message: `Invalid arguments: "limit" must be a whole number, 1 or more (got "3"). ${usage}` });
    expect(parseFindArguments({ query: 'x', topic: 1 })).toEqual({ ok: false, message: `Invalid arguments: "topic" must be a string. ${usage}` });
    expect(parseFindArguments({ query: 'x', subjects: 'y', max: 1 })).toEqual({ ok: false, message: `Invalid arguments: unknown argument "subjects", "max". ${usage}` });
  });
});

describe('over a catalog', () => {
  it('never finds a hidden or disabled subject, not even by its exact name', async () => {
    const { kb } = openTree('[kb.topic.notes]\nsubjects = "notes"\ndisabled = ["drafts/*"]\n', {
      'notes/deploy.md': '# Deploy\n\nRelease steps.\n',
      'notes/.release.md': '# Release\n\nRelease secrets.\n',
      'notes/drafts/release.md': '# Release\n\nRelease draft.\n',
    });
    const { catalog } = await buildCatalog(kb);
    expect(rankSubjects(findEntriesOf(catalog), 'release', { limit: 10 }).map((r) => r.slug)).toEqual(['deploy']);
  });
});

/** The rule of content/reference/cli/find.md spelled out: every listed subject scored, the matching ones sorted, the first `limit`. */
function specRanking(entries: readonly FindEntry[], query: string, limit: number): string[] {
  const words = keywordsOf(query);
  const topics = [...new Set(entries.map((e) => e.topic))];
  return entries
    .map((e) => {
      const overlap = words.length === 0 ? 0 : words.filter((w) => e.keywords.includes(w)).length / words.length;
      const name = e.slug.split('/').pop()!;
      const exact = query.trim() !== '' && [e.title.toLowerCase(), name.toLowerCase()].includes(query.trim().toLowerCase());
      return { e, exact, overlap, score: Math.round((0.7 * overlap + 0.3 * e.confidence) * 1e4) / 1e4 };
    })
    .filter((r) => r.exact || r.overlap > 0)
    .sort((a, b) => Number(b.exact) - Number(a.exact) || b.score - a.score || topics.indexOf(a.e.topic) - topics.indexOf(b.e.topic) || compareStrings(a.e.slug, b.e.slug))
    .slice(0, limit)
    .map((r) => `${r.e.topic}/${r.e.slug}`);
}

describe('for any knowledge base and query', () => {
  const word = fc.constantFrom('alpha', 'beta', 'gamma', 'delta', 'the', 'of', 'Alpha');
  const name = fc.tuple(fc.constantFrom('', '', '.'), word, fc.constantFrom('', '-x')).map(([dot, w, suffix]) => `${dot}${w}${suffix}`);
  const file = fc.tuple(fc.constantFrom('a', 'b'), fc.array(name, { minLength: 1, maxLength: 2 }), fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 3 }));
  const world = fc.record({
    files: fc.uniqueArray(file, { minLength: 1, maxLength: 10, selector: ([topic, parts]) => `${topic}/${parts.join('/').toLowerCase()}` }),
    disabled: fc.subarray(['alpha', 'beta*', '.gamma', '**/delta', 'the-x']),
    queries: fc.array(
      fc.oneof(
        word,
        fc.array(word, { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
      ),
      { minLength: 1, maxLength: 4 },
    ),
    limit: fc.integer({ min: 1, max: 6 }),
  });

  it('gives deterministic results: never hidden or disabled, exactly those of the rule', async () => {
    await fc.assert(
      fc.asyncProperty(world, async ({ files, disabled, queries, limit }) => {
        const toml = ['a', 'b'].map((t) => `[kb.topic.${t}]\nsubjects = "${t}"\ndisabled = ${JSON.stringify(disabled)}\n`).join('\n');
        const tree: Record<string, string> = {};
        for (const [topic, parts, title, body] of files) {
          const relative = `${topic}/${parts.join('/')}.md`;
          if (Object.keys(tree).some((p) => p.startsWith(`${relative.slice(0, -3)}/`) || relative.startsWith(`${p.slice(0, -3)}/`))) continue;
          tree[relative] = `# ${title.join(' ')}\n\n${body.join(' ')}.\n`;
        }
        const { kb } = openTree(toml, tree);
        const { catalog } = await buildCatalog(kb);
        const again = await buildCatalog(openTree(toml, tree).kb);
        const listed = new Set(catalog.topics.flatMap((t) => t.subjects.filter((s) => !s.hidden).map((s) => `${t.id}/${s.slug}`)));
        const entries = findEntriesOf(catalog);
        expect(entries.map((e) => `${e.topic}/${e.slug}`)).toEqual([...listed]);
        for (const query of queries) {
          const found = rankSubjects(entries, query, { limit });
          expect(rankSubjects(findEntriesOf(again.catalog), query, { limit })).toEqual(found);
          for (const r of found) expect(listed.has(`${r.topic}/${r.slug}`), `${r.topic}/${r.slug} is listed`).toBe(true);
          expect(found.map((r) => `${r.topic}/${r.slug}`)).toEqual(specRanking(entries, query, limit));
        }
      }),
      { numRuns: 40 },
    );
  });
});
