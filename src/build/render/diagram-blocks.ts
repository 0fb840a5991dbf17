/**
 * Mermaid diagrams in markdown (content/reference/subject-formats.md, "Diagrams"): a
 * ```` ```mermaid ```` fence becomes a `<figure class="diagram">` that keeps the fence as it was
 * (its source, readable without a script), which the page's diagram script
 * (src/site-client/diagrams.ts) draws as an SVG in the reader's browser, with the mermaid
 * library the site publishes itself.
 */
import type { Element } from 'hast';
import type { HastPluginDefinition } from 'satteri';
import { CONTENT_NEEDS, type ContentNeeds } from './math-formulas.ts';

/** The fence languages drawn as diagrams. */
export const DIAGRAM_LANGUAGES = ['mermaid'] as const;

/**
 * The hast plugin that marks diagrams: each `pre` holding a `code.language-mermaid` is wrapped
 * in a `<figure class="diagram">`, and the render's data bag records that the page needs the
 * diagram script.
 */
export function createDiagramsPlugin(): HastPluginDefinition {
  return {
    name: 'syllabus-diagrams',
    element: {
      filter: ['pre'],
      visit(node, ctx) {
        const code = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
        const classes = code?.properties?.['className'];
        if (!Array.isArray(classes) || !DIAGRAM_LANGUAGES.some((language) => classes.includes(`language-${language}`))) return;
        ctx.wrapNode(node, { type: 'element', tagName: 'figure', properties: { className: ['diagram'] }, children: [] });
        const needs = (ctx.data[CONTENT_NEEDS] ??= {}) as ContentNeeds;
        needs.diagrams = true;
      },
    },
  };
}
