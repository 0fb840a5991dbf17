/** `learn` on a local knowledge base, through its knowledge view, for tests that give checked arguments. */
import { createLocalView, type KnowledgeBase } from '../../src/kb/index.ts';
import type { Outcome } from '../../src/kb/knowledge/learn.ts';
import { type LearnArguments } from '../../src/kb/knowledge/learn.ts';

/** What the local view's `learn` answers to `{ topic, subjects: patterns }`. */
export function learnLocally(kb: KnowledgeBase, args: LearnArguments): Promise<Outcome> {
  return createLocalView(kb).learn({ topic: args.topic, subjects: args.patterns });
}
