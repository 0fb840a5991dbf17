import { describe, expect, it } from 'vitest';
import { LEARN_PARAMETERS, createLocalView, parseLearnArguments } from '../../../src/kb/index.ts';
import { noMatchMessage, renderLearnDefinition, renderListing, renderLoaded, unknownTopicMessage } from '../../../src/kb/knowledge/learn.ts';
import { openTree } from '../../helpers/open-tree.ts';

const SCHEMA =
  '{"type":"object","properties":{"topic":{"type":"string","description":"The topic ID or title to learn about."},"subjects":{"type":["string","array","null"],"description":"Glob pattern(s) for subjects to load. Use * for current level, ** for recursive. Omit to list available subjects.","items":{"type":"string"}}},"required":["topic"],"additionalProperties":false}';

describe('the learn tool definition (content/agents/learn-tool.md)', () => {
  it('has the fixed parameters schema, exactly as written', () => {
    expect(JSON.stringify(LEARN_PARAMETERS)).toBe(SCHEMA);
  });

  it('lists listable topics without introductions', () => {
    const definition = renderLearnDefinition([
      { id: 'project', title: 'General Project Knowledge' },
      { id: 'notes', title: undefined },
    ]);
    expect(JSON.stringify(definition)).toBe(
      `{"name":"learn","description":${JSON.stringify('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)\n- notes')},"parameters":${SCHEMA}}`,
    );
  });

  it('is null when no topic is listable', () => {
    expect(renderLearnDefinition([])).toBeNull();
  });
});

describe('messages (content/agents/learn-tool.md)', () => {
  it('unknown topic lists every enabled topic', () => {
    expect(
      unknownTopicMessage(
        [
          { id: 'project', title: 'General Project Knowledge' },
          { id: 'notes', title: undefined },
        ],
        'x',
      ),
    ).toBe('Unknown topic "x". Valid topics: project (General Project Knowledge), notes.');
    expect(unknownTopicMessage([], 'x')).toBe('Unknown topic "x". There are no topics.');
    expect(unknownTopicMessage([{ id: 'a', title: undefined }], 'say "hi" \\o/')).toBe('Unknown topic "say \\"hi\\" \\\\o/". Valid topics: a.');
  });

  it('no match quotes every pattern as JSON', () => {
    expect(noMatchMessage('project', ['a', 'b/*', 'q"\\'])).toBe(
      'No subjects in topic "project" match "a", "b/*", "q\\"\\\\". Call learn with only the topic to list its subjects.',
    );
  });
});

describe('renderListing (content/agents/learn-tool.md)', () => {
  it('renders a listing with a description and learned subjects', () => {
    expect(
      renderListing({
        id: 'project',
        title: 'General Project Knowledge',
        description: 'Everything a contributor should know about the project.',
        available: ['code-quality'],
        learned: ['maintainers/jean', 'maintainers/ryan'],
      }),
    ).toBe(`# Topic: General Project Knowledge

Everything a contributor should know about the project.

## Available subjects:

- code-quality

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
- maintainers/ryan`);
  });

  it('uses the id without a title, omits a missing description and an empty learned part', () => {
    expect(renderListing({ id: 'notes', title: undefined, description: undefined, available: ['a', 'b/c'], learned: [] })).toBe(`# Topic: notes

## Available subjects:

- a
- b/c

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.`);
  });

  it('writes (none) and no usage line without available subjects', () => {
    expect(renderListing({ id: 'notes', title: 'Notes', description: 'D.', available: [], learned: ['x'] })).toBe(`# Topic: Notes

D.

## Available subjects:

(none)

## Already learned (in system prompt):

- x`);
    expect(renderListing({ id: 'notes', title: undefined, description: undefined, available: [], learned: [] })).toBe(`# Topic: notes

## Available subjects:

(none)`);
  });
});

describe('renderLoaded (content/agents/learn-tool.md)', () => {
  it('is bare for one exactly named subject, blocks otherwise', () => {
    expect(renderLoaded([{ slug: 'a', content: 'A\n\nA2' }], true)).toBe('A\n\nA2');
    expect(renderLoaded([{ slug: 'a', content: 'A' }], false)).toBe('<subject "a">\nA\n</subject>');
    expect(
      renderLoaded(
        [
          { slug: 'a', content: 'A' },
          { slug: 'b/"c"', content: '' },
        ],
        false,
      ),
    ).toBe('<subject "a">\nA\n</subject>\n\n<subject "b/"c"">\n\n</subject>');
  });
});

describe('parseLearnArguments (content/agents/learn-tool.md)', () => {
  it.each([
    [{ topic: 'x' }, []],
    [{ topic: 'x', subjects: null }, []],
    [{ topic: 'x', subjects: '' }, []],
    [{ topic: 'x', subjects: [] }, []],
    [{ topic: 'x', subjects: ['', ''] }, []],
    [{ topic: 'x', subjects: 'a/*' }, ['a/*']],
    [{ topic: 'x', subjects: ['', 'a', '', 'b'] }, ['a', 'b']],
  ])('%j → patterns %j', (args, patterns) => {
    expect(parseLearnArguments(args)).toEqual({ ok: true, value: { topic: 'x', patterns } });
  });

  it.each([
    [null],
    ['x'],
    [['x']],
    [{}],
    [{ topic: 1 }],
    [{ topic: null }],
    [{ topic: 'x', subjects: 1 }],
    [{ topic: 'x', subjects: [1] }],
    [{ topic: 'x', subjects: ['a', null] }],
    [{ topic: 'x', subjects: { a: 1 } }],
    [{ topic: 'x', subjects: true }],
    [{ topic: 'x', extra: 1 }],
    [{ topic: 'x', Subjects: 'a' }],
  ])('rejects %j', (args) => {
    const result = parseLearnArguments(args);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).not.toBe('');
  });
});

const TOML = `[kb.topic.project]
title = "General Project Knowledge"
description = "Everything a contributor should know about the project."
subjects = "project"
learned = ["maintainers/*"]
disabled = ["drafts/**", "old"]

[kb.topic.notes]
subjects = "notes"

[kb.topic.hidden-only]
title = "Hidden Only"
subjects = "hidden-only"

[kb.topic.off]
enable = false
subjects = "off"
`;

const TREE = {
  'project/maintainers/jean.md': 'Jean.\n',
  'project/maintainers/ryan.md': 'Ryan.',
  'project/code-quality.md': 'Quality.\n\n',
  'project/.internal-notes.md': 'Internal.',
  'project/ast-grep/.rules.md': 'Rules.',
  'project/ast-grep/intro.md': 'Intro.',
  'project/drafts/idea.md': 'Idea.',
  'project/old.md': 'Old.',
  'project/config.toml': 'k = 1\r\n',
  'project/pic.png': Uint8Array.of(1, 0, 2),
  'notes/a.md': 'A.',
  'hidden-only/.x.md': 'X.',
  'off/a.md': 'Off.',
};

describe('learn on a local knowledge base (content/agents/learn-tool.md)', () => {
  const { kb } = openTree(TOML, TREE);
  const view = createLocalView(kb);
  const learn = (topic: string, subjects?: string | string[]) => view.learn({ topic, subjects });

  it('lists a topic: visible, not learned, not disabled subjects; learned ones apart', async () => {
    expect(await learn('project')).toEqual({
      ok: true,
      text: `# Topic: General Project Knowledge

Everything a contributor should know about the project.

## Available subjects:

- ast-grep/intro
- code-quality
- config
- pic

Use the \`learn\` tool with the \`subjects\` argument to learn specific subjects.

## Already learned (in system prompt):

- maintainers/jean
- maintainers/ryan`,
    });
  });

  it('lists (none) for a topic with hidden subjects only', async () => {
    expect(await learn('hidden-only')).toEqual({ ok: true, text: '# Topic: Hidden Only\n\n## Available subjects:\n\n(none)' });
  });

  it('resolves a topic by id, then by title under toLowerCase', async () => {
    expect(await learn('general project knowledge', 'code-quality')).toEqual({ ok: true, text: 'Quality.' });
    expect(await learn('HIDDEN ONLY', 'x')).toEqual({ ok: true, text: 'X.' });
  });

  it('rejects unknown and disabled topics with the exact message', async () => {
    const message = 'Unknown topic "off". Valid topics: project (General Project Knowledge), notes, hidden-only (Hidden Only).';
    expect(await learn('off')).toEqual({ ok: false, message });
  });

  it('loads one exact subject bare, fenced when it is not pass-through', async () => {
    expect(await learn('project', 'config')).toEqual({ ok: true, text: '```toml\nk = 1\n```' });
    expect(await learn('project', 'pic')).toEqual({ ok: true, text: 'Subject "pic" is a binary file and was skipped.' });
  });

  it('loads hidden subjects by exact slug, or with their dots', async () => {
    expect(await learn('project', 'internal-notes')).toEqual({ ok: true, text: 'Internal.' });
    expect(await learn('project', 'ast-grep/.rules')).toEqual({ ok: true, text: 'Rules.' });
    expect(await learn('project', ['ast-grep/rules', 'internal-notes'])).toEqual({
      ok: true,
      text: '<subject "ast-grep/rules">\nRules.\n</subject>\n\n<subject "internal-notes">\nInternal.\n</subject>',
    });
  });

  it('loads a learned subject by exact slug, but globs skip learned ones', async () => {
    expect(await learn('project', 'maintainers/jean')).toEqual({ ok: true, text: 'Jean.' });
    expect(await learn('project', 'maintainers/*')).toEqual({
      ok: false,
      message: 'No subjects in topic "project" match "maintainers/*". Call learn with only the topic to list its subjects.',
    });
  });

  it('wraps glob results in blocks, in slug order, never hidden', async () => {
    expect(await learn('project', 'ast-grep/*')).toEqual({ ok: true, text: '<subject "ast-grep/intro">\nIntro.\n</subject>' });
    expect(await learn('project', ['code-quality', 'code-quality'])).toEqual({ ok: true, text: '<subject "code-quality">\nQuality.\n</subject>' });
  });

  it('never loads disabled subjects, even by exact slug', async () => {
    expect(await learn('project', 'drafts/idea')).toEqual({
      ok: false,
      message: 'No subjects in topic "project" match "drafts/idea". Call learn with only the topic to list its subjects.',
    });
    expect(await learn('project', ['old', 'drafts/**'])).toEqual({
      ok: false,
      message: 'No subjects in topic "project" match "old", "drafts/**". Call learn with only the topic to list its subjects.',
    });
  });

  it('offers the tool for listable topics only', async () => {
    expect((await view.tool())?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**General Project Knowledge**)\n- notes');
  });
});
