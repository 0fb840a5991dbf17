/**
 * Broken links (`check`): relative links and images in markdown subjects, resolved as the site
 * resolves them. One knowledge base holds every kind of link; the expected diagnostics are
 * written out whole.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalog, checkLinks, loadMarkdownParser, type Diagnostic } from '../../../src/kb/index.ts';
import type { MarkdownOutline, OutlineMemo } from '../../../src/kb/checks/markdown-facts.ts';
import type { TreeEntry } from '../../helpers/temp-tree.ts';
import { openTree } from '../../helpers/open-tree.ts';

const TOML = `[kb.topic.guide]
subjects = "guide"
disabled = ["drafts/**"]

[kb.topic.ref]
subjects = "ref"
`;

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00]);

const TREE: Record<string, TreeEntry> = {
  'guide/index.md': `---
title: Index
description: "[in front matter](nope.md)"
---

# Index

[file](concepts/slugs.md) [no extension](concepts/slugs) [fragment](concepts/slugs.md#x) [query](concepts/slugs.md?plain=1)
[hidden subject](.internal.md) [folder](concepts/) [topic folder](./) [other topic](../ref/cli.md) [other topic's folder](../ref/)
[external](https://example.com/x.md) [site path](/guide/) [anchor](#top) [mail](mailto:a@example.com) [other format](config.toml)
[missing](concepts/nope.md)
[disabled](drafts/plan.md)
[folder without slash](concepts)
[no such folder](nothing/)
[folder of hidden subjects](secret/)
[outside](../../elsewhere.md)
[bad escape](%C3%28.md) [percent sign](100%.md) [encoded space](my%20notes.md) [angle brackets](<my notes.md>)
![image](img/logo.png)
![missing image](img/none.png)
![svg](img/diagram.svg)
![page](concepts/slugs.md)
![folder](img/)

[definition]: concepts/gone.md

\`[in code](nope.md)\`

\`\`\`md
[in a fence](nope.md)
\`\`\`
`,
  'guide/concepts/slugs.md': '# Slugs\n\nBack to [the index](../index.md); see [hidden subjects](hidden-subjects.md).\n',
  'guide/.internal.md': '# Internal\n',
  'guide/config.toml': 'a = 1\n',
  'guide/100%.md': '# Percent\n',
  'guide/my notes.md': '# My notes\n',
  'guide/drafts/plan.md': '# Plan\n',
  'guide/secret/.notes.md': '# Notes\n',
  'guide/img/logo.png': PNG,
  'guide/img/diagram.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>\n',
  'ref/cli.md': '# CLI\n\n[to the guide](../guide/index.md) [to a missing page](../guide/gone.md)\n',
  'ref/notes.txt': '[not markdown](nope.md)\n',
};

async function linkDiagnostics(allowHtml: boolean, outlines?: OutlineMemo): Promise<{ root: string; diagnostics: Diagnostic[] }> {
  const { root, kb } = openTree(TOML, TREE);
  const [{ catalog }] = await Promise.all([buildCatalog(kb), loadMarkdownParser()]);
  return { root, diagnostics: checkLinks(catalog, { allow_html: allowHtml }, outlines) };
}

const warning = (file: string, line: number, column: number, message: string): Diagnostic => ({ kind: 'warning', code: 'broken-link', message, file, line, column });

/** Every broken link of TREE, in the order `checkLinks` reports them (topics, subjects, then the document). */
function expectedWarnings(root: string): Diagnostic[] {
  const index = path.join(root, 'guide/index.md');
  return [
    warning(
      path.join(root, 'guide/concepts/slugs.md'),
      3,
      39,
      'Broken link "hidden-subjects.md": topic "guide" has no subject "concepts/hidden-subjects" (it is missing or disabled). Fix the link, or add the subject.',
    ),
    warning(index, 11, 1, 'Broken link "concepts/nope.md": topic "guide" has no subject "concepts/nope" (it is missing or disabled). Fix the link, or add the subject.'),
    warning(index, 12, 1, 'Broken link "drafts/plan.md": topic "guide" has no subject "drafts/plan" (it is missing or disabled). Fix the link, or add the subject.'),
    warning(index, 13, 1, 'Broken link "concepts": "concepts" is a folder of topic "guide", not a subject. End the link with "/" to link the folder.'),
    warning(index, 14, 1, 'Broken link "nothing/": topic "guide" has no folder "nothing" with listed subjects, so its page shows no such folder. Fix the link.'),
    warning(index, 15, 1, 'Broken link "secret/": topic "guide" has no folder "secret" with listed subjects, so its page shows no such folder. Fix the link.'),
    warning(
      index,
      16,
      1,
      'Broken link "../../elsewhere.md": it leaves every topic folder, and the site publishes only what topic folders hold. Link to a subject, or write an absolute URL.',
    ),
    warning(index, 17, 1, 'Broken link "%C3%28.md": its %XX escapes do not decode to UTF-8 text. Fix the escapes, or write the characters themselves.'),
    warning(index, 19, 1, 'Broken image "img/none.png": topic "guide" has no file "img/none.png" (it is missing, disabled, or not a subject). Fix the path, or add the file.'),
    warning(
      index,
      20,
      1,
      'Broken image "img/diagram.svg": the site publishes SVG files only with [site] allow_html = true, because an SVG can run scripts. Use a PNG, or trust the content\'s HTML.',
    ),
    warning(index, 21, 1, 'Broken image "concepts/slugs.md": the site shows "concepts/slugs.md" as a page, not as an image file. Link it with [text](…), or name an image.'),
    warning(index, 22, 1, 'Broken image "img/": it names a folder, not a file. Name the image file.'),
    warning(index, 24, 1, 'Broken link "concepts/gone.md": topic "guide" has no subject "concepts/gone" (it is missing or disabled). Fix the link, or add the subject.'),
    warning(
      path.join(root, 'ref/cli.md'),
      3,
      35,
      'Broken link "../guide/gone.md": topic "guide" has no subject "gone" (it is missing or disabled). Fix the link, or add the subject.',
    ),
  ];
}

describe('checkLinks', () => {
  it('reports each relative link and image the site cannot follow, with its line and column', async () => {
    const { root, diagnostics } = await linkDiagnostics(false);
    expect(diagnostics).toEqual(expectedWarnings(root));
  });

  it('accepts SVG images when [site] allow_html is true (the site then publishes them)', async () => {
    const { root, diagnostics } = await linkDiagnostics(true);
    expect(diagnostics).toEqual(expectedWarnings(root).filter((d) => !d.message.startsWith('Broken image "img/diagram.svg"')));
  });

  it('reads the outlines a memo holds instead of parsing, and sets each one it reads, kept or parsed', async () => {
    const first: Map<string, MarkdownOutline> = new Map();
    const empty = { get: () => undefined, set: (sha: string, outline: MarkdownOutline) => void first.set(sha, outline) };
    const { root, diagnostics } = await linkDiagnostics(false, empty);
    expect(diagnostics).toEqual(expectedWarnings(root));
    // The three subjects with link syntax: index.md, concepts/slugs.md and ref/cli.md.
    expect(first.size).toBe(3);

    // A kept outline is what the check reads: one naming a link the file does not hold is reported.
    const [sha, outline] = [...first].find(([, o]) => o.links.some((l) => l.url === '../guide/gone.md'))!;
    const kept = new Map(first).set(sha, { ...outline, links: [{ kind: 'link', url: 'kept.md', line: 9, column: 2 }] });
    const again = new Map<string, MarkdownOutline>();
    const { root: root2, diagnostics: fromMemo } = await linkDiagnostics(false, { get: (key) => kept.get(key), set: (key, o) => void again.set(key, o) });
    expect(fromMemo.filter((d) => d.file === path.join(root2, 'ref/cli.md'))).toEqual([
      warning(path.join(root2, 'ref/cli.md'), 9, 2, 'Broken link "kept.md": topic "ref" has no subject "kept" (it is missing or disabled). Fix the link, or add the subject.'),
    ]);
    expect([...again.keys()].sort()).toEqual([...first.keys()].sort());
  });
});
