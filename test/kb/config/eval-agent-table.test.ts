/** The `[eval.agent]` table (content/reference/configuration.md): defaults, required keys, checked values, merging. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kb/index.ts';

const FILE = path.join('/kb', 'kb.toml');
const TOPIC = '[kb.topic.t]\nsubjects = "t"\n';
const load = (text: string) => loadConfig([{ file: FILE, text: `${TOPIC}${text}` }]);

describe('the [eval.agent] table', () => {
  it('applies the defaults', () => {
    expect(load('[eval.agent]\nendpoint = "http://127.0.0.1:11434/v1/chat/completions"\nmodel = "qwen3"\n').config?.eval).toEqual({
      agent: {
        endpoint: 'http://127.0.0.1:11434/v1/chat/completions',
        model: 'qwen3',
        api_key_env: 'SYLLABUS_LLM_KEY',
        judge_model: undefined,
        concurrency: 4,
        timeout_seconds: 60,
        max_turns: 8,
        min_score: undefined,
      },
    });
  });

  it('is absent without the table', () => {
    expect(load('').config?.eval).toEqual({ agent: undefined });
  });

  it('needs an endpoint and a model: configuration errors at the table', () => {
    const { config, diagnostics } = load('[eval.agent]\nmax_turns = 3\n');
    expect(config).toBeUndefined();
    const message = (key: string) =>
      `eval.agent.${key}: missing. The agent evaluation needs endpoint = "https://…/v1/chat/completions" and model = "<model name>"; remove [eval.agent] if no model is to answer the question set.`;
    expect(diagnostics).toEqual([
      { kind: 'config-error', code: 'missing-eval-key', message: message('endpoint'), file: FILE, line: 3, column: 1 },
      { kind: 'config-error', code: 'missing-eval-key', message: message('model'), file: FILE, line: 3, column: 1 },
    ]);
  });

  it('takes the keys of every file, a later one replacing an earlier one', () => {
    const first = { file: FILE, text: `${TOPIC}[eval.agent]\nendpoint = "https://api.openai.com/v1/chat/completions"\nmodel = "a"\nmin_score = 0.5\n` };
    const second = { file: path.join('/kb', 'local.toml'), text: '[eval.agent]\nmodel = "b"\njudge_model = "c"\n' };
    expect(loadConfig([first, second]).config?.eval.agent).toMatchObject({ endpoint: 'https://api.openai.com/v1/chat/completions', model: 'b', judge_model: 'c', min_score: 0.5 });
  });

  it('refuses an unknown key, an endpoint with a password, and a min_score over 1', () => {
    const codes = (text: string) => load(`[eval.agent]\nendpoint = "http://127.0.0.1:1/v1/chat/completions"\nmodel = "m"\n${text}`).diagnostics.map((d) => [d.code, d.message]);
    expect(codes('max_turn = 3\n')).toEqual([['unknown-key', 'eval.agent.max_turn: unknown key. Did you mean "max_turns"?']]);
    expect(load('[eval.agent]\nendpoint = "https://u:p@api.example.com/v1/chat/completions"\nmodel = "m"\n').diagnostics.map((d) => d.code)).toEqual(['bad-url']);
    expect(codes('min_score = 1.5\n').map(([code]) => code)).toEqual(['wrong-type']);
  });
});
