/** The nav file of a topic (src/kb/publish/topic-nav.ts): the tree the sidebar of its pages loads. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderEndpointSchemas } from '../../../src/kb/publish/endpoint-schemas.ts';
import { buildNavEntries, buildTopicNav, serializeTopicNav, topicNavUrl } from '../../../src/kb/publish/topic-nav.ts';
import { addressOf } from '../../../src/kb/subjects/address.ts';
import type { CatalogSubject, CatalogTopic } from '../../../src/kb/catalog/catalog.ts';

const subjects = (...slugs: string[]) => slugs.map((slug) => ({ slug, address: addressOf(slug), title: `T ${slug}` }));

describe('buildNavEntries', () => {
  it('lists each folder before what it holds, with its depth and count, subjects in slug order', () => {
    expect(buildNavEntries(subjects('a-b', 'a/b/c', 'a/b/d', 'a/e', 'notes.v2', 'z'))).toEqual([
      { title: 'T a-b', address: 'a-b', depth: 0 },
      { folder: 'a', depth: 0, count: 3 },
      { folder: 'b', depth: 1, count: 2 },
      { title: 'T a/b/c', address: 'a/b/c', depth: 2 },
      { title: 'T a/b/d', address: 'a/b/d', depth: 2 },
      { title: 'T a/e', address: 'a/e', depth: 1 },
      { title: 'T notes.v2', address: 'notes~2Ev2', depth: 0 },
      { title: 'T z', address: 'z', depth: 0 },
    ]);
  });

  it('opens a folder again under a new parent of the same name, and leaves an empty topic empty', () => {
    expect(buildNavEntries(subjects('x/same/a', 'y/same/b'))).toEqual([
      { folder: 'x', depth: 0, count: 1 },
      { folder: 'same', depth: 1, count: 1 },
      { title: 'T x/same/a', address: 'x/same/a', depth: 2 },
      { folder: 'y', depth: 0, count: 1 },
      { folder: 'same', depth: 1, count: 1 },
      { title: 'T y/same/b', address: 'y/same/b', depth: 2 },
    ]);
    expect(buildNavEntries([])).toEqual([]);
  });
});

describe('buildTopicNav', () => {
  const subject = (slug: string, hidden = false) => ({ slug, address: addressOf(slug), title: slug.toUpperCase(), hidden }) as CatalogSubject;
  const topic = { id: 'guide', title: undefined, subjects: [subject('a'), subject('secret/b', true), subject('secret/c')] } as unknown as CatalogTopic;

  it('holds the listed subjects only (never a hidden one), at its address below the base', () => {
    const nav = buildTopicNav(topic, '/docs/');
    expect(serializeTopicNav(nav)).toBe(
      '{"version":1,"topic":"guide","title":"guide","url":"/docs/guide/","entries":[{"title":"A","address":"a","depth":0},{"folder":"secret","depth":0,"count":1},{"title":"SECRET/C","address":"secret/c","depth":1}]}\n',
    );
    expect(topicNavUrl('/docs/', 'guide')).toBe('/docs/kb/nav/guide.json');
  });

  it('is valid against the JSON Schema published as /kb/schema/nav.json, which refuses an entry with unknown keys', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(renderEndpointSchemas()['nav.json']);
    expect(validate(buildTopicNav(topic, '/'))).toBe(true);
    expect(validate({ ...buildTopicNav(topic, '/'), entries: [{ title: 'x', address: 'x', depth: 0, hidden: true }] })).toBe(false);
  });
});
