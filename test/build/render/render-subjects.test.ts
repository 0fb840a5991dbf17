/**
 * A subject's page shows its title once (content/guide/the-site.md, "How subjects are shown"): a
 * title read from the document's own `# ` heading replaces that heading; a title from front
 * matter `name` or the slug leaves the document's headings as they are.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog } from '../../../src/kb/index.ts';
import { createMarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';
import { renderSubject } from '../../../src/build/render/render-subjects.ts';
import { openTree } from '../../helpers/open-tree.ts';

describe('renderSubject', () => {
  it('drops only a leading heading the title came from', async () => {
    const { kb } = openTree('[kb.topic.skills]\nsubjects = "skills"\n', {
      'skills/headed/SKILL.md': '---\nname: headed\n---\n\n# Chart *drawing*\n\nBody.\n',
      'skills/named/SKILL.md': '---\nname: named\n---\n\nPDF tools\n=========\n\nBody.\n',
    });
    const { catalog } = await buildCatalog(kb);
    const renderer = await createMarkdownRenderer(() => ({ allowHtml: false, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() }));
    const rendered = await Promise.all(catalog.topics[0]!.subjects.map(async (s) => [s.title, await renderSubject(s, renderer)] as const));
    expect(rendered.map(([title, r]) => [title, r.html, r.metadata.titleHtml])).toEqual([
      ['Chart *drawing*', '<p>Body.</p>\n', 'Chart <em>drawing</em>'],
      ['named', '<h1 id="pdf-tools">PDF tools</h1>\n<p>Body.</p>\n', null],
    ]);
  });
});
