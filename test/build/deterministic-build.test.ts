/**
 * Deterministic builds (content/reference/decisions.md, "Deterministic builds"): builds of the same
 * knowledge base write the same bytes, from scratch wherever it is, from the cache, and
 * incrementally, here with subjects whose highlighting embeds other languages (HTML with scripts
 * and styles, Vue and Svelte components, Astro and MDX files, markdown fences of many languages).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliAsync } from '../helpers/run-cli.ts';
import { makeTree, writeTree, type TreeEntry } from '../helpers/temp-tree.ts';

/** Files Pagefind names by a hash of their content: their names differ whenever any content does. */
const PAGEFIND_HASHED = /^pagefind\/.*_[0-9a-f]{7,}\.pf_(fragment|index|filter|meta)$/;
/** The file naming the hashed files: Pagefind numbers pages as its threads finish them (content/reference/decisions.md). */
const PAGEFIND_ENTRY = /^pagefind\/[^/]+\/pagefind-entry\.json$/;

const WORDS = ['amber', 'birch', 'cedar', 'delta', 'ember', 'fjord', 'grove', 'harbor', 'islet', 'juniper', 'kestrel', 'lagoon'];

/** The knowledge base: subjects whose languages embed others; `before` has one Vue component as it was before an edit. */
function knowledgeBase(version: 'before' | 'after' = 'after'): Record<string, TreeEntry> {
  const tree: Record<string, TreeEntry> = {
    'kb.toml': '[site]\ntitle = "Embedded languages"\nurl = "https://embedded.example.test"\n\n[kb.topic.web]\ntitle = "Web"\nsubjects = "web"\n',
  };
  WORDS.forEach((word, i) => {
    tree[`web/page-${word}.html`] = `<div onclick="go${i}()">${word}</div><script>const ${word} = ${i};</script><style>.${word}{color:red}</style>\n`;
    tree[`web/notes-${word}.md`] = [
      `# Notes on ${word}`,
      '',
      '```html',
      `<p class="${word}"><script>let n = ${i};</script></p>`,
      '```',
      '',
      '```js',
      `export const ${word} = () => ${i};`,
      '```',
      '',
      '```css',
      `.${word} > a:hover { color: #${i}${i}${i}; }`,
      '```',
      '',
      '```ts',
      `const ${word}: number = ${i};`,
      '```',
      '',
      '```python',
      `def ${word}(): return ${i}`,
      '```',
      '',
      '```scss',
      `.${word} { .inner { margin: ${i}px; } }`,
      '```',
      '',
      '```vue',
      `<template><b>{{ ${word} }}</b></template>`,
      '```',
      '',
      '~~~markdown',
      `# ${word}`,
      '',
      '```js',
      `const ${word} = ${i}`,
      '```',
      '~~~',
      '',
    ].join('\n');
  });
  WORDS.slice(0, 8).forEach((word, i) => {
    const style = version === 'after' && i === 7 ? `.${word} { .edited { padding: 1px; } }` : `.${word} { .inner { color: blue; } }`;
    tree[`web/view-${word}.vue`] =
      `<template>\n  <p class="${word}" @click="go">{{ ${word} }}</p>\n</template>\n<script setup lang="ts">\nconst ${word}: string = '${i}';\n</script>\n<style scoped lang="scss">\n${style}\n</style>\n`;
  });
  WORDS.slice(0, 4).forEach((word, i) => {
    tree[`web/widget-${word}.svelte`] =
      `<script lang="ts">\n  let ${word}: number = ${i};\n</script>\n<button on:click={() => ${word}++}>{${word}}</button>\n<style lang="scss">button { .${word} { color: red; } }</style>\n`;
  });
  tree['web/layout.astro'] = '---\nconst title: string = "Layout";\n---\n<h1 class="title">{title}</h1>\n<style lang="scss">h1 { .a { color: red; } }</style>\n';
  tree['web/post.mdx'] = "import Chart from './chart.tsx'\n\n# Post\n\n<Chart points={[1, 2]} />\n\n```python\nprint('post')\n```\n";
  return tree;
}

/** A build's output folder, and its mode and warnings as `--json` gives them. */
interface Built {
  out: string;
  mode: string;
  warnings: string[];
}

/** Builds the knowledge base in `dir` into `dir/out` with the cache `dir/cache`, started in folder `cwd`. */
async function build(dir: string, out: string, cache: string, cwd: string): Promise<Built> {
  const run = await runCliAsync(['build', '--config', path.join(dir, 'kb.toml'), '--out', path.join(dir, out), '--cache', path.join(dir, cache), '--json'], { cwd });
  expect(run.code, run.stderr).toBe(0);
  const summary = JSON.parse(run.stdout) as { mode: string; warnings: string[] };
  return { out: path.join(dir, out), mode: summary.mode, warnings: summary.warnings };
}

/**
 * Every file of a built site by its path, as bytes: Pagefind's content-hashed files left out, and
 * the build's marker, which is no part of the site (it names the cache's record of the build, whose
 * keys cover where the knowledge base is, and Syllabus's own source files, which others may edit
 * while the test runs).
 */
function readOutput(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    const relative = name.split(path.sep).join('/');
    const full = path.join(dir, name);
    if (relative === '.syllabus-build' || PAGEFIND_HASHED.test(relative) || PAGEFIND_ENTRY.test(relative) || !fs.statSync(full).isFile()) continue;
    files.set(relative, fs.readFileSync(full));
  }
  return files;
}

/** The files of `other` whose bytes differ from those of `first`. */
function differing(first: Map<string, Buffer>, other: Map<string, Buffer>): string[] {
  return [...first].filter(([name, bytes]) => !other.get(name)?.equals(bytes)).map(([name]) => name);
}

let builds: Built[];
let started: string;
let clean: Map<string, Buffer>[];
let incremental: Map<string, Buffer>;
let fromCache: Map<string, Buffer>;

beforeAll(async () => {
  // The knowledge base, and a copy in another folder, deeper: built from scratch each, with fresh
  // output and cache folders. The copy's build runs while the first folder's builds follow one
  // another, all started in a third folder: their outputs are outside it, so Astro prerenders in
  // its `.astro/`, which the builds take turns at.
  const dir = makeTree(knowledgeBase());
  started = makeTree({});
  const copies = ['nested/deeper/copy'].map((folder) => path.join(makeTree({}), folder));
  for (const copy of copies) writeTree(copy, knowledgeBase());
  const [first, ...others] = await Promise.all([buildFirstFolder(dir), ...copies.map((folder, i) => build(folder, `dist-${i + 2}`, `.cache-${i + 2}`, started))]);
  const scratch = [first.scratch, ...others];
  clean = [first.clean, ...others.map((b) => readOutput(b.out))];
  fromCache = readOutput(first.rebuilt.out);
  incremental = readOutput(first.again.out);
  builds = [...scratch, first.rebuilt, first.before, first.again];
});

/** The builds of the first folder, in order: from scratch, from the cache, then incremental. */
async function buildFirstFolder(dir: string) {
  const scratch = await build(dir, 'dist-1', '.cache-1', started);
  const clean = readOutput(scratch.out);
  // The first build again, into an empty output folder: every page built again, every subject's
  // rendering from the cache, and the cache's record of the first build to compare each page with.
  fs.rmSync(scratch.out, { recursive: true });
  const rebuilt = await build(dir, 'dist-1', '.cache-1', started);
  // The edited Vue component comes late in the build: a full build meets the languages of the
  // subjects before it first, the incremental one never does.
  const edited = 'web/view-harbor.vue';
  fs.writeFileSync(path.join(dir, edited), knowledgeBase('before')[edited] as string);
  const before = await build(dir, 'dist-incremental', '.cache-incremental', started);
  fs.writeFileSync(path.join(dir, edited), knowledgeBase('after')[edited] as string);
  // The compiled pages the previous build kept are damaged: the incremental build runs Astro's own
  // build instead, and says nothing (test/astro/incremental-build.test.ts covers the kept pages).
  const kept = path.join(dir, '.cache-incremental', 'pages-bundle');
  const { entry } = JSON.parse(fs.readFileSync(path.join(kept, 'bundle.json'), 'utf8')) as { entry: string };
  fs.writeFileSync(path.join(kept, entry), 'throw new Error("a damaged cache");\n');
  const again = await build(dir, 'dist-incremental', '.cache-incremental', started);
  return { scratch, clean, rebuilt, before, again };
}

describe('building the same knowledge base again', () => {
  it('writes no empty file, the search index included', () => {
    for (const built of builds) {
      const empty = fs.readdirSync(built.out, { recursive: true, encoding: 'utf8' }).filter((name) => {
        const stat = fs.statSync(path.join(built.out, name));
        return stat.isFile() && stat.size === 0;
      });
      expect(empty).toEqual([]);
    }
  });

  it('writes the same files from scratch, byte for byte, wherever the knowledge base is', () => {
    const [first, ...others] = clean;
    for (const other of others) {
      expect([...other.keys()]).toEqual([...first!.keys()]);
      expect(differing(first!, other)).toEqual([]);
    }
  });

  it('writes the same files incrementally as from scratch, byte for byte', () => {
    expect([...incremental.keys()]).toEqual([...clean[0]!.keys()]);
    expect(differing(clean[0]!, incremental)).toEqual([]);
  });

  it('writes the same files from the cache as from scratch, byte for byte, and its record sees nothing amiss', () => {
    expect([...fromCache.keys()]).toEqual([...clean[0]!.keys()]);
    expect(differing(clean[0]!, fromCache)).toEqual([]);
    expect(builds[2]!.warnings).toEqual(builds[0]!.warnings);
  });

  it('leaves nothing in the folder the builds were started in', () => {
    expect(fs.readdirSync(started)).toEqual([]);
  });

  it('builds in full four times (the third from the cache), then once on top of a previous build', () => {
    expect(builds.map((b) => b.mode)).toEqual(['full', 'full', 'full', 'full', 'incremental']);
  });

  it('builds every subject the fixture means to compare', () => {
    const pages = [...clean[0]!.keys()].filter((name) => /^web\/[^/]+\/index\.html$/.test(name));
    expect(pages.length).toBe(WORDS.length * 2 + 8 + 4 + 2);
  });
});
