import { describe, expect, it } from 'vitest';
import { createLocalView } from '../../../src/kb/index.ts';
import { renderKnowledgeSection, type KnowledgeTopic } from '../../../src/kb/knowledge/section.ts';
import { openTree } from '../../helpers/open-tree.ts';

const NOTE = `Use the \`learn\` tool to consume this knowledge.

(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

const project: KnowledgeTopic = {
  id: 'project',
  title: 'General Project Knowledge',
  introduction: 'Conventions and people of this project.',
  description: 'Everything a contributor should know about the project.',
  listable: true,
  preloaded: [
    { slug: 'maintainers/jean', content: '…content…' },
    { slug: 'maintainers/ryan', content: '…content…' },
  ],
};
const skills: KnowledgeTopic = {
  id: 'skills',
  title: 'Learnable Assistant Skills',
  introduction: undefined,
  description: undefined,
  listable: true,
  preloaded: [],
};

describe('renderKnowledgeSection (content/agents/knowledge-section.md)', () => {
  it('renders both parts: a topic with pre-loaded subjects, then the topics to learn', () => {
    expect(renderKnowledgeSection([project, skills])).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "General Project Knowledge">

Everything a contributor should know about the project.

<subject "maintainers/jean">
…content…
</subject>

<subject "maintainers/ryan">
…content…
</subject>
</topic>

The following knowledge topics are available to learn:

- project (**General Project Knowledge**): Conventions and people of this project.
- skills (**Learnable Assistant Skills**)

${NOTE}
</knowledge>`);
  });

  it('is empty when no topic is listable and none has pre-loaded subjects', () => {
    expect(renderKnowledgeSection([])).toBe('');
    expect(renderKnowledgeSection([{ ...skills, listable: false }])).toBe('');
  });

  it('has only the pre-loaded part when no topic is listable; no description, id as title', () => {
    const topic: KnowledgeTopic = { id: 'notes', title: undefined, introduction: 'x', description: undefined, listable: false, preloaded: [{ slug: 'a', content: 'A' }] };
    expect(renderKnowledgeSection([topic, { ...project, preloaded: [{ slug: 'b', content: 'B\n\nB2' }], listable: false }])).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "notes">

<subject "a">
A
</subject>
</topic>

<topic "General Project Knowledge">

Everything a contributor should know about the project.

<subject "b">
B

B2
</subject>
</topic>
</knowledge>`);
  });

  it('has only the available part when nothing is pre-loaded, with every list line form', () => {
    const topics: KnowledgeTopic[] = [
      { id: 'a', title: 'A "quoted" title', introduction: 'Intro of a.', description: 'Ignored here.', listable: true, preloaded: [] },
      { id: 'b', title: 'B', introduction: undefined, description: undefined, listable: true, preloaded: [] },
      { id: 'c', title: undefined, introduction: 'Intro of c.', description: undefined, listable: true, preloaded: [] },
      { id: 'd', title: undefined, introduction: undefined, description: undefined, listable: true, preloaded: [] },
      { id: 'e', title: 'Not listable', introduction: 'x', description: undefined, listable: false, preloaded: [] },
    ];
    expect(renderKnowledgeSection(topics)).toBe(`<knowledge>
The following knowledge topics are available to learn:

- a (**A "quoted" title**): Intro of a.
- b (**B**)
- c: Intro of c.
- d

${NOTE}
</knowledge>`);
  });

  it('keeps raw values in the <topic> and <subject> tags', () => {
    const topic: KnowledgeTopic = {
      id: 't',
      title: 'Say "hi" \\ bye',
      introduction: undefined,
      description: undefined,
      listable: false,
      preloaded: [{ slug: 'a "b"', content: '' }],
    };
    expect(renderKnowledgeSection([topic])).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "Say "hi" \\ bye">

<subject "a "b"">

</subject>
</topic>
</knowledge>`);
  });
});

describe('the section of a local knowledge base (content/guide/concepts/learned-subjects.md)', () => {
  it('pre-loads learned subjects in resolution order, hidden ones by exact slug, never disabled ones', async () => {
    const { kb } = openTree(
      `[kb.topic.project]
title = "General Project Knowledge"
introduction = "Conventions and people of this project."
description = "Everything a contributor should know about the project.\\n"
subjects = "project"
learned = ["maintainers/ryan", "maintainers/*", "internal", "drafts/idea", "**"]
disabled = ["drafts/**"]

[kb.topic.off]
enable = false
title = "Off"
subjects = "off"

[kb.topic.skills]
subjects = "skills"
learned = ["config"]
`,
      {
        'project/maintainers/jean.md': 'Jean.\n',
        'project/maintainers/ryan.md': 'Ryan.\r\n',
        'project/.internal.md': 'Hidden.',
        'project/drafts/idea.md': 'Draft.',
        'off/a.md': 'Off.',
        'skills/config.toml': 'a = "```"\n',
        'skills/other.md': 'Other.',
      },
    );
    expect(await createLocalView(kb).prompt()).toBe(`<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "General Project Knowledge">

Everything a contributor should know about the project.

<subject "maintainers/ryan">
Ryan.
</subject>

<subject "maintainers/jean">
Jean.
</subject>

<subject "internal">
Hidden.
</subject>
</topic>

<topic "skills">

<subject "config">
\`\`\`\`toml
a = "\`\`\`"
\`\`\`\`
</subject>
</topic>

The following knowledge topics are available to learn:

- skills

${NOTE}
</knowledge>`);
  });
});
