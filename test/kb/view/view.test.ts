/**
 * The knowledge view's own rules (src/kb/view/view.ts), over a reader written here: which
 * reader calls each answer makes, what it keeps, how it extends, and which failures become
 * outcomes. Both real readers are compared over the port in test/remote/view-adapters.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { LEARN_PARAMETERS, createKnowledgeView, type KnowledgeReader, type ReaderTopic, type SiteIndex } from '../../../src/kb/index.ts';
import { type KnowledgeExtension } from '../../../src/kb/knowledge/extension.ts';
import { type PublishedKnowledge } from '../../../src/kb/view/view.ts';

interface FakeSubject {
  slug: string;
  content: string;
  hidden?: boolean;
  learned?: boolean;
}

/** A topic `t` (title "Tee") of `subjects`, read from memory; `calls` records what was asked. */
function fakeReader(
  subjects: FakeSubject[],
  options: { published?: PublishedKnowledge; profiles?: Map<string, string[] | null>; exact?: boolean; fail?: Error; failureOf?: (error: unknown) => string | undefined } = {},
) {
  const calls: string[] = [];
  const sorted = [...subjects].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  const learned = sorted.filter((s) => s.learned).map((s) => s.slug);
  const extensions: KnowledgeExtension[] = [];
  let topics: ReaderTopic[] = [];
  const makeTopics = () => {
    topics = [
      {
        id: 't',
        title: 'Tee',
        introduction: 'About tees.',
        description: undefined,
        visible: async () => (calls.push('visible'), sorted.filter((s) => !s.hidden).map((s) => s.slug)),
        learnedSet: async () => (calls.push('learnedSet'), new Set(learned)),
        learned: async () => (calls.push('learned'), learned),
        preloaded: async () => (calls.push('preloaded'), learned.map((slug) => ({ slug, content: sorted.find((s) => s.slug === slug)!.content }))),
        subjects: async (patterns) => {
          calls.push(`subjects ${patterns.join(' ')}`);
          if (options.fail) throw options.fail;
          const list = sorted.map((s) => ({ slug: s.slug, hidden: s.hidden ?? false }));
          return {
            subjects: list,
            bySlug: new Map(list.map((s) => [s.slug, s])),
            load: async (slugs) => (calls.push(`load ${slugs.join(' ')}`), slugs.map((slug) => ({ slug, content: sorted.find((s) => s.slug === slug)!.content }))),
          };
        },
        ...(options.exact
          ? {
              exact: async (pattern: string) => {
                calls.push(`exact ${pattern}`);
                const found = sorted.find((s) => s.slug === pattern);
                return found && { slug: found.slug, content: found.content };
              },
            }
          : {}),
      },
    ];
  };
  makeTopics();
  const reader: KnowledgeReader = {
    topics: async () => topics,
    offer: async () => (
      calls.push('offer'),
      {
        topics: [
          { id: 't', enable: true },
          { id: 'off', enable: false },
        ],
        profiles: options.profiles ?? new Map(),
        noProfiles: 'None here.',
      }
    ),
    published: async () => options.published,
    findData: async () => ({ entries: [], topics }),
    index: async () => ({}) as SiteIndex,
    extended(extension) {
      extensions.push(extension);
      return reader;
    },
    ...(options.failureOf ? { failureOf: options.failureOf } : {}),
  };
  return { reader, calls, extensions, changeTopics: makeTopics };
}

const SUBJECTS: FakeSubject[] = [
  { slug: 'a', content: 'Alpha' },
  { slug: 'b', content: 'Beta', learned: true },
  { slug: 'c', content: 'Gamma' },
  { slug: 'h', content: 'Hidden', hidden: true },
];

const NOTE =
  'Use the `learn` tool to consume this knowledge.\n\n(note: some topics may contain hidden subjects that are not listed via `learn`\nby default, but can be loaded manually if you are made aware of their names via\nother means, such as by reading non-hidden subjects first. This prevents\nexposing too much irrelevant knowledge upfront)';

describe('the section and the tool', () => {
  it('are computed from the topics when nothing is published, the tool without reading any content', async () => {
    const { reader, calls } = fakeReader(SUBJECTS);
    const view = createKnowledgeView(reader);
    expect(await view.tool()).toEqual({
      name: 'learn',
      description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- t (**Tee**)',
      parameters: LEARN_PARAMETERS,
    });
    expect(calls).toEqual(['visible', 'learnedSet']);
    expect(await view.prompt()).toBe(
      `<knowledge>\nThe following knowledge has been pre-loaded into your system prompt:\n\n<topic "Tee">\n\n<subject "b">\nBeta\n</subject>\n</topic>\n\nThe following knowledge topics are available to learn:\n\n- t (**Tee**): About tees.\n\n${NOTE}\n</knowledge>`,
    );
    expect(await view.tokens()).toBeGreaterThan(50);
  });

  it('are computed once per state of the knowledge base, and again when its topics change', async () => {
    const { reader, calls, changeTopics } = fakeReader(SUBJECTS);
    const view = createKnowledgeView(reader);
    await view.prompt();
    await view.prompt();
    await view.tokens();
    expect(calls).toEqual(['visible', 'preloaded']);
    changeTopics();
    await view.prompt();
    expect(calls).toEqual(['visible', 'preloaded', 'visible', 'preloaded']);
  });

  it('are the published ones while nothing is added: an empty section is null', async () => {
    const tool = { name: 'learn' as const, description: 'D', parameters: LEARN_PARAMETERS };
    const { reader, calls } = fakeReader(SUBJECTS, { published: { prompt: '', tool, tokens: 7 } });
    const view = createKnowledgeView(reader);
    expect([await view.prompt(), await view.tool(), await view.tokens()]).toEqual([null, tool, 7]);
    expect(calls).toEqual([]);
  });

  it('are computed again once -k adds a subject, from the published subjects and the added one', async () => {
    const { reader, calls } = fakeReader(SUBJECTS, { published: { prompt: 'P', tool: null, tokens: 1 } });
    const extended = await createKnowledgeView(reader).extend({ knowledge: ['t/c'] });
    if (!extended.ok) throw new Error(extended.message);
    const prompt = await extended.view.prompt();
    expect(prompt).toContain('<subject "b">\nBeta\n</subject>\n\n<subject "c">\nGamma\n</subject>');
    expect(prompt).toContain('- t (**Tee**): About tees.');
    expect(calls).toEqual(['offer', 'visible', 'preloaded', 'learned', 'subjects c', 'load c']);
  });

  it('has no section and no tool when nothing is listable or pre-loaded', async () => {
    const { reader } = fakeReader([{ slug: 'h', content: 'H', hidden: true }]);
    const view = createKnowledgeView(reader);
    expect([await view.prompt(), await view.tool(), await view.tokens()]).toEqual([null, null, 0]);
  });
});

describe('learn', () => {
  it('lists a topic from its visible and learned subjects, loading nothing', async () => {
    const { reader, calls } = fakeReader(SUBJECTS);
    const view = createKnowledgeView(reader);
    const listing = {
      ok: true,
      text: '# Topic: Tee\n\n## Available subjects:\n\n- a\n- c\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- b',
    };
    expect(await view.learn({ topic: 'TEE' })).toEqual(listing);
    expect(await view.listing('t')).toEqual(listing);
    expect(calls).toEqual(['visible', 'learnedSet', 'visible', 'learnedSet']);
  });

  it("takes the reader's shortcut for one exact pattern, and resolves in full when it finds nothing", async () => {
    const { reader, calls } = fakeReader(SUBJECTS, { exact: true });
    const view = createKnowledgeView(reader);
    expect(await view.learn({ topic: 't', subjects: 'h' })).toEqual({ ok: true, text: 'Hidden' });
    expect(calls).toEqual(['exact h']);
    calls.length = 0;
    expect(await view.learn({ topic: 't', subjects: '*' })).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>\n\n<subject "c">\nGamma\n</subject>' });
    expect(calls).toEqual(['exact *', 'subjects *', 'learnedSet', 'load a c']);
  });

  it('skips -k subjects in globs once they are added', async () => {
    const { reader } = fakeReader(SUBJECTS);
    const extended = await createKnowledgeView(reader).extend({ knowledge: ['t/a'] });
    if (!extended.ok) throw new Error(extended.message);
    expect(await extended.view.learn({ topic: 't', subjects: '*' })).toEqual({ ok: true, text: '<subject "c">\nGamma\n</subject>' });
    expect(await extended.view.learn({ topic: 't', subjects: 'a' })).toEqual({ ok: true, text: 'Alpha' });
  });

  it("answers wrong arguments, an unknown topic and no match with the tool's messages", async () => {
    const { reader } = fakeReader(SUBJECTS);
    const view = createKnowledgeView(reader);
    expect(await view.learn({ subjects: 'a' })).toMatchObject({ ok: false, message: expect.stringMatching(/^Invalid arguments: "topic" must be a string and is required\./) });
    expect(await view.learn({ topic: 'x' })).toEqual({ ok: false, message: 'Unknown topic "x". Valid topics: t (Tee).' });
    expect(await view.learn({ topic: 't', subjects: ['zz', 'q*'] })).toEqual({
      ok: false,
      message: 'No subjects in topic "t" match "zz", "q*". Call learn with only the topic to list its subjects.',
    });
  });

  it('answers a failure the reader names as a failed call, and passes any other on', async () => {
    const known = new Error('the site is down');
    const { reader } = fakeReader(SUBJECTS, { fail: known, failureOf: (error) => (error === known ? 'Cannot reach the site.' : undefined) });
    expect(await createKnowledgeView(reader).learn({ topic: 't', subjects: 'a' })).toEqual({ ok: false, message: 'Cannot reach the site.' });
    const other = fakeReader(SUBJECTS, { fail: new Error('a bug'), failureOf: () => undefined });
    await expect(createKnowledgeView(other.reader).learn({ topic: 't', subjects: 'a' })).rejects.toThrow('a bug');
  });
});

describe('extend', () => {
  it('reads nothing for an empty request, and gives the same view', async () => {
    const { reader, calls } = fakeReader(SUBJECTS);
    const view = createKnowledgeView(reader);
    expect(await view.extend({})).toEqual({ ok: true, view });
    expect(await view.extend({ knowledge: [] })).toEqual({ ok: true, view });
    expect(calls).toEqual([]);
  });

  it('checks the profile first, then each value, with the messages of the command line', async () => {
    const { reader } = fakeReader(SUBJECTS, { profiles: new Map([['rev', ['off/x']]]) });
    const view = createKnowledgeView(reader);
    expect(await view.extend({ profile: 'nope', knowledge: ['x'] })).toEqual({ ok: false, message: 'Unknown profile "nope". Valid profiles: rev.' });
    expect(await view.extend({ profile: 'rev' })).toEqual({
      ok: false,
      message: 'profile.rev.knowledge entry "off/x": topic "off" is disabled (enable = false). Valid topics: t.',
    });
    expect(await view.extend({ knowledge: ['t/ok', 'x/y'] })).toEqual({ ok: false, message: '-k "x/y": unknown topic "x". Valid topics: t.' });
    expect(await view.extend({ knowledge: ['t/[a]*b*c*'] })).toEqual({ ok: false, message: '-k "t/[a]*b*c*": Invalid pattern "[a]*b*c*".' });
    const none = fakeReader(SUBJECTS);
    expect(await createKnowledgeView(none.reader).extend({ profile: 'p' })).toEqual({ ok: false, message: 'Unknown profile "p". None here.' });
  });

  it("passes a profile the reader holds to it, and a config's profile entries before -k values as patterns", async () => {
    const held = fakeReader(SUBJECTS, { profiles: new Map([['rev', null]]) });
    expect((await createKnowledgeView(held.reader).extend({ profile: 'rev', knowledge: ['t'] })).ok).toBe(true);
    expect(held.extensions).toEqual([{ profile: 'rev', extra: [{ topic: 't', pattern: '**' }] }]);
    const patterns = fakeReader(SUBJECTS, { profiles: new Map([['rev', ['t/c']]]) });
    const first = await createKnowledgeView(patterns.reader).extend({ profile: 'rev', knowledge: ['t/a'] });
    if (!first.ok) throw new Error(first.message);
    expect(patterns.extensions).toEqual([
      {
        profile: undefined,
        extra: [
          { topic: 't', pattern: 'c' },
          { topic: 't', pattern: 'a' },
        ],
      },
    ]);
    // Extending again appends: the patterns added before stay first.
    await first.view.extend({ knowledge: ['t/h'] });
    expect(patterns.extensions[1]).toEqual({
      profile: undefined,
      extra: [
        { topic: 't', pattern: 'c' },
        { topic: 't', pattern: 'a' },
        { topic: 't', pattern: 'h' },
      ],
    });
    expect(await first.view.listing('t')).toEqual({
      ok: true,
      text: '# Topic: Tee\n\n## Available subjects:\n\n(none)\n\n## Already learned (in system prompt):\n\n- a\n- b\n- c',
    });
  });
});
