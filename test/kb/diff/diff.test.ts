/**
 * The diff core without disk: snapshots written inline, `diffSnapshots` and `renderDiffMarkdown`
 * on them. What the fixtures cannot show easily: how moves are paired, a source against a build,
 * contents a build loads lazily, binary files a build cannot tell apart, and the size limits of
 * the markdown.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diffPublished, diffSnapshots, renderDiffMarkdown, subjectsToLoad, withContents, type KnowledgeSnapshot } from '../../../src/kb/index.ts';
import { diffText, textSimilarity } from '../../../src/kb/diff/diff.ts';
import { KnowledgeDiffSchema } from '../../../src/kb/diff/schema.ts';
import { publishedSnapshot, type SnapshotSubject } from '../../../src/kb/diff/snapshot.ts';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A subject with `content`; its tokens are its words. */
function subject(slug: string, content: string, more: Partial<SnapshotSubject> = {}): SnapshotSubject {
  return {
    slug,
    path: `${slug}.md`,
    hidden: false,
    disabled: false,
    learned: false,
    format: 'markdown',
    skipped: null,
    bytes: Buffer.byteLength(content),
    tokens: content.split(/\s+/).filter(Boolean).length,
    sha256: sha(content),
    fileSha256: null,
    content,
    ...more,
  };
}

/** A snapshot of topics `{ id: subjects }`, without `<knowledge>` section or profiles. */
function snapshot(label: string, topics: Record<string, SnapshotSubject[]>, kind: 'source' | 'build' = 'source'): KnowledgeSnapshot {
  return {
    side: { kind, label },
    topics: Object.entries(topics).map(([id, subjects]) => ({ id, subjects })),
    knowledge: { prompt: null, tokens: 0 },
    profiles: [],
  };
}

const LINES = Array.from({ length: 10 }, (_, i) => `Line ${i} of a subject that says something.`).join('\n');

describe('diffText', () => {
  it('is null for equal texts, else a unified patch without file headers', () => {
    expect(diffText('a\nb', 'a\nb')).toBeNull();
    expect(diffText('a\nb\nc', 'a\nB\nc')).toEqual({ type: 'lines', patch: '@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n', additions: 1, deletions: 1 });
    expect(diffText('', 'new')).toEqual({ type: 'lines', patch: '@@ -0,0 +1,1 @@\n+new\n', additions: 1, deletions: 0 });
  });
});

describe('textSimilarity', () => {
  it('is the share of characters in shared lines', () => {
    expect(textSimilarity('a\nb', 'a\nb')).toBe(1);
    expect(textSimilarity('same\nother', 'same\nthing')).toBeCloseTo((2 * 5) / (11 + 11), 5);
    expect(textSimilarity('x', 'y')).toBe(0);
    // Sizes this far apart cannot be half similar: no diff is computed.
    expect(textSimilarity('short', LINES)).toBe(0);
  });
});

describe('diffSnapshots: moves', () => {
  it('pairs the same content with a partner in the same topic first', () => {
    const base = snapshot('b', { one: [subject('old', LINES)], two: [] });
    const head = snapshot('h', { one: [subject('new', LINES)], two: [subject('copy', LINES)] });
    const diff = diffSnapshots(base, head);
    expect(diff.moved).toEqual([{ from: { topic: 'one', slug: 'old' }, to: { topic: 'one', slug: 'new' }, similarity: 1, tokens: { base: 80, head: 80, delta: 0 }, change: null }]);
    expect(diff.added.map((s) => `${s.topic}/${s.slug}`)).toEqual(['two/copy']);
    expect(diff.removed).toEqual([]);
  });

  it('pairs renamed and edited subjects of one topic, most similar first; leaves different ones added and removed', () => {
    // a–d: 2 × 410 kept characters over 410 + 425; a–c is similar too, but less.
    const edited = `${LINES}\nOne more line.`;
    const base = snapshot('b', { t: [subject('a', LINES), subject('b', 'Completely different words here.')] });
    const head = snapshot('h', { t: [subject('c', `${LINES.slice(0, 200)}\nchanged`), subject('d', edited), subject('e', 'Nothing in common at all.')] });
    const diff = diffSnapshots(base, head);
    expect(diff.moved.map((m) => [m.from.slug, m.to.slug, m.similarity])).toEqual([['a', 'd', 0.982]]);
    expect(diff.moved[0]!.change).toEqual({ type: 'lines', patch: expect.stringContaining('+One more line.\n'), additions: 1, deletions: 0 });
    expect(diff.added.map((s) => s.slug)).toEqual(['c', 'e']);
    expect(diff.removed.map((s) => s.slug)).toEqual(['b']);
  });

  it('never pairs similar content across topics', () => {
    const diff = diffSnapshots(snapshot('b', { one: [subject('a', LINES)], two: [] }), snapshot('h', { one: [], two: [subject('a', `${LINES}\nplus`)] }));
    expect([diff.moved.length, diff.added.length, diff.removed.length]).toEqual([0, 1, 1]);
  });
});

describe('diffSnapshots: sides', () => {
  it('compares a source with a build as published: hidden and disabled subjects left out', () => {
    const source = snapshot('kb.toml', { t: [subject('a', 'A'), subject('h', 'secret', { hidden: true }), subject('d', 'draft', { disabled: true })] });
    const build = snapshot('dist', { t: [subject('a', 'A')] }, 'build');
    expect(diffSnapshots(source, build).equal).toBe(true);
    expect(diffSnapshots(build, source).equal).toBe(true);
    expect(publishedSnapshot(source).topics).toEqual(build.topics);
    const sources = diffSnapshots(source, snapshot('kb.toml', { t: [subject('a', 'A')] }));
    expect(sources.removed.map((s) => [s.slug, s.hidden, s.disabled])).toEqual([
      ['d', false, true],
      ['h', true, false],
    ]);
  });

  it('needs only the contents subjectsToLoad names', () => {
    const unloaded = (s: SnapshotSubject): SnapshotSubject => ({ ...s, content: null });
    const base = snapshot('b', { t: [subject('same', 'S'), subject('edited', 'one'), subject('gone', 'G')].map(unloaded) }, 'build');
    const head = snapshot('h', { t: [subject('same', 'S'), subject('edited', 'two'), subject('new', 'N')].map(unloaded) }, 'build');
    expect(() => diffSnapshots(base, head)).toThrow('the content of "edited" was not loaded');
    expect(subjectsToLoad(base, head)).toEqual([
      { topic: 't', slug: 'edited' },
      { topic: 't', slug: 'gone' },
    ]);
    expect(subjectsToLoad(head, base)).toEqual([
      { topic: 't', slug: 'edited' },
      { topic: 't', slug: 'new' },
    ]);
    const load = (s: KnowledgeSnapshot, contents: Record<string, string>) => withContents(s, new Map([['t', new Map(Object.entries(contents))]]));
    const diff = diffSnapshots(load(base, { edited: 'one', gone: 'G' }), load(head, { edited: 'two', new: 'N' }));
    expect([diff.changed.map((c) => c.slug), diff.added.map((s) => s.slug), diff.removed.map((s) => s.slug)]).toEqual([['edited'], ['new'], ['gone']]);
  });

  it('tells binary files of one size apart by their stored sha256 where the side knows it (sources), not in builds', () => {
    const binary = (fileSha256: string | null) => subject('logo', 'Subject "logo" is a binary file and was skipped.', { skipped: 'binary', bytes: 100, fileSha256 });
    const sources = diffSnapshots(snapshot('b', { t: [binary('1'.repeat(64))] }), snapshot('h', { t: [binary('2'.repeat(64))] }));
    expect(sources.changed).toEqual([
      {
        topic: 't',
        slug: 'logo',
        tokens: { base: 9, head: 9, delta: 0 },
        change: { type: 'skipped', base: { skipped: 'binary', bytes: 100 }, head: { skipped: 'binary', bytes: 100 } },
        hidden: false,
        disabled: false,
        learned: false,
      },
    ]);
    expect(diffSnapshots(snapshot('b', { t: [binary(null)] }, 'build'), snapshot('h', { t: [binary(null)] }, 'build')).equal).toBe(true);
  });

  it('reports topics, the <knowledge> section and profiles on either side', () => {
    const base: KnowledgeSnapshot = {
      ...snapshot('b', { gone: [subject('x', 'X')] }),
      knowledge: { prompt: '<knowledge>\nold\n</knowledge>', tokens: 5 },
      profiles: [{ name: 'p', knowledge: { prompt: 'P', tokens: 1 } }],
    };
    const head: KnowledgeSnapshot = {
      ...snapshot('h', { fresh: [subject('y', 'Y y')] }),
      knowledge: { prompt: null, tokens: 0 },
      profiles: [{ name: 'q', knowledge: { prompt: 'Q', tokens: 1 } }],
    };
    const diff = diffSnapshots(base, head);
    expect(diff.topics).toEqual([
      { id: 'fresh', status: 'added', tokens: { base: null, head: 2, delta: 2 }, subjects: { base: 0, head: 1 } },
      { id: 'gone', status: 'removed', tokens: { base: 1, head: null, delta: -1 }, subjects: { base: 1, head: 0 } },
    ]);
    expect(diff.knowledge).toEqual({
      tokens: { base: 5, head: null, delta: -5 },
      change: { type: 'lines', patch: '@@ -1,3 +0,0 @@\n-<knowledge>\n-old\n-</knowledge>\n', additions: 0, deletions: 3 },
    });
    expect(diff.profiles.map((p) => [p.name, p.status, p.tokens.delta])).toEqual([
      ['q', 'added', 1],
      ['p', 'removed', -1],
    ]);
    expect(KnowledgeDiffSchema.safeParse(diff).success).toBe(true);
  });
});

describe('renderDiffMarkdown', () => {
  it('writes odd slugs and profile names so that markdown and HTML keep them whole', () => {
    const base: KnowledgeSnapshot = { ...snapshot('b', { t: [subject('a`b', 'one')] }), profiles: [{ name: 'x|y', knowledge: { prompt: 'P', tokens: 1 } }] };
    const head: KnowledgeSnapshot = { ...snapshot('h', { t: [subject('a`b', 'two'), subject('<c>', 'C')] }), profiles: [] };
    expect(renderDiffMarkdown(diffSnapshots(base, head))).toBe(`## Knowledge diff

\`b\` (source) → \`h\` (source)

Subjects: 1 changed, 1 added. Listed subjects: 1 → 2 (+1) tokens. \`<knowledge>\`: none → none (±0) tokens.

### Tokens

| | base | head | change |
| --- | ---: | ---: | ---: |
| profile \`x\\|y\` (removed) | 1 | – | -1 |
| topic \`t\` | 1 | 2 | +1 |

### \`<knowledge>\` sections

- Profile \`x|y\`: removed (-1 tokens)

### Added

- \`t/<c>\` (1 token)

### Changed

<details open><summary><code>t/a\`b</code>: 1 → 1 (±0) tokens (1 line added, 1 removed)</summary>

\`\`\`diff
@@ -1,1 +1,1 @@
-one
+two
\`\`\`

</details>`);
  });

  it('shows at most maxItems entries per section, then "and N more"', () => {
    const head = snapshot('h', { t: ['a', 'b', 'c', 'd'].map((slug) => subject(slug, slug)) });
    expect(renderDiffMarkdown(diffSnapshots(snapshot('b', { t: [] }), head), { maxItems: 2, moreHint: 'See the build log.' })).toBe(`## Knowledge diff

\`b\` (source) → \`h\` (source)

Subjects: 4 added. Listed subjects: 0 → 4 (+4) tokens. \`<knowledge>\`: none → none (±0) tokens.

### Tokens

| | base | head | change |
| --- | ---: | ---: | ---: |
| topic \`t\` | 0 | 4 | +4 |

### Added

- \`t/a\` (1 token)
- \`t/b\` (1 token)
- … and 2 more added subjects. See the build log.`);
  });

  it('cuts a long patch and folds it', () => {
    const long = (n: number) => Array.from({ length: 30 }, (_, i) => `line ${i} v${n}`).join('\n');
    const diff = diffSnapshots(snapshot('b', { t: [subject('s', long(1))] }), snapshot('h', { t: [subject('s', long(2))] }));
    const text = renderDiffMarkdown(diff, { maxPatchLines: 3 });
    expect(text.slice(text.indexOf('### Changed'))).toBe(`### Changed

<details><summary><code>t/s</code>: 90 → 90 (±0) tokens (30 lines added, 30 removed)</summary>

\`\`\`diff
@@ -1,30 +1,30 @@
-line 0 v1
-line 1 v1
\`\`\`

… 58 more patch lines not shown.

</details>`);
  });

  it('stays under a GitHub comment for any number of changes, and says how many it left out', () => {
    const body = (v: string) => Array.from({ length: 100 }, (_, i) => `Paragraph ${i}, version ${v}: ${'words '.repeat(12)}`).join('\n');
    const many = (v: string) => Array.from({ length: 1_000 }, (_, i) => subject(`s${String(i).padStart(4, '0')}`, body(`${v}${i}`)));
    const diff = diffSnapshots(snapshot('b', { t: many('a') }), snapshot('h', { t: many('b') }));
    const text = renderDiffMarkdown(diff);
    expect(text.length).toBeLessThan(50_000);
    const shown = text.match(/<details>/g)!.length;
    expect(shown).toBeGreaterThan(0);
    expect(text.endsWith(`- … and ${1_000 - shown} more changed subjects. All of them: \`syllabus diff --json\`.`)).toBe(true);
  });
});

describe('diffPublished', () => {
  it.each([
    ['build', '/home/alice/work/site-base', 'the base build'],
    ['build', '../site-base', 'the base build'],
    ['source', '/home/alice/work/base/kb.toml', 'the base sources'],
    ['build', 'https://kb.example.com/docs/', 'https://kb.example.com/docs/'],
    ['build', 'https://alice:s3cret@kb.example.com/', 'https://kb.example.com/'],
  ] as const)('labels a %s base read from %s as %s, and the head as this preview', (kind, label, published) => {
    const diff = diffPublished(snapshot(label, { one: [] }, kind), snapshot('/home/alice/work/kb.toml', { one: [] }));
    expect({ base: diff.base, head: diff.head }).toEqual({ base: { kind, label: published }, head: { kind: 'source', label: 'this preview' } });
  });
});
