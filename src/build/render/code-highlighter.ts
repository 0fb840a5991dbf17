/**
 * Syntax highlighting of the site's code blocks: Shiki, through Astro's markdown package, made so
 * that the HTML of a block depends on its language and its code alone, never on what the process
 * highlighted before nor on how busy the machine is (content/reference/decisions.md, "Deterministic
 * builds").
 *
 * Shiki left to itself lets two other things in. The clock: it stops tokenizing a line after
 * 500 ms and leaves the rest of the line plain, and the first line in a language pays for
 * compiling its grammar. And the languages loaded so far: a grammar highlights the languages it
 * embeds lazily (a Vue component's SCSS style, the fences inside a markdown block) only once
 * something else loaded them, and a grammar that injects itself into others (Vue's, into
 * markdown) changes them from the moment it is loaded. Subjects render several at a time, so
 * either could differ from one build to the next.
 */
import { satteriCreateHighlightFn, type satteriHighlightPlugin } from '@astrojs/markdown-satteri';

/** Highlights `code` in the language `lang` into a hast `<pre>`: what Sätteri's highlight plugin calls. */
export type HighlightCode = Parameters<typeof satteriHighlightPlugin>[0];

type ShikiConfig = NonNullable<Parameters<typeof satteriCreateHighlightFn>[1]>;

/** Shiki themes by name: each gives the tokens a CSS variable `--shiki-<name>`. */
export type CodeThemes = NonNullable<ShikiConfig['themes']>;

/**
 * Shiki's languages whose grammars embed other languages lazily or inject themselves into other
 * grammars, each with its aliases. Each is highlighted by a highlighter of its own that never
 * loads another language, so that nothing else can change it; every other language shares one
 * highlighter, where none of them can change another. test/build/render/code-highlighting.test.ts
 * checks the list against Shiki's grammars.
 */
export const SEPARATE_LANGUAGES: Readonly<Record<string, readonly string[]>> = {
  'angular-html': [],
  'angular-ts': [],
  asciidoc: ['adoc'],
  astro: [],
  erb: [],
  erlang: ['erl'],
  fsharp: ['f#', 'fs'],
  haml: [],
  just: ['justfile'],
  latex: [],
  markdown: ['md'],
  mdc: [],
  mdx: [],
  nim: [],
  nix: [],
  org: [],
  pug: ['jade'],
  rst: [],
  ruby: ['rb'],
  svelte: [],
  'ts-tags': ['lit'],
  twig: [],
  typst: ['typ'],
  vue: [],
  wikitext: ['mediawiki', 'wiki'],
};

/** Tokenizes every line to its end, however long that takes (Shiki's `tokenizeTimeLimit`, 500 ms by default). */
const WHOLE_LINES: NonNullable<ShikiConfig['transformers']>[number] = {
  name: 'syllabus:whole-lines',
  preprocess(_code, options) {
    options.tokenizeTimeLimit = 0;
  },
};

/**
 * Makes the highlighting of the site's code blocks, in `themes`. A language Shiki does not know
 * is shown as plain text, with Shiki's warning, as Astro does.
 */
export async function createCodeHighlighter(themes: CodeThemes): Promise<HighlightCode> {
  const separate = new Map<string, string>();
  for (const [language, aliases] of Object.entries(SEPARATE_LANGUAGES)) for (const name of [language, ...aliases]) separate.set(name, language);
  const highlighters = new Map<string, Promise<HighlightCode>>();
  const highlighterFor = (name: string): Promise<HighlightCode> => {
    let highlighter = highlighters.get(name);
    if (!highlighter) highlighters.set(name, (highlighter = makeHighlighter(name, themes)));
    return highlighter;
  };
  const shared = await highlighterFor('shared');
  return async (code, lang, meta) => {
    const language = separate.get(lang);
    const highlight = language === undefined ? shared : await highlighterFor(language);
    return highlight(code, lang, meta);
  };
}

/** A Shiki highlighter of its own, named `name`; it loads each language on first use. */
async function makeHighlighter(name: string, themes: CodeThemes): Promise<HighlightCode> {
  const highlight = await satteriCreateHighlightFn(
    { type: 'shiki' },
    {
      themes,
      defaultColor: false,
      langs: [],
      // Astro keeps one Shiki highlighter per set of themes and aliases for the whole process and
      // hands it to every caller that asks with the same ones: an alias naming this highlighter
      // keeps it apart from the others and from any Astro makes for itself.
      langAlias: { [`syllabus-highlighter-${name}`]: 'plaintext' },
      wrap: false,
      transformers: [WHOLE_LINES],
    },
  );
  if (!highlight) throw new Error('Astro did not make a Shiki highlighter.');
  return highlight;
}
