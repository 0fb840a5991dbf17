/**
 * Broken `topic/slug` mentions (`check`): whole inline code spans that name a topic of the
 * knowledge base and, after the slash, no subject of it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, checkMentions, loadMarkdownParser, type Diagnostic } from '../../../src/kb/index.ts';
import type { TreeEntry } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';

const TOML = `[kb.topic.guide]
subjects = "guide"
disabled = ["drafts/**"]

[kb.topic.reference]
subjects = "reference"

[kb.topic.old]
enable = false
subjects = "old"
`;

async function mentionDiagnostics(entries: Record<string, TreeEntry>): Promise<{ root: string; diagnostics: Diagnostic[] }> {
  const { root, kb } = openTree(TOML, {
    'guide/concepts/slugs.md': '# Slugs\n',
    'guide/.internals/algo.md': '# Algo\n',
    'reference/cli/check.md': '# check\n',
    'old/x.md': '# X\n',
    'guide/drafts/plan.md': '# Plan\n',
    ...entries,
  });
  const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
  return { root, diagnostics: checkMentions(catalog) };
}

const warning = (file: string, line: number, column: number, message: string): Diagnostic => ({ kind: 'warning', code: 'broken-mention', message, file, line, column });

describe('checkMentions', () => {
  it('accepts mentions that name a subject: exact slugs (hidden ones too), globs over listed subjects, folders, file paths', async () => {
    const { diagnostics } = await mentionDiagnostics({
      'guide/index.md': [
        '# Index',
        '',
        'Slugs: `guide/concepts/slugs`, `reference/cli/check`, `` guide/concepts/slugs ``.',
        'Hidden, by its slug or its path: `guide/internals/algo`, `guide/.internals/algo`, `guide/.internals/algo.md`.',
        'Globs and folders: `guide/concepts/*`, `guide/**`, `guide/concepts/`, `reference/cli/{check,build}`.',
        'A file path: `guide/concepts/slugs.md`; in a link: [`reference/cli/check`](../reference/cli/check.md).',
        '',
      ].join('\n'),
    });
    expect(diagnostics).toEqual([]);
  });

  it('leaves alone code that is not a mention: other first segments, placeholders, white space, code blocks, text subjects', async () => {
    const { diagnostics } = await mentionDiagnostics({
      'guide/index.md': [
        '# Index',
        '',
        'Not topics: `src/index.ts`, `kb/index.json`, `Guide/nope`, `old/x`, `./guide/nope`.',
        'Placeholders and whole topics: `guide/<slug>`, `guide/…`, `guide/`, `guide`.',
        'Not a whole span of one word: `learn guide/nope`, `guide/nope and more`, guide/nope.',
        '',
        '```sh',
        'syllabus learn `guide/nope`',
        '```',
        '',
        '    `guide/indented-code`',
        '',
      ].join('\n'),
      'guide/notes.txt': 'A text subject: `guide/nope`.\n',
    });
    expect(diagnostics).toEqual([]);
  });

  it('reports mentions that name nothing, with the line and column of the code span', async () => {
    const { root, diagnostics } = await mentionDiagnostics({
      'guide/index.md': [
        '---',
        'title: Index',
        'description: "`guide/in-front-matter`"',
        '---',
        '',
        'Missing: `guide/nope`, `reference/cli/chek`.',
        'Disabled: `guide/drafts/plan`.',
        'A folder: `guide/concepts`.',
        'Globs never select hidden subjects: `guide/internals/*`; `guide/nothing/` matches nothing.',
        '',
      ].join('\n'),
    });
    const file = path.join(root, 'guide/index.md');
    expect(diagnostics).toEqual([
      warning(
        file,
        6,
        10,
        'Broken mention "guide/nope": topic "guide" has no subject "nope" (it is missing or disabled). Fix the slug; start a path that is not a subject with "./".',
      ),
      warning(
        file,
        6,
        24,
        'Broken mention "reference/cli/chek": topic "reference" has no subject "cli/chek" (it is missing or disabled). Fix the slug; start a path that is not a subject with "./".',
      ),
      warning(
        file,
        7,
        11,
        'Broken mention "guide/drafts/plan": topic "guide" has no subject "drafts/plan" (it is missing or disabled). Fix the slug; start a path that is not a subject with "./".',
      ),
      warning(file, 8, 11, 'Broken mention "guide/concepts": "concepts" is a folder of topic "guide", not a subject. Write "guide/concepts/*" for its subjects.'),
      warning(
        file,
        9,
        37,
        'Broken mention "guide/internals/*": the pattern "internals/*" matches no listed subject of topic "guide" (globs never select hidden subjects). Fix the pattern.',
      ),
      warning(
        file,
        9,
        58,
        'Broken mention "guide/nothing/": the pattern "nothing/**" matches no listed subject of topic "guide" (globs never select hidden subjects). Fix the pattern.',
      ),
    ]);
  });
});
