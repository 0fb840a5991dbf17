/**
 * `/llms.txt` and `/llms-full.txt` (content/agents/endpoints.md) parsed with a grammar written from
 * the llmstxt.org format (test/helpers/llms-txt.ts), over the bundled guide, the site fixture and
 * a sample of the tldr pages: one H1, a blockquote, text without headings, then H2 sections that
 * hold only `- [name](url): notes` items, `Optional` last; every listed subject linked once. The
 * full file: one H1, one H2 per listed subject, every other heading below it, no front matter.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCatalog, loadConfig, openKnowledgeBase, readConfigFiles, renderLlmsFullText, renderLlmsText, type Catalog, type SyllabusConfig } from '../../../src/kb/index.ts';
import { FIXTURES } from '../../helpers/fixtures.ts';
import { outlineOf, parseLlmsTxt } from '../../helpers/llms-txt.ts';

const ROOT = path.resolve(FIXTURES, '..', '..');
const KNOWLEDGE_BASES = ['content/kb.toml', 'test/fixtures/site/kb.toml', 'test/fixtures/tldr-sample/kb.toml'];

const opened = new Map<string, { config: SyllabusConfig; catalog: Catalog }>();

beforeAll(async () => {
  for (const file of KNOWLEDGE_BASES) {
    const { config, diagnostics } = loadConfig(readConfigFiles([file], ROOT).configTexts);
    if (!config) throw new Error(`config did not load: ${JSON.stringify(diagnostics)}`);
    opened.set(file, { config, catalog: (await buildCatalog(openKnowledgeBase(config))).catalog });
  }
});

function listedOf(catalog: Catalog): { topic: string; title: string; address: string }[] {
  return catalog.topics.flatMap((t) => t.subjects.filter((s) => !s.hidden).map((s) => ({ topic: t.id, title: s.title, address: s.address })));
}

describe.each(KNOWLEDGE_BASES)('%s', (file) => {
  it('llms.txt parses under the llmstxt.org format, and links every listed subject once', () => {
    const { config, catalog } = opened.get(file)!;
    const parsed = parseLlmsTxt(renderLlmsText(catalog, config.site));
    expect(parsed.problems).toEqual([]);
    expect(parsed.h1Count).toBe(1);
    expect(parsed.title).toBe(config.site.title);
    expect(parsed.summary).toMatch(/\S/);
    expect(parsed.info).not.toBe('');
    const names = parsed.sections.map((s) => s.name);
    expect(names.at(-1)).toBe('Optional');
    expect(names.filter((n) => n === 'Optional')).toHaveLength(1);
    for (const section of parsed.sections) expect(section.links.length, section.name).toBeGreaterThan(0);
    const links = parsed.sections.flatMap((s) => s.links.map((l) => l.url));
    const prefix = config.site.url ? `${config.site.url.replace(/\/+$/, '')}/` : '/';
    for (const url of links) expect(url.startsWith(prefix), url).toBe(true);
    const expected = listedOf(catalog).map((s) => `${prefix}${s.topic}/${s.address}.md`);
    expect(links.filter((url) => url.endsWith('.md')).sort()).toEqual(expected.sort());
  });

  it('llms-full.txt has one H1, one H2 per listed subject with every heading of its content below, and no front matter', () => {
    const { config, catalog } = opened.get(file)!;
    const text = renderLlmsFullText(catalog, config.site);
    const outline = outlineOf(text);
    expect(outline[0]).toEqual({ level: 1, text: config.site.title, line: 1 });
    expect(outline.filter((h) => h.level === 1)).toHaveLength(1);
    const listed = listedOf(catalog);
    expect(outline.filter((h) => h.level === 2).map((h) => h.text)).toEqual(listed.map((s) => s.title.replace(/\s+/g, ' ').trim()));
    expect(outline[1]!.level).toBe(2);
    // Under each subject's heading: a blank line, "Topic: … · <url>", and content that never opens with front matter.
    const lines = text.split('\n');
    for (const h2 of outline.filter((h) => h.level === 2)) {
      expect(lines[h2.line]).toBe('');
      expect(lines[h2.line + 1]).toMatch(/^Topic: .* · \S+$/);
      expect(lines[h2.line + 3]).not.toBe('---');
    }
    expect(parseLlmsTxt(text).title).toBe(config.site.title);
  });
});
