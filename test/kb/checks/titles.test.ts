/**
 * Missing titles (`check`): markdown subjects written to have a title that Syllabus does not
 * read, so that the slug's last segment stands in for it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, checkTitles, loadMarkdownParser, type Diagnostic } from '../../../src/kb/index.ts';
import type { TreeEntry } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';

async function titleDiagnostics(entries: Record<string, TreeEntry>): Promise<{ root: string; diagnostics: Diagnostic[] }> {
  const { root, kb } = openTree('[kb.topic.t]\nsubjects = "t"\n', Object.fromEntries(Object.entries(entries).map(([name, entry]) => [`t/${name}`, entry])));
  const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
  return { root, diagnostics: checkTitles(catalog) };
}

const warning = (file: string, line: number, message: string): Diagnostic => ({ kind: 'warning', code: 'missing-title', message, file, line });

describe('checkTitles', () => {
  it('accepts a title from the front matter or a "# " heading, and subjects with no heading at all', async () => {
    const { diagnostics } = await titleDiagnostics({
      'front-matter.md': '---\ntitle: Written in the front matter\n---\n\n## Section\n',
      'heading.md': 'Intro text.\n\n# The title, after a paragraph\n\n## Section\n',
      'same-as-slug.md': '# same-as-slug\n\n## Section\n',
      'named.md': '---\nname: named-in-front-matter\n---\n\n## Section\n',
      'plain-note.md': 'Jean maintains the CLI.\n',
      'described.md': '---\ndescription: A note with a description and no heading.\n---\n\nText.\n',
      'notes.txt': '## Not markdown\n',
      'config.toml': '# a TOML comment\n',
    });
    expect(diagnostics).toEqual([]);
  });

  it('reports markdown subjects whose title falls back to the slug although they were written to have one', async () => {
    const { root, diagnostics } = await titleDiagnostics({
      'setext.md': 'Setext title\n============\n\nText.\n',
      'no-space.md': '#\tTabbed title\n\nText.\n',
      'empty-heading.md': '#\n\nText.\n',
      'sections/only-h2.md': 'Text first.\n\n## Overview\n\n### Details\n',
      'number.md': '---\ndescription: A year.\ntitle: 2024\n---\n\n## Section\n',
      'blank.md': '---\ntitle: "  "\n---\n\nText.\n',
      'empty.md': '---\ntitle:\n---\n\nText.\n',
      '.hidden.md': '## Hidden, and still a page\n',
    });
    const file = (name: string) => path.join(root, 't', name);
    const falls = (slug: string) => `so the title falls back to ${JSON.stringify(slug)} (the slug's last segment)`;
    expect(diagnostics).toEqual([
      warning(file('blank.md'), 2, `The front matter title is blank, not text: it is ignored, ${falls('blank')}. Write the title as text (title: "…").`),
      warning(file('empty.md'), 2, `The front matter title is empty, not text: it is ignored, ${falls('empty')}. Write the title as text (title: "…").`),
      warning(
        file('empty-heading.md'),
        1,
        `This level-1 heading is not read as the title (only a one-line "# Title" is), ${falls('empty-heading')}. Write it as "# Title", or set title in the front matter.`,
      ),
      warning(
        file('.hidden.md'),
        1,
        `The subject has headings but no title: its first heading is level 2, ${falls('hidden')}. Start it with a "# Title" heading, or set title in the front matter.`,
      ),
      warning(
        file('no-space.md'),
        1,
        `This level-1 heading is not read as the title (only a one-line "# Title" is), ${falls('no-space')}. Write it as "# Title", or set title in the front matter.`,
      ),
      warning(file('number.md'), 3, `The front matter title is 2024, not text: it is ignored, ${falls('number')}. Write the title as text (title: "…").`),
      warning(
        file('sections/only-h2.md'),
        3,
        `The subject has headings but no title: its first heading is level 2, ${falls('only-h2')}. Start it with a "# Title" heading, or set title in the front matter.`,
      ),
      warning(
        file('setext.md'),
        1,
        `This level-1 heading is not read as the title (only a one-line "# Title" is), ${falls('setext')}. Write it as "# Title", or set title in the front matter.`,
      ),
    ]);
  });
});
