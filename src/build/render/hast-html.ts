/** Writing a hast tree as HTML the way the markdown renderer writes its own output. */
import type { Root } from 'hast';

/**
 * Makes a function that writes a hast tree as HTML with Sätteri's serialiser, the one that wrote
 * every rendering, so that HTML made from a tree and HTML the renderer made agree byte for byte
 * (both end with a newline). Loads Sätteri on first use, as the renderer does.
 */
export async function createHastSerializer(): Promise<(tree: Root) => string> {
  const { markdownToHtml } = await import('satteri');
  // Sätteri serialises a tree only as the result of a compile: the empty document's root is replaced by the tree.
  return (tree) => markdownToHtml('', { hastPlugins: [{ name: 'syllabus-serialize', before: (root, ctx) => ctx.replaceNode(root, tree) }] }).html;
}
