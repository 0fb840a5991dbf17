/**
 * What the agent server (and any other host that answers agents) asks of a knowledge base,
 * wherever it lives: local files (`createLocalSource`, src/agent/local-source.ts) or a published
 * site (`createRemoteSource`, src/remote/remote-source.ts). Both give byte-identical answers.
 */
import type { LearnToolDefinition, Outcome } from '../kb/knowledge/learn.ts';
import type { SiteIndex } from '../kb/publish/endpoint-schemas.ts';

/** A knowledge base as agents see it. Every method may be called many times; sources cache. */
export interface KnowledgeSource {
  /** The `learn` tool definition (SPEC 4), or null when no topic is listable. */
  tool(): Promise<LearnToolDefinition | null>;
  /**
   * Runs `learn` on raw tool arguments: they are checked with `parseLearnArguments`, so a wrong
   * type is an error outcome, never an exception.
   */
  learn(args: unknown): Promise<Outcome>;
  /**
   * Runs `find` (SPEC 8) on raw tool arguments, checked with `parseFindArguments`: the text of the
   * subjects found (`''` for none), or an error outcome.
   */
  find(args: unknown): Promise<Outcome>;
  /** The `<knowledge>` section, or null when there is none. */
  prompt(): Promise<string | null>;
  /** The catalog, as `/kb/index.json` holds it. */
  index(): Promise<SiteIndex>;
  /** Releases what the source holds open (file watchers, connections). */
  close(): void;
}
