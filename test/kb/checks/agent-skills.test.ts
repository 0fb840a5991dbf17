/**
 * Agent Skills (`check`, content/reference/cli/check.md, "Agent Skills"): the front matter of a
 * folder's `SKILL.md` keeps the format's rules, and titles and summarises the skill.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, loadMarkdownParser, type Diagnostic } from '../../../src/kb/index.ts';
import { checkAgentSkills } from '../../../src/kb/checks/agent-skills.ts';
import type { TreeEntry } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';

async function skills(entries: Record<string, TreeEntry>) {
  const { root, kb } = openTree('[kb.topic.skills]\nsubjects = "skills"\n', Object.fromEntries(Object.entries(entries).map(([name, entry]) => [`skills/${name}`, entry])));
  const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
  const file = (name: string): string => path.join(root, 'skills', name);
  return { catalog, file, diagnostics: checkAgentSkills(catalog) };
}

const skill = (frontMatter: string, body = 'Do the thing.\n'): string => `---\n${frontMatter}\n---\n\n${body}`;

describe('checkAgentSkills', () => {
  it('accepts skills that keep the rules, and leaves other files alone', async () => {
    const { diagnostics } = await skills({
      'pdf/SKILL.md': skill('name: pdf\ndescription: Reads and fills PDF forms.\nlicense: Proprietary\nallowed-tools: Bash Read\nmetadata:\n  version: "1.0"'),
      'data-2/SKILL.md': skill(`name: data-2\ndescription: ${'d'.repeat(1024)}\ncompatibility: ${'c'.repeat(500)}`),
      'notes/README.md': '# Notes\n',
      'notes/skill.md': '# Lower-case file name: not a skill file\n',
      'café/SKILL.md': skill('name: café\ndescription: Unicode lowercase letters are letters.'),
      // The catalog reports the broken YAML (front-matter); its keys are not called missing.
      'broken/SKILL.md': skill('name: broken\ndescription: Reads: then breaks'),
    });
    expect(diagnostics).toEqual([]);
  });

  it('warns about a missing, invalid or mismatched name, a missing or long description and a long compatibility, at their lines', async () => {
    const { file, diagnostics } = await skills({
      'no-front-matter/SKILL.md': '# A skill without front matter\n',
      'Upper/SKILL.md': skill('description: Upper case.\nname: Upper'),
      'bad--name/SKILL.md': skill('name: bad--name\ndescription: Two hyphens.'),
      'edge/SKILL.md': skill('name: -edge-\ndescription: Hyphens at the ends.'),
      'long/SKILL.md': skill(`name: ${'a'.repeat(65)}\ndescription: Long name.`),
      'moved/SKILL.md': skill(`name: original\ndescription: ${'x'.repeat(1025)}\ncompatibility: ${'y'.repeat(501)}`),
      'number/SKILL.md': skill('name: 42\ndescription: ""'),
      'SKILL.md': skill('name: skills\ndescription: At the top of the topic folder, named after it.'),
    });
    const warning = (name: string, code: Diagnostic['code'], line: number, message: string): Diagnostic => ({ kind: 'warning', code, message, file: file(name), line });
    const mismatch = (name: string, folder: string) =>
      `The skill name ${JSON.stringify(name)} is not its folder's name ${JSON.stringify(folder)}: agents load a skill by its folder. Rename the folder or the name so that they match.`;
    const noDescription = 'This skill has no description: agents choose a skill by what its description says it does and when to use it. Add description: "…" to the front matter.';
    expect(diagnostics).toEqual([
      warning('Upper/SKILL.md', 'skill-name', 3, 'The skill name "Upper" may hold only lowercase letters, digits and hyphens. Rename it, and its folder, to match.'),
      warning('bad--name/SKILL.md', 'skill-name', 2, 'The skill name "bad--name" may not hold two hyphens in a row. Rename it, and its folder, to match.'),
      warning('edge/SKILL.md', 'skill-name', 2, 'The skill name "-edge-" may not start or end with a hyphen. Rename it, and its folder, to match.'),
      warning('edge/SKILL.md', 'skill-name-mismatch', 2, mismatch('-edge-', 'edge')),
      warning(
        'long/SKILL.md',
        'skill-name',
        2,
        `The skill name "${'a'.repeat(65)}" has 65 characters, over the 64 the Agent Skills format allows. Rename it, and its folder, to match.`,
      ),
      warning('long/SKILL.md', 'skill-name-mismatch', 2, mismatch('a'.repeat(65), 'long')),
      warning('moved/SKILL.md', 'skill-name-mismatch', 2, mismatch('original', 'moved')),
      warning(
        'moved/SKILL.md',
        'skill-description',
        3,
        'The skill description has 1025 characters, over the 1024 the Agent Skills format allows. Shorten it; move the details into the body.',
      ),
      warning(
        'moved/SKILL.md',
        'skill-compatibility',
        4,
        'The skill compatibility has 501 characters, over the 500 the Agent Skills format allows. Say only what the skill needs to run; move the rest into the body.',
      ),
      warning(
        'no-front-matter/SKILL.md',
        'skill-name',
        1,
        'This skill has no name: agents find a skill by its name. Add name: "no-front-matter" (the folder\'s name) to the front matter.',
      ),
      warning('no-front-matter/SKILL.md', 'skill-description', 1, noDescription),
      warning(
        'number/SKILL.md',
        'skill-name',
        2,
        'This skill has a name that is not text (42): agents find a skill by its name. Add name: "number" (the folder\'s name) to the front matter.',
      ),
      warning('number/SKILL.md', 'skill-description', 3, noDescription),
    ]);
  });
});

describe('a skill in the catalog', () => {
  it('is titled by its front matter title, else its "# " heading, else its name, and summarised by its description', async () => {
    const { catalog } = await skills({
      'named/SKILL.md': skill('name: named\ndescription: Fills forms.', '## Overview\n\nBody text.\n'),
      'headed/SKILL.md': skill('name: headed\ndescription: Draws charts.', '# Chart drawing\n\nBody text.\n'),
      'titled/SKILL.md': skill('title: The titled skill\nname: titled\ndescription: Writes titles.', '# Heading\n'),
      'blank/SKILL.md': skill('name: "  "', 'Only a body.\n'),
      'notes.md': skill('name: a-note-named-in-front-matter'),
    });
    expect(catalog.topics[0]!.subjects.map((s) => [s.slug, s.title, s.summary])).toEqual([
      ['blank/SKILL', 'SKILL', 'Only a body.'],
      ['headed/SKILL', 'Chart drawing', 'Draws charts.'],
      ['named/SKILL', 'named', 'Fills forms.'],
      ['notes', 'a-note-named-in-front-matter', 'Do the thing.'],
      ['titled/SKILL', 'The titled skill', 'Writes titles.'],
    ]);
  });
});
