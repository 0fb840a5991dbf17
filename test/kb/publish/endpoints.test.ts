/**
 * The machine endpoints of a small knowledge base, whole: index.json, the knowledge files of the
 * config and of a profile, a topic file, a hidden subject's file, keywords.json, index.txt,
 * llms.txt and llms-full.txt. Every JSON value also validates against its published JSON Schema (ajv).
 */
import { createHash } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildCatalog,
  buildKeywordsFile,
  buildKnowledgeFile,
  buildSiteIndex,
  buildSubjectFile,
  buildTopicFile,
  renderEndpointSchemas,
  renderIndexText,
  renderLlmsFullText,
  renderLlmsText,
  type Catalog,
  type KnowledgeBase,
} from '../../../src/kb/index.ts';
import { openTree } from '../../helpers/open-tree.ts';

const TOML = `[site]
title = "Acme"
description = "What Acme knows."
url = "https://kb.acme.test/docs/"
base = "/docs"

[kb.topic.guide]
title = "Guide"
introduction = "How we work."
subjects = "guide"
learned = ["intro"]
disabled = ["drafts/**"]

[kb.topic.ops]
subjects = "ops"

[profile.oncall]
knowledge = ["ops/pager"]
`;

const FILES = {
  'guide/intro.md': '---\ntitle: Introduction\n---\nStart here.\n',
  'guide/deploy.md': '# Deploy [v2]\n\nShip it daily.\n',
  'guide/.secret.md': 'HIDDENCANARY lives here.\n',
  'guide/drafts/wip.md': 'DISABLEDCANARY draft.\n',
  'guide/settings.toml': '# Settings of the service.\nport = 1\n',
  'ops/pager.md': 'Who gets paged.\n',
};

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

let kb: KnowledgeBase;
let catalog: Catalog;

beforeAll(async () => {
  kb = openTree(TOML, FILES).kb;
  catalog = (await buildCatalog(kb)).catalog;
});

const SETTINGS_CONTENT = '```toml\n# Settings of the service.\nport = 1\n```';

describe('index.json', () => {
  it('lists every enabled topic and its listed subjects, with every address', () => {
    expect(buildSiteIndex(catalog, kb.config.site)).toEqual({
      version: 1,
      site: { title: 'Acme', description: 'What Acme knows.', url: 'https://kb.acme.test/docs/', base: '/docs/' },
      knowledge: { json: '/docs/kb/knowledge.json', tokens: catalog.knowledge.tokens, profiles: { oncall: '/docs/kb/knowledge/oncall.json' } },
      addresses: {
        page: '/docs/{topic}/{address}/',
        markdown: '/docs/{topic}/{address}.md',
        subject: '/docs/kb/subjects/{topic}/{address}.json',
        topic: '/docs/kb/topics/{topic}.json',
        encoding:
          'address = each slug segment with ASCII letters, digits, "-", "_" and non-ASCII letters and digits kept, and every other character (also "." and "~") written as "~" plus two upper-case hex digits per UTF-8 byte; segments joined by "/".',
      },
      endpoints: { indexText: '/docs/kb/index.txt', llms: '/docs/llms.txt', llmsFull: '/docs/llms-full.txt', keywords: '/docs/kb/keywords.json', schemas: '/docs/kb/schema/' },
      topics: [
        {
          id: 'guide',
          title: 'Guide',
          introduction: 'How we work.',
          description: null,
          url: '/docs/guide/',
          json: '/docs/kb/topics/guide.json',
          tokens: 10 + 9 + 16,
          subjects: [
            {
              slug: 'deploy',
              title: 'Deploy [v2]',
              summary: 'Ship it daily.',
              format: 'markdown',
              language: null,
              skipped: null,
              path: 'deploy.md',
              bytes: 30,
              tokens: 10,
              sha256: sha('# Deploy [v2]\n\nShip it daily.'),
              learned: false,
              url: '/docs/guide/deploy/',
              markdown: '/docs/guide/deploy.md',
              json: '/docs/kb/subjects/guide/deploy.json',
            },
            {
              slug: 'intro',
              title: 'Introduction',
              summary: 'Start here.',
              format: 'markdown',
              language: null,
              skipped: null,
              path: 'intro.md',
              bytes: 40,
              tokens: 9,
              sha256: sha('---\ntitle: Introduction\n---\nStart here.'),
              learned: true,
              url: '/docs/guide/intro/',
              markdown: '/docs/guide/intro.md',
              json: '/docs/kb/subjects/guide/intro.json',
            },
            {
              slug: 'settings',
              title: 'settings',
              summary: 'Settings of the service.',
              format: 'code',
              language: 'toml',
              skipped: null,
              path: 'settings.toml',
              bytes: 36,
              tokens: 16,
              sha256: sha(SETTINGS_CONTENT),
              learned: false,
              url: '/docs/guide/settings/',
              markdown: '/docs/guide/settings.md',
              json: '/docs/kb/subjects/guide/settings.json',
            },
          ],
        },
        {
          id: 'ops',
          title: null,
          introduction: null,
          description: null,
          url: '/docs/ops/',
          json: '/docs/kb/topics/ops.json',
          tokens: 5,
          subjects: [
            {
              slug: 'pager',
              title: 'pager',
              summary: 'Who gets paged.',
              format: 'markdown',
              language: null,
              skipped: null,
              path: 'pager.md',
              bytes: 16,
              tokens: 5,
              sha256: sha('Who gets paged.'),
              learned: false,
              url: '/docs/ops/pager/',
              markdown: '/docs/ops/pager.md',
              json: '/docs/kb/subjects/ops/pager.json',
            },
          ],
        },
      ],
    });
  });
});

describe('knowledge files', () => {
  it('hold the prompt, the learn tool and what each topic pre-loads', () => {
    const file = buildKnowledgeFile(catalog.knowledge);
    expect(file.prompt).toBe(
      '<knowledge>\nThe following knowledge has been pre-loaded into your system prompt:\n\n<topic "Guide">\n\n<subject "intro">\n---\ntitle: Introduction\n---\nStart here.\n</subject>\n</topic>\n\nThe following knowledge topics are available to learn:\n\n- guide (**Guide**): How we work.\n- ops\n\nUse the `learn` tool to consume this knowledge.\n\n(note: some topics may contain hidden subjects that are not listed via `learn`\nby default, but can be loaded manually if you are made aware of their names via\nother means, such as by reading non-hidden subjects first. This prevents\nexposing too much irrelevant knowledge upfront)\n</knowledge>',
    );
    expect(file).toMatchObject({ version: 1, profile: null, tokens: catalog.knowledge.tokens });
    expect(file.tool?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- guide (**Guide**)\n- ops');
    expect(file.topics).toEqual([
      { id: 'guide', preloaded: [{ slug: 'intro', content: '---\ntitle: Introduction\n---\nStart here.' }] },
      { id: 'ops', preloaded: [] },
    ]);
  });

  it('give a profile its own section: its subjects pre-loaded, its topic no longer listable when nothing is left', () => {
    const file = buildKnowledgeFile(catalog.profiles.get('oncall')!, 'oncall');
    expect(file.profile).toBe('oncall');
    expect(file.topics).toEqual([
      { id: 'guide', preloaded: [{ slug: 'intro', content: '---\ntitle: Introduction\n---\nStart here.' }] },
      { id: 'ops', preloaded: [{ slug: 'pager', content: 'Who gets paged.' }] },
    ]);
    expect(file.tool?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- guide (**Guide**)');
    expect(file.prompt).toContain('<topic "ops">\n\n<subject "pager">\nWho gets paged.\n</subject>\n</topic>');
  });
});

describe('topic and subject files', () => {
  it('give a topic its listing text', () => {
    const file = buildTopicFile(catalog.topics[0]!, '/docs/');
    expect(file.listing).toBe(
      '# Topic: Guide\n\n## Available subjects:\n\n- deploy\n- settings\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- intro',
    );
    expect(file.subjects.map((s) => s.slug)).toEqual(['deploy', 'intro', 'settings']);
  });

  it('give a hidden subject its own file, flagged hidden', () => {
    const hidden = catalog.topics[0]!.subjects.find((s) => s.slug === 'secret')!;
    expect(buildSubjectFile(hidden, '/docs/')).toEqual({
      version: 1,
      topic: 'guide',
      address: 'secret',
      hidden: true,
      slug: 'secret',
      title: 'secret',
      summary: 'HIDDENCANARY lives here.',
      format: 'markdown',
      language: null,
      skipped: null,
      path: '.secret.md',
      bytes: 25,
      tokens: hidden.tokens,
      sha256: sha('HIDDENCANARY lives here.'),
      learned: false,
      url: '/docs/guide/secret/',
      markdown: '/docs/guide/secret.md',
      json: '/docs/kb/subjects/guide/secret.json',
      content: 'HIDDENCANARY lives here.',
    });
  });
});

describe('keywords.json', () => {
  it('gives every listed subject its keywords (title, summary, headings), confidence and search terms, in catalog order', () => {
    expect(buildKeywordsFile(catalog)).toEqual({
      version: 1,
      topics: [
        {
          id: 'guide',
          subjects: [
            {
              slug: 'deploy',
              keywords: ['deploy', 'ship', 'daily'],
              confidence: 1,
              lengths: [2, 1, 2, 2, 4],
              terms: ['deploi v2', 'deploi', 'daili ship', 'deploi v2', 'daili deploi ship v2'],
            },
            // Front matter is not body text: its title and description already count.
            { slug: 'intro', keywords: ['introduction', 'start'], confidence: 1, lengths: [1, 1, 1, 0, 1], terms: ['introduct', 'intro', 'start', '', 'start'] },
            { slug: 'settings', keywords: ['settings', 'service'], confidence: 1, lengths: [1, 1, 2, 0, 4], terms: ['set', 'set', 'servic set', '', 'port servic set toml'] },
          ],
        },
        {
          id: 'ops',
          subjects: [{ slug: 'pager', keywords: ['pager', 'gets', 'paged'], confidence: 1, lengths: [1, 1, 2, 0, 2], terms: ['pager', 'pager', 'get page', '', 'get page'] }],
        },
      ],
    });
  });
});

describe('plain-text endpoints', () => {
  it('index.txt: an id line and a summary per listed subject', () => {
    expect(renderIndexText(catalog)).toBe(
      'kb:guide/deploy.md\nShip it daily.\n\nkb:guide/intro.md\nStart here.\n\nkb:guide/settings.toml\nSettings of the service.\n\nkb:ops/pager.md\nWho gets paged.\n',
    );
  });

  it('llms.txt: the topics’ introductions as text, a section of items per topic, code and data files under Optional', () => {
    expect(renderLlmsText(catalog, kb.config.site)).toBe(`# Acme

> What Acme knows.

The knowledge of this site for agents: https://kb.acme.test/docs/kb/index.json lists every topic and subject with its addresses, and https://kb.acme.test/docs/kb/knowledge.json holds the <knowledge> system-prompt section and the learn tool.

Topics:

- Guide: How we work.

## Guide

- [Deploy (v2)](https://kb.acme.test/docs/guide/deploy.md): Ship it daily.
- [Introduction](https://kb.acme.test/docs/guide/intro.md): Start here.

## ops

- [pager](https://kb.acme.test/docs/ops/pager.md): Who gets paged.

## Optional

- [settings](https://kb.acme.test/docs/guide/settings.md): Guide: Settings of the service.
- [Everything in one file](https://kb.acme.test/docs/llms-full.txt): The content of every subject listed here, in one markdown file.
`);
  });

  it('llms-full.txt: every listed subject under one H2, with its topic and URL, without front matter or a repeated title', () => {
    expect(renderLlmsFullText(catalog, kb.config.site)).toBe(`# Acme

> What Acme knows.

The knowledge of this site for agents: https://kb.acme.test/docs/kb/index.json lists every topic and subject with its addresses, and https://kb.acme.test/docs/kb/knowledge.json holds the <knowledge> system-prompt section and the learn tool.

## Deploy [v2]

Topic: Guide · https://kb.acme.test/docs/guide/deploy.md

Ship it daily.

## Introduction

Topic: Guide · https://kb.acme.test/docs/guide/intro.md

Start here.

## settings

Topic: Guide · https://kb.acme.test/docs/guide/settings.md

${SETTINGS_CONTENT}

## pager

Topic: ops · https://kb.acme.test/docs/ops/pager.md

Who gets paged.
`);
  });

  it('leave hidden and disabled subjects out', () => {
    for (const text of [
      renderIndexText(catalog),
      renderLlmsText(catalog, kb.config.site),
      renderLlmsFullText(catalog, kb.config.site),
      JSON.stringify(buildSiteIndex(catalog, kb.config.site)),
      JSON.stringify(buildKeywordsFile(catalog)),
    ]) {
      expect(text).not.toContain('HIDDENCANARY');
      expect(text).not.toContain('secret');
      expect(text).not.toContain('DISABLEDCANARY');
      expect(text).not.toContain('wip');
    }
  });
});

describe('JSON Schemas', () => {
  it('accept every endpoint value, and reject a broken one', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const schemas = renderEndpointSchemas();
    const validate = (name: keyof typeof schemas, value: unknown): unknown => {
      const check = ajv.compile(schemas[name]);
      return check(value) ? null : check.errors;
    };
    expect(validate('index.json', buildSiteIndex(catalog, kb.config.site))).toBeNull();
    expect(validate('knowledge.json', buildKnowledgeFile(catalog.knowledge))).toBeNull();
    expect(validate('keywords.json', buildKeywordsFile(catalog))).toBeNull();
    expect(validate('knowledge.json', buildKnowledgeFile(catalog.profiles.get('oncall')!, 'oncall'))).toBeNull();
    for (const topic of catalog.topics) {
      expect(validate('topic.json', buildTopicFile(topic, '/docs/'))).toBeNull();
      for (const subject of topic.subjects) expect(validate('subject.json', buildSubjectFile(subject, '/docs/'))).toBeNull();
    }
    const broken = { ...buildSubjectFile(catalog.topics[1]!.subjects[0]!, '/docs/'), sha256: 'not-a-hash' };
    expect(validate('subject.json', broken)).not.toBeNull();
  });
});
