/**
 * `syllabus mcp` against a built site: what the server offers from local files equals, byte for
 * byte, what `syllabus build` published for the same knowledge base.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteIndexSchema } from '../../src/kb/index.ts';
import { ROOT, runCli } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';
import { startMcp, type McpSession } from './mcp-client.ts';

const SPEC_EXAMPLE = path.join(ROOT, 'test', 'fixtures', 'spec-example', 'kb.toml');

let dist: string;
const sessions: McpSession[] = [];
beforeAll(() => {
  const dir = makeTree({});
  dist = path.join(dir, 'dist');
  const run = runCli(['build', '--config', SPEC_EXAMPLE, '--out', dist, '--cache', path.join(dir, 'cache')]);
  expect(run.code, run.stderr).toBe(0);
});
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
});

const published = (file: string): string => fs.readFileSync(path.join(dist, file), 'utf8');

describe('local files', () => {
  let session: McpSession;
  beforeAll(async () => {
    session = await startMcp(['--config', SPEC_EXAMPLE]);
    sessions.push(session);
  });

  it('serves syllabus://index exactly as the build wrote /kb/index.json', async () => {
    const { contents } = await session.client.readResource({ uri: 'syllabus://index' });
    expect(contents).toEqual([{ uri: 'syllabus://index', mimeType: 'application/json', text: published('kb/index.json') }]);
    const index = SiteIndexSchema.parse(JSON.parse(published('kb/index.json')));
    // Listed subjects only: the hidden ast-grep/rules is not in the index.
    expect(index.topics.map((t) => [t.id, t.subjects.map((s) => [s.slug, s.learned])])).toEqual([
      [
        'project',
        [
          ['code-quality', false],
          ['maintainers/jean', true],
          ['maintainers/ryan', true],
        ],
      ],
      ['skills', [['ast-grep', false]]],
    ]);
  });

  it('serves the prompt, the resource and the tool as /kb/knowledge.json has them', async () => {
    const knowledge = JSON.parse(published('kb/knowledge.json')) as { prompt: string; tool: { name: string; description: string; parameters: unknown } };
    const prompt = await session.client.getPrompt({ name: 'knowledge' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: knowledge.prompt } }]);
    const { contents } = await session.client.readResource({ uri: 'syllabus://knowledge' });
    expect(contents).toEqual([{ uri: 'syllabus://knowledge', mimeType: 'text/plain', text: knowledge.prompt }]);
    const { tools } = await session.client.listTools();
    expect(tools).toEqual([{ name: knowledge.tool.name, description: knowledge.tool.description, inputSchema: knowledge.tool.parameters }]);
  });

  it('loads each subject as its markdown twin has it', async () => {
    const result = await session.call('learn', { topic: 'skills', subjects: 'ast-grep/rules' });
    expect(result).toEqual({ content: [{ type: 'text', text: published('skills/ast-grep/rules.md') }] });
  });
});
