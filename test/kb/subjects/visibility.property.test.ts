/**
 * Property-based tests of visibility on real trees (content/guide/concepts/hidden-subjects.md,
 * disabled-subjects.md and content/reference/patterns.md): what `learn` lists and loads from an
 * opened knowledge base, for generated folders with hidden components, odd characters, nesting,
 * and generated `learned` / `disabled` entries.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadConfig, openKnowledgeBase, slugOf } from '../../../src/kb/index.ts';
import { noMatchMessage } from '../../../src/kb/knowledge/learn.ts';
import { learnLocally } from '../../helpers/local-learn.ts';
import { makeTree } from '../../helpers/temp-tree.ts';

const component = fc
  .tuple(
    fc.constantFrom('', '', '.', '..'),
    fc.string({ unit: fc.constantFrom('a', 'b', 'B', '1', '-', '_', ' ', '~', '+', '.', 'é', '中'), minLength: 1, maxLength: 3 }),
    fc.constantFrom('', '.md', '.toml', '.txt', '.MD'),
  )
  .map(([prefix, body, ext]) => prefix + body + ext)
  .filter((name) => name !== '.' && name !== '..');

/** File paths that can coexist on disk (no file is also a folder of another). */
const filePaths = fc
  .uniqueArray(
    fc.array(component, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
    { minLength: 1, maxLength: 10 },
  )
  .filter((ps) => ps.every((p) => ps.every((q) => !q.startsWith(`${p}/`))));

const GLOBS = ['**', '*', '*/*', '**/*', 'a*', '*a*', '?', '[ab]*', '{a,b}/**', '*/**', '.*', '**/.*', 'B/**'];

const world = filePaths.chain((paths) => {
  const slugs = [...new Set(paths.map((p) => slugOf(p).slug))];
  // picomatch reads a leading `./` or `../` in a pattern as a path prefix, not as a folder name.
  const folders = [...new Set(slugs.map((s) => s.split('/')[0]!))].filter((f) => f !== '.' && f !== '..');
  return fc.record({
    paths: fc.constant(paths),
    disabledExact: fc.subarray(slugs),
    disabledFolders: fc.subarray(folders, { maxLength: Math.min(1, folders.length) }),
    learned: fc.subarray([...slugs, '*', '**/a*']),
    patterns: fc.array(fc.constantFrom(...GLOBS, ...folders.map((f) => `${f}/**`), ...folders.map((f) => `.${f}*`)), { minLength: 1, maxLength: 4 }),
  });
});

/** Builds the tree and opens its knowledge base; every file holds a unique marker. */
function open(w: { paths: string[]; disabledExact: string[]; disabledFolders: string[]; learned: string[] }) {
  const markers = new Map(w.paths.map((p, i) => [`<<C${i}>>`, p]));
  const disabled = [...w.disabledExact, ...w.disabledFolders.map((f) => `${f}/**`)];
  const toml = `[kb.topic.t]\nsubjects = "t"\nlearned = ${JSON.stringify(w.learned)}\ndisabled = ${JSON.stringify(disabled)}\n`;
  const entries: Record<string, string> = { 'kb.toml': toml };
  for (const [marker, p] of markers) entries[`t/${p}`] = `${marker}\n`;
  const root = makeTree(entries);
  const { config, diagnostics } = loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]);
  if (!config) throw new Error(JSON.stringify(diagnostics));
  const kb = openKnowledgeBase(config);
  /** Slugs whose content appears in a result text. */
  const slugsIn = (text: string): string[] => [...text.matchAll(/<<C\d+>>/g)].map((m) => slugOf(markers.get(m[0])!).slug);
  const expectedDisabled = new Set(
    w.paths.map((p) => slugOf(p).slug).filter((s) => w.disabledExact.includes(s) || w.disabledFolders.some((f) => s === f || s.startsWith(`${f}/`))),
  );
  // A slug is hidden when all its files are: a visible file wins a duplicate slug
  // (content/reference/diagnostics.md, "Content errors").
  const visibleSlugs = new Set(w.paths.filter((p) => !slugOf(p).hidden).map((p) => slugOf(p).slug));
  const hidden = new Set(w.paths.map((p) => slugOf(p).slug).filter((s) => !visibleSlugs.has(s)));
  return { root, kb, slugsIn, expectedDisabled, hidden };
}

const RUNS = { numRuns: 60 };

describe('visibility on opened knowledge bases (properties)', () => {
  it('listings show every visible, enabled subject once, and nothing hidden or disabled', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { root, kb, expectedDisabled } = open(w);
        try {
          const topic = kb.topic('t')!;
          const result = await learnLocally(kb, { topic: 't', patterns: [] });
          expect(result.ok).toBe(true);
          const text = result.ok ? result.text : '';
          const listed = [...text.matchAll(/^- (.*)$/gm)].map((m) => m[1]!);
          const visible = [...new Set(w.paths.filter((p) => !slugOf(p).hidden).map((p) => slugOf(p).slug))].filter((s) => !expectedDisabled.has(s));
          expect([...listed].sort()).toEqual(visible.sort());
          for (const slug of listed) expect(expectedDisabled.has(slug), slug).toBe(false);
          for (const subject of topic.subjects) expect(expectedDisabled.has(subject.slug), subject.slug).toBe(false);
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      RUNS,
    );
  });

  it('globs never return hidden, disabled or learned subjects, and keep slug order', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { root, kb, slugsIn, expectedDisabled, hidden } = open(w);
        try {
          const topic = kb.topic('t')!;
          const allSlugs = new Set(w.paths.map((p) => slugOf(p).slug));
          for (const pattern of w.patterns) {
            const undotted = pattern
              .split('/')
              .map((c) => (c.startsWith('.') ? c.slice(1) : c))
              .join('/');
            if (allSlugs.has(pattern) || allSlugs.has(undotted)) continue;
            const result = await learnLocally(kb, { topic: 't', patterns: [pattern] });
            if (!result.ok) {
              expect(result.message).toBe(noMatchMessage('t', [pattern]));
              continue;
            }
            const slugs = slugsIn(result.text);
            expect(slugs).toEqual([...slugs].sort());
            for (const slug of slugs) {
              expect(hidden.has(slug), `${pattern} → hidden ${slug}`).toBe(false);
              expect(expectedDisabled.has(slug), `${pattern} → disabled ${slug}`).toBe(false);
              expect(topic.learnedSet.has(slug), `${pattern} → learned ${slug}`).toBe(false);
            }
          }
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      RUNS,
    );
  });

  it('hidden subjects load by exact slug; disabled subjects never load, even by exact slug', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const { root, kb, slugsIn, expectedDisabled } = open(w);
        try {
          const topic = kb.topic('t')!;
          for (const slug of new Set(w.paths.map((p) => slugOf(p).slug))) {
            const result = await learnLocally(kb, { topic: 't', patterns: [slug] });
            if (expectedDisabled.has(slug)) {
              if (result.ok) expect(slugsIn(result.text)).not.toContain(slug);
              else expect(result.message).toBe(noMatchMessage('t', [slug]));
            } else {
              expect(result.ok, slug).toBe(true);
              if (result.ok) expect(slugsIn(result.text)).toEqual([slug]);
              expect(topic.bySlug.has(slug)).toBe(true);
            }
          }
        } finally {
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      RUNS,
    );
  });

  it('is deterministic: the same tree gives the same listing and the same loads', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        const first = open(w);
        const second = open({ ...w, paths: [...w.paths].reverse() });
        try {
          const ask = async (kb: typeof first.kb, patterns: string[]) => {
            const r = await learnLocally(kb, { topic: 't', patterns });
            return r.ok ? r.text.replace(/<<C\d+>>/g, '') : r.message;
          };
          expect(await ask(second.kb, [])).toBe(await ask(first.kb, []));
          expect(await ask(second.kb, w.patterns)).toBe(await ask(first.kb, w.patterns));
          expect(second.kb.topic('t')!.learned).toEqual(first.kb.topic('t')!.learned);
        } finally {
          fs.rmSync(first.root, { recursive: true, force: true });
          fs.rmSync(second.root, { recursive: true, force: true });
        }
      }),
      { numRuns: 30 },
    );
  });
});
