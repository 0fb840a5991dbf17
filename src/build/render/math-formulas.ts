/**
 * Math in markdown (content/reference/subject-formats.md, "Math"): `$…$` inline, `$$…$$` and
 * ```` ```math ```` fences as displays, typeset at build time by KaTeX into HTML (what readers
 * see, with KaTeX's stylesheet and fonts, published by content-assets.ts) and MathML (what
 * screen readers read). KaTeX runs with `trust: false`, so a formula can never make a link,
 * a class, a style or an image of its own; the sanitiser (sanitize-html.ts) checks its output
 * like everything else the renderer makes.
 */
import fs from 'node:fs';
import katex from 'katex';
import type { Element } from 'hast';
import type { HastPluginDefinition, MdastPluginDefinition } from 'satteri';
import { katexStylesheetFile } from '../content-assets.ts';

/** What a rendering needs besides its HTML: set on the render's data bag by the content plugins. */
export interface ContentNeeds {
  /** The page shows math: it links KaTeX's stylesheet. */
  math?: boolean;
  /** The page shows a diagram: it loads the diagram script. */
  diagrams?: boolean;
}

/** The key of {@link ContentNeeds} in a render's data bag. */
export const CONTENT_NEEDS = 'syllabusContent';

/** Typesets `tex` as HTML and MathML: a display (a block) or inline. Never throws: an error shows as KaTeX's red source text. */
export function typesetMath(tex: string, display: boolean): string {
  return katex.renderToString(tex, { displayMode: display, throwOnError: false, output: 'htmlAndMathml', trust: false, strict: 'ignore', maxExpand: 1000, maxSize: 50 });
}

/** Whether `markdown` can hold inline math, which only a `$` of its source opens. */
export function mayHoldMath(markdown: string): boolean {
  return markdown.includes('$');
}

/**
 * The mdast plugin that keeps dollars in prose as text (Pandoc's rule): inline math must not
 * start or end with a space and its closing `$` must not be followed by a digit, so that
 * "between $5 and $10" and "echo $HOME $USER" read as written.
 */
export function createDollarsPlugin(): MdastPluginDefinition {
  return {
    name: 'syllabus-dollars',
    inlineMath(node, ctx) {
      const parent = ctx.parent(node);
      const index = ctx.indexOf(node);
      const next = parent && index !== undefined ? parent.children[index + 1] : undefined;
      if (!/^\s|\s$/.test(node.value) && !(next?.type === 'text' && /^\d/.test(next.value))) return;
      ctx.replaceNode(node, { type: 'text', value: `$${node.value}$` });
    },
  };
}

/** The classes of a `<code>` element, as strings. */
function classesOf(node: Element): string[] {
  const value = node.properties?.['className'];
  return Array.isArray(value) ? value.map(String) : [];
}

/**
 * The hast plugin that typesets math: Sätteri's inline (`code.math-inline`) and display
 * (`pre > code.math-display`, `pre > code.language-math` for a fence) elements become KaTeX's
 * output, and the render's data bag records that the page needs KaTeX's stylesheet.
 */
export function createMathPlugin(): HastPluginDefinition {
  return {
    name: 'syllabus-math',
    element: {
      filter: ['code'],
      visit(node, ctx) {
        const classes = classesOf(node);
        if (!classes.includes('language-math')) return;
        const parent = ctx.parent(node);
        const display = !classes.includes('math-inline');
        const tex = ctx.textContent(node).replace(/\n$/, '');
        const html = typesetMath(tex, display);
        // A display replaces its `<pre>` whole; the sanitiser reads the HTML with the rest of the page.
        const target = display && parent?.type === 'element' && parent.tagName === 'pre' ? parent : node;
        ctx.replaceNode(target, { type: 'raw', value: html });
        const needs = (ctx.data[CONTENT_NEEDS] ??= {}) as ContentNeeds;
        needs.math = true;
      },
    },
  };
}

let classes: string[] | undefined;

/** The classes KaTeX's stylesheet styles: the only ones of its output the sanitiser keeps (the others change nothing). */
export function katexClasses(): string[] {
  if (classes) return classes;
  const css = fs.readFileSync(katexStylesheetFile(), 'utf8').replace(/url\([^)]*\)/g, '');
  classes = [...new Set([...css.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]!))].sort();
  return classes;
}
