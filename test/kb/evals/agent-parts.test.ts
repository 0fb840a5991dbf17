/**
 * The pure parts of the agent evaluation (src/kb/evals/): reading a chat answer, reading a judge's
 * verdict, and what the cache key depends on (content/reference/evaluations-agent.md).
 */
import { describe, expect, it } from 'vitest';
import { parseChatReply, renderSystemMessage, AGENT_INSTRUCTION } from '../../../src/kb/evals/agent-chat.ts';
import { parseVerdict } from '../../../src/kb/evals/agent-judge.ts';
import { agentCacheKey, knowledgeDigest, type AgentCacheSettings } from '../../../src/kb/evals/agent-cache-key.ts';
import type { EvalQuestion } from '../../../src/kb/evals/questions.ts';
import type { SiteIndex } from '../../../src/kb/publish/endpoint-schemas.ts';

describe('parseChatReply', () => {
  it('reads the text, the tool calls and the usage', () => {
    const body = JSON.stringify({
      choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a1', type: 'function', function: { name: 'find', arguments: '{"query":"x"}' } }] } }],
      usage: { prompt_tokens: 12, completion_tokens: 3 },
    });
    expect(parseChatReply(body)).toEqual({
      ok: true,
      reply: {
        content: null,
        toolCalls: [{ id: 'a1', type: 'function', function: { name: 'find', arguments: '{"query":"x"}' } }],
        usage: { promptTokens: 12, completionTokens: 3 },
      },
    });
  });

  it('names calls without an id by their place, keeps object arguments as JSON, and has no usage without one', () => {
    const body = JSON.stringify({
      choices: [{ message: { content: 'hm', tool_calls: [{ function: { name: 'learn', arguments: { topic: 'guide' } } }, { id: '', function: { name: 'find' } }] } }],
    });
    expect(parseChatReply(body)).toEqual({
      ok: true,
      reply: {
        content: 'hm',
        toolCalls: [
          { id: 'call_0', type: 'function', function: { name: 'learn', arguments: '{"topic":"guide"}' } },
          { id: 'call_1', type: 'function', function: { name: 'find', arguments: 'null' } },
        ],
        usage: undefined,
      },
    });
  });

  it('refuses a body that is not JSON, and JSON without a message', () => {
    expect(parseChatReply('<html>\n  Bad gateway</html>')).toEqual({ ok: false, failure: { reason: 'not-json', start: '<html> Bad gateway</html>' } });
    expect(parseChatReply('{"choices": []}')).toEqual({ ok: false, failure: { reason: 'no-message' } });
    expect(parseChatReply('null')).toEqual({ ok: false, failure: { reason: 'no-message' } });
  });
});

describe('renderSystemMessage', () => {
  it('is the instruction, then the section when there is one', () => {
    expect(renderSystemMessage('<knowledge>\nx\n</knowledge>')).toBe(`${AGENT_INSTRUCTION}\n\n<knowledge>\nx\n</knowledge>`);
    expect(renderSystemMessage(null)).toBe(AGENT_INSTRUCTION);
  });
});

describe('parseVerdict', () => {
  it('reads a JSON verdict, also fenced or after a <think> block', () => {
    expect(parseVerdict('{"pass": true, "reason": "ok"}')).toEqual({ ok: true, verdict: { pass: true, reason: 'ok' } });
    expect(parseVerdict('<think>hmm</think>\n```json\n{"pass": false, "reason": "no"}\n```')).toEqual({ ok: true, verdict: { pass: false, reason: 'no' } });
  });

  it('refuses anything else, saying what it got', () => {
    expect(parseVerdict('{"pass": "yes", "reason": "ok"}')).toEqual({
      ok: false,
      message: 'the judge did not answer with {"pass": true|false, "reason": "…"} (it answered "{\\"pass\\": \\"yes\\", \\"reason\\": \\"ok\\"}")',
    });
    expect(parseVerdict(null)).toEqual({ ok: false, message: 'the judge did not answer with {"pass": true|false, "reason": "…"} (it answered "")' });
  });
});

describe('agentCacheKey', () => {
  const question: EvalQuestion = { id: 'q', ask: 'How?', expect: [{ topic: 't', slug: 'a' }], answerIncludes: ['x'], rubric: undefined, line: 3 };
  const settings: AgentCacheSettings = { endpoint: 'http://e/v1/chat/completions', model: 'm', judgeModel: 'j', maxTurns: 8, system: 'S', tools: [] };
  const key = agentCacheKey(question, settings, 'd');

  it('changes with everything a result depends on', () => {
    const changed = [
      agentCacheKey({ ...question, ask: 'How so?' }, settings, 'd'),
      agentCacheKey({ ...question, expect: [{ topic: 't', slug: 'b' }] }, settings, 'd'),
      agentCacheKey({ ...question, answerIncludes: ['y'] }, settings, 'd'),
      agentCacheKey({ ...question, rubric: 'R' }, settings, 'd'),
      agentCacheKey(question, { ...settings, endpoint: 'http://f/v1/chat/completions' }, 'd'),
      agentCacheKey(question, { ...settings, model: 'n' }, 'd'),
      agentCacheKey(question, { ...settings, maxTurns: 9 }, 'd'),
      agentCacheKey(question, { ...settings, system: 'T' }, 'd'),
      agentCacheKey(question, { ...settings, tools: [{ type: 'function', function: { name: 'find', description: '', parameters: {} } }] }, 'd'),
      agentCacheKey(question, settings, 'e'),
    ];
    expect(new Set([key, ...changed]).size).toBe(changed.length + 1);
  });

  it('keeps a result through a new id or line, and a new judge model for a question without a rubric', () => {
    expect([agentCacheKey({ ...question, id: 'renamed', line: 40 }, settings, 'd'), agentCacheKey(question, { ...settings, judgeModel: 'k' }, 'd')]).toEqual([key, key]);
    const judged = { ...question, rubric: 'R' };
    expect(agentCacheKey(judged, { ...settings, judgeModel: 'k' }, 'd')).not.toBe(agentCacheKey(judged, settings, 'd'));
  });
});

describe('knowledgeDigest', () => {
  const index = (sha: string) => ({ topics: [{ id: 't', subjects: [{ slug: 'a', sha256: sha }] }] }) as unknown as SiteIndex;
  it('changes with a subject’s content, and only with what the index says', () => {
    expect(knowledgeDigest(index('1'.repeat(64)))).toBe(knowledgeDigest(index('1'.repeat(64))));
    expect(knowledgeDigest(index('1'.repeat(64)))).not.toBe(knowledgeDigest(index('2'.repeat(64))));
  });
});
