/** Opens a knowledge base from an inline tree whose `kb.toml` sits at the tree's root. */
import path from 'node:path';
import { loadConfig, openKnowledgeBase, type KnowledgeBase } from '../../src/kb/index.ts';
import { makeTree, type TreeEntry } from './temp-tree.ts';

/** A knowledge base opened from a temporary tree, with the root of that tree. */
export interface OpenedTree {
  root: string;
  kb: KnowledgeBase;
}

/** Builds the tree, loads `<root>/kb.toml` (which must be valid) and opens the knowledge base. */
export function openTree(toml: string, entries: Record<string, TreeEntry>): OpenedTree {
  const root = makeTree({ 'kb.toml': toml, ...entries });
  const { config, diagnostics } = loadConfig([{ file: path.join(root, 'kb.toml'), text: toml }]);
  if (!config) throw new Error(`config did not load: ${JSON.stringify(diagnostics)}`);
  return { root, kb: openKnowledgeBase(config) };
}
