/**
 * Syntax highlighting of the site's code blocks, with Shiki, made so that the HTML of a block
 * depends on its language and its code alone, never on what the process highlighted before nor on
 * how busy the machine is (content/reference/decisions.md, "Deterministic builds"). The blocks
 * look as Astro's own highlighting makes them (`astro-code` classes, `data-language`, scrolling,
 * unselectable diff markers), so that a subject renders the same in a host site.
 *
 * Shiki left to itself lets two other things in. The clock: it stops tokenizing a line after
 * 500 ms and leaves the rest of the line plain, and the first line in a language pays for
 * compiling its grammar. And the languages loaded so far: a grammar highlights the languages it
 * embeds lazily (a Vue component's SCSS style, the fences inside a markdown block) only once
 * something else loaded them, and a grammar that injects itself into others (Vue's, into
 * markdown) changes them from the moment it is loaded. Subjects render several at a time, so
 * either could differ from one build to the next.
 */
import type { Element } from 'hast';
import { createHighlighter, createOnigurumaEngine, isSpecialLang, type BundledLanguage, type Highlighter, type ShikiTransformer } from 'shiki';
import { grammarOf } from './language-grammars.ts';

/** Highlights `code` in the language `lang` (with a fence's `meta`) into a hast `<pre>`. */
export type HighlightCode = (code: string, lang: string, meta?: string) => Promise<Element>;

/** Shiki themes by name: each gives the tokens a CSS variable `--shiki-<name>`. */
export type CodeThemes = Readonly<Record<string, string>>;

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
const WHOLE_LINES: ShikiTransformer = {
  name: 'syllabus:whole-lines',
  preprocess(_code, options) {
    options.tokenizeTimeLimit = 0;
  },
};

/**
 * Makes the highlighting of the site's code blocks, in `themes`. A language Shiki lacks is
 * highlighted by the closest grammar it has (language-grammars.ts), or shown as plain text; either
 * way nothing is printed: an unknown fence language is the content's business, not the build's.
 */
export async function createCodeHighlighter(themes: CodeThemes): Promise<HighlightCode> {
  const separate = new Map<string, string>();
  for (const [language, aliases] of Object.entries(SEPARATE_LANGUAGES)) for (const name of [language, ...aliases]) separate.set(name, language);
  // One regular expression engine (Oniguruma, as Astro's) for every highlighter.
  const engine = createOnigurumaEngine(import('shiki/wasm'));
  const highlighters = new Map<string, Promise<Highlighter>>();
  const highlighterFor = (name: string): Promise<Highlighter> => {
    let highlighter = highlighters.get(name);
    if (!highlighter) highlighters.set(name, (highlighter = createHighlighter({ themes: Object.values(themes), langs: ['plaintext'], engine, warnings: false })));
    return highlighter;
  };
  await highlighterFor('shared');
  return async (code, lang, meta) => {
    const language = grammarOf(lang);
    const highlighter = await highlighterFor(separate.get(language) ?? 'shared');
    return highlightWith(highlighter, themes, code, language, meta, lang);
  };
}

/**
 * Highlights as Astro does: the block's classes, attributes and diff markers. `lang` is one of
 * Shiki's languages ({@link grammarOf}); `written` the language as the block names it, which the
 * block's label shows (`data-label`) where it is not `lang` (`xsd` highlighted as `xml`).
 */
async function highlightWith(highlighter: Highlighter, themes: CodeThemes, code: string, lang: string, meta: string | undefined, written: string): Promise<Element> {
  let language = lang;
  if (!isSpecialLang(language) && !highlighter.getLoadedLanguages().includes(language)) {
    try {
      await highlighter.loadLanguage(language as BundledLanguage);
    } catch {
      // A bundled grammar that fails to load is shown as plain text too: a page never fails for its colours.
      language = 'plaintext';
    }
  }
  const root = highlighter.codeToHast(code.replace(/(?:\r\n|\r|\n)$/, ''), {
    themes,
    defaultColor: false,
    lang: language,
    ...(meta ? { meta: { __raw: meta } } : {}),
    transformers: [astroLook(language, language === 'diff', written), WHOLE_LINES],
  });
  return root.children[0] as Element;
}

/** The look Astro gives its code blocks, and the label of a block whose written language is not its grammar's. */
function astroLook(language: string, diff: boolean, written: string): ShikiTransformer {
  return {
    name: 'syllabus:astro-look',
    pre(node) {
      const classes = node.properties['class'];
      node.properties['class'] = (Array.isArray(classes) ? classes.join(' ') : String(classes ?? '')).replace(/shiki/g, 'astro-code');
      node.properties['dataLanguage'] = language;
      if (written !== '' && written !== language) node.properties['dataLabel'] = written;
      node.properties['style'] = `${String(node.properties['style'] ?? '')}; overflow-x: auto;`;
    },
    line(node) {
      if (!diff) return;
      // A diff's `+` and `-` are kept out of a copied selection.
      const first = node.children[0];
      const text = first?.type === 'element' ? first.children[0] : undefined;
      if (first?.type !== 'element' || text?.type !== 'text') return;
      const marker = text.value[0];
      if (marker !== '+' && marker !== '-') return;
      text.value = text.value.slice(1);
      first.children.unshift({ type: 'element', tagName: 'span', properties: { style: 'user-select: none;' }, children: [{ type: 'text', value: marker }] });
    },
  };
}
