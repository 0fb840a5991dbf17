/**
 * `find` (content/reference/cli/find.md) in the core: ranking (exact title or name first, then
 * score, topic order and slug), limits, the topic filter, the text and the tool's arguments; and,
 * for any knowledge base, results that are deterministic, never hidden or disabled, and exactly
 * those the page's rule gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildCatalog, compareStrings, DEFAULT_FIND_LIMIT, findEntriesOf, parseFindArguments, rankSubjects, renderFindResults, type FindEntry } from '../../../src/kb/index.ts';
import { runFind } from '../../../src/kb/view/find.ts';
import { searchDocumentOf, searchTermsOf } from '../../../src/kb/view/search-terms.ts';
import { openTree } from '../../helpers/open-tree.ts';

/** An entry whose document is made from its fields (the title defaults to the slug's last segment). */
function entry(topic: string, slug: string, fields: { title?: string; summary?: string; headings?: string[]; body?: string; confidence?: number } = {}): FindEntry {
  const title = fields.title ?? slug.slice(slug.lastIndexOf('/') + 1);
  const summary = fields.summary ?? '';
  return {
    topic,
    slug,
    title,
    summary,
    document: searchDocumentOf({ title, slug, summary, headings: fields.headings ?? [], body: fields.body ?? '' }),
    confidence: fields.confidence ?? 1,
  };
}

const deploy = entry('guide', 'deploy', { title: 'Deploying', summary: 'How we ship a release.', body: 'Tag the release, then roll back if the checks fail.' });
const rollback = entry('guide', 'ops/rollback', { title: 'Rolling back', headings: ['When a release fails'], body: 'Roll back to the previous release.' });
const release = entry('guide', 'release-notes', { title: 'Release notes', body: 'What changed in each version.' });
const opsRelease = entry('ops', 'releasing', { title: 'Releasing services', body: 'Services are released by the pipeline.' });
const learning = entry('ops', 'pattern/learn-1', { title: 'Use the release checklist', body: 'Check the rollback plan first.', confidence: 0.5 });
const ENTRIES = [deploy, release, rollback, learning, opsRelease];

describe('rankSubjects', () => {
  it('ranks by BM25F: terms in the title and name weigh most, then summary and headings, then body', () => {
    expect(rankSubjects(ENTRIES, 'release', { limit: 10 }).map((r) => `${r.topic}/${r.slug}`)).toEqual([
      'ops/releasing',
      'guide/release-notes',
      'ops/pattern/learn-1',
      'guide/ops/rollback',
      'guide/deploy',
    ]);
  });

  it('matches words by their stems: released, releasing and release are one term', () => {
    const found = rankSubjects(ENTRIES, 'released services', { limit: 1 });
    expect(found.map((r) => [r.slug, r.overlap])).toEqual([['releasing', 1]]);
    expect(rankSubjects(ENTRIES, 'rolled', { limit: 5 }).map((r) => r.slug)).toEqual(['ops/rollback', 'deploy']);
  });

  it('gives every result its overlap (the share of the query’s terms it holds) and its score, rounded to 4 decimals', () => {
    // One subject, one term in its title (length 1, the mean): idf = ln(1 + 0.5 / 1.5), tf = 3, score = idf × 3 / (1.2 + 3).
    const [only] = rankSubjects([entry('t', 'x', { title: 'alpha' })], 'alpha beta gamma', { limit: 1 });
    expect([only!.overlap, only!.score]).toEqual([0.3333, Math.round(((Math.log(1 + 0.5 / 1.5) * 3) / 4.2) * 1e4) / 1e4]);
    expect(only!.score).toBe(0.2055);
  });

  it('scales a learning’s score by 0.7 + 0.3 × its confidence', () => {
    const plain = entry('t', 'a', { title: 'alpha' });
    const unsure = entry('t', 'b', { title: 'alpha', confidence: 0.5 });
    const [first, second] = rankSubjects([plain, unsure], 'alpha', { limit: 2 });
    expect([first!.slug, second!.slug]).toEqual(['a', 'b']);
    expect(second!.score).toBe(Math.round(first!.score * 0.85 * 1e4) / 1e4);
  });

  it('breaks ties by topic config order, then by slug', () => {
    const same = (topic: string, slug: string): FindEntry => ({ ...entry(topic, slug, { title: 'Release' }), document: entry(topic, 'x', { title: 'Release' }).document });
    const tied = [same('guide', 'b'), same('guide', 'a'), same('ops', 'a')];
    expect(rankSubjects(tied, 'release', { limit: 5 }).map((r) => `${r.topic}/${r.slug} ${r.score}`)).toEqual(['guide/a 0.0954', 'guide/b 0.0954', 'ops/a 0.0954']);
  });

  it('puts a subject whose title or last slug segment is the whole query (any case, trimmed) first, even with a lower score', () => {
    expect(rankSubjects(ENTRIES, '  ROLLING back ', { limit: 3 }).map((r) => [`${r.topic}/${r.slug}`, r.exact])).toEqual([
      ['guide/ops/rollback', true],
      ['guide/deploy', false],
    ]);
    expect(rankSubjects(ENTRIES, 'Learn-1', { limit: 2 }).map((r) => [`${r.topic}/${r.slug}`, r.exact, r.overlap])).toEqual([['ops/pattern/learn-1', true, 1]]);
  });

  it('finds by exact name a query that has no term at all', () => {
    const of = entry('common', 'of', { title: 'of' });
    const x = entry('common', 'x', { title: 'x', body: 'x marks the spot' });
    expect(searchTermsOf('of x')).toEqual([]);
    expect(rankSubjects([of, x], 'x', { limit: 5 }).map((r) => [r.slug, r.exact, r.overlap, r.score])).toEqual([['x', true, 0, 0]]);
    expect(rankSubjects([of, x], 'OF', { limit: 5 }).map((r) => r.slug)).toEqual(['of']);
    expect(rankSubjects([of, x], 'the', { limit: 5 })).toEqual([]);
    expect(rankSubjects([of, x], '', { limit: 5 })).toEqual([]);
  });

  it('returns at most limit subjects, the best ones', () => {
    expect(rankSubjects(ENTRIES, 'release', { limit: 2 }).map((r) => r.slug)).toEqual(['releasing', 'release-notes']);
    expect(rankSubjects(ENTRIES, 'release', { limit: 1 }).map((r) => r.slug)).toEqual(['releasing']);
  });

  it('keeps one topic only when asked, with the scores of the whole knowledge base', () => {
    const all = rankSubjects(ENTRIES, 'release', { limit: 10 });
    const ops = rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'ops' });
    expect(ops.map((r) => r.slug)).toEqual(['releasing', 'pattern/learn-1']);
    expect(ops).toEqual(all.filter((r) => r.topic === 'ops'));
    expect(rankSubjects(ENTRIES, 'release', { limit: 5, topic: 'nothing' })).toEqual([]);
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
    const many = entry('guide', 'many', { title: 'Many lines', summary: 'First line.\nSecond   line.' });
    expect(renderFindResults(rankSubjects([deploy, many, rollback], 'many deploying rolling', { limit: 3 }))).toBe(
      ['- guide/deploy (**Deploying**): How we ship a release.', '- guide/many (**Many lines**): First line. Second line.', '- guide/ops/rollback (**Rolling back**)'].join('\n'),
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

/**
 * The rule of content/reference/cli/find.md spelled out, BM25F term by term: every listed subject
 * scored, the matching ones sorted, the first `limit`.
 */
function specRanking(entries: readonly FindEntry[], query: string, limit: number): string[] {
  const terms = [...new Set(searchTermsOf(query))];
  const topics = [...new Set(entries.map((e) => e.topic))];
  const weights = [3, 3, 2, 1.5, 1];
  const norms = [0.3, 0.3, 0.6, 0.6, 0.75];
  const mean = [0, 1, 2, 3, 4].map((f) => entries.reduce((sum, e) => sum + e.document.lengths[f]!, 0) / entries.length);
  const whole = query.trim().toLowerCase();
  return entries
    .map((e) => {
      let score = 0;
      let matched = 0;
      for (const term of terms) {
        const counts = e.document.terms.get(term);
        if (!counts) continue;
        matched++;
        const df = entries.filter((other) => other.document.terms.has(term)).length;
        const idf = Math.log(1 + (entries.length - df + 0.5) / (df + 0.5));
        let tf = 0;
        counts.forEach((n, f) => {
          if (n > 0) tf += (weights[f]! * n) / (1 - norms[f]! + (norms[f]! * e.document.lengths[f]!) / (mean[f]! || 1));
        });
        score += (idf * tf) / (1.2 + tf);
      }
      const name = e.slug.split('/').pop()!;
      const exact = whole !== '' && [e.title.toLowerCase(), name.toLowerCase()].includes(whole);
      return { e, exact, matched, score: Math.round(score * (0.7 + 0.3 * e.confidence) * 1e4) / 1e4 };
    })
    .filter((r) => r.exact || r.matched > 0)
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
