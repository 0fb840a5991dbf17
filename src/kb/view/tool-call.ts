/**
 * The agent tools of a knowledge view, offered and answered the one way every host does: the
 * agent server (src/agent/mcp-server.ts) and the agent evaluation (content/reference/evaluations-agent.md)
 * list the same definitions and answer a call with the same text (content/agents/overview.md).
 */
import { FIND_DEFINITION, FIND_USAGE, renderFindResults, type FindResult } from './find.ts';
import { LEARN_USAGE, type Outcome } from '../knowledge/learn.ts';
import type { KnowledgeAnswers } from './view.ts';

/** A tool as an agent is offered it: its name, description and JSON Schema of its arguments. */
export interface AgentToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

/**
 * The tools offered: learn's definition when the view offers it, then find, which is always
 * offered (learned subjects, which leave learn unlisted, can still be found).
 */
export function listAgentTools(learn: AgentToolDefinition | null): AgentToolDefinition[] {
  return [...(learn ? [learn] : []), FIND_DEFINITION];
}

/** The answer of one tool call: its outcome, and for a `find` that succeeded, the subjects found. */
export interface ToolCallAnswer {
  outcome: Outcome;
  found?: readonly FindResult[];
}

/**
 * Answers a call of the tool `name` with raw `args`: `learn` with its text, `find` with its
 * results rendered as lines (`''` when nothing matched); an unknown tool or wrong arguments is an
 * error outcome that says how to call the tools. Rejects only where the view does.
 */
export async function callAgentTool(view: Pick<KnowledgeAnswers, 'learn' | 'find'>, name: string, args: unknown): Promise<ToolCallAnswer> {
  if (name === 'learn') return { outcome: await view.learn(args) };
  if (name === 'find') {
    const found = await view.find(args);
    return found.ok ? { outcome: { ok: true, text: renderFindResults(found.results) }, found: found.results } : { outcome: found };
  }
  return { outcome: { ok: false, message: `Unknown tool ${JSON.stringify(name)}. The tools are "learn" and "find".` } };
}

/**
 * The error outcome of a call of `learn` or `find` whose arguments are not JSON (a model wrote
 * them, and got them wrong): the parser's complaint, then how to call the tool.
 */
export function unparsedArgumentsOutcome(name: 'learn' | 'find', problem: string): Outcome {
  return { ok: false, message: `Invalid arguments: not JSON (${problem}). ${name === 'learn' ? LEARN_USAGE : FIND_USAGE}` };
}
