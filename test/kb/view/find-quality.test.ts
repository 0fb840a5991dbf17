/**
 * How well `find` ranks (content/reference/cli/find.md): the query set of
 * test/fixtures/find-queries.json (queries as people write them, each with the subjects that
 * answer it) must put an expected subject among the first three — the guide queries on the
 * bundled guide, the tldr ones on a sample of the tldr pages (npm run bench:find runs them on the
 * whole corpus and prints hit-at-3 and mean reciprocal rank) — and a skills-shaped knowledge base
 * must answer "fill a pdf form" with the pdf skill's form guide and form-filling script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, findEntriesOf, loadConfig, openKnowledgeBase, rankSubjects, readConfigFiles, type FindEntry } from '../../../src/kb/index.ts';
import { FIXTURES } from '../../helpers/fixtures.ts';

interface QuerySet {
  queries: { corpus: 'guide' | 'tldr'; query: string; expected: string[] }[];
}

const SET = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'find-queries.json'), 'utf8')) as QuerySet;
const ROOT = path.resolve(FIXTURES, '..', '..');

async function entriesOf(configFile: string): Promise<FindEntry[]> {
  const { config, diagnostics } = loadConfig(readConfigFiles([configFile], ROOT).configTexts);
  if (!config) throw new Error(`config did not load: ${JSON.stringify(diagnostics)}`);
  return findEntriesOf((await buildCatalog(openKnowledgeBase(config))).catalog);
}

/** The first three subjects found, as topic/slug. */
function firstThree(entries: readonly FindEntry[], query: string): string[] {
  return rankSubjects(entries, query, { limit: 3 }).map((r) => `${r.topic}/${r.slug}`);
}

const corpora: Record<'guide' | 'tldr', FindEntry[]> = { guide: [], tldr: [] };

beforeAll(async () => {
  [corpora.guide, corpora.tldr] = await Promise.all([entriesOf('content/kb.toml'), entriesOf('test/fixtures/tldr-sample/kb.toml')]);
});

describe('the query set', () => {
  it('has at least 30 queries, each with subjects that exist', () => {
    expect(SET.queries.length).toBeGreaterThanOrEqual(30);
    for (const { corpus, query, expected } of SET.queries) {
      const known = new Set(corpora[corpus].map((e) => `${e.topic}/${e.slug}`));
      expect(expected.length, query).toBeGreaterThan(0);
      for (const subject of expected) expect(known.has(subject), `${query} → ${subject}`).toBe(true);
    }
  });

  it.each(SET.queries.map((q) => [q.corpus, q.query, q.expected] as const))('%s: %s', (corpus, query, expected) => {
    const found = firstThree(corpora[corpus], query);
    expect(
      found.some((subject) => expected.includes(subject)),
      `${JSON.stringify(found)} holds one of ${JSON.stringify(expected)}`,
    ).toBe(true);
  });
});

describe('a skills-shaped knowledge base', () => {
  it('answers "fill a pdf form" with the form guide and the form-filling script first, before skills that only mention filling or forms', async () => {
    const entries = await entriesOf('test/fixtures/skills-shaped/kb.toml');
    const found = firstThree(entries, 'fill a pdf form');
    expect(found.slice(0, 2).sort()).toEqual(['skills/pdf/forms', 'skills/pdf/scripts/fill_fillable_fields']);
    expect(found).not.toContain('skills/canvas-design/SKILL');
  });
});
