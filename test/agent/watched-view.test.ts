/**
 * `createWatchedView` in process: the core's answers, a configuration that stops loading, and
 * what is kept between calls. (Watching is tested through the server in mcp.test.ts; here
 * `watch: false` opens the knowledge base again at every call, which makes edits deterministic.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError, createWatchedView, type WatchedView } from '../../src/agent/watched-view.ts';
import { buildCatalog, buildSiteIndex, loadConfig, openKnowledgeBase, readConfigFiles, sortDiagnostics, type SyllabusConfig } from '../../src/kb/index.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const TOML = `[kb.topic.project]
title = "Project"
subjects = "project"
learned = ["pinned"]
`;

/** Reads `<dir>/kb.toml`; throws the first configuration error's message. */
function readConfig(dir: string): SyllabusConfig {
  const read = readConfigFiles([path.join(dir, 'kb.toml')], dir);
  const loaded = read.diagnostics.length > 0 ? { config: undefined, diagnostics: read.diagnostics } : loadConfig(read.configTexts);
  if (!loaded.config) throw new Error(sortDiagnostics(loaded.diagnostics)[0]!.message);
  return loaded.config;
}

let view: WatchedView | undefined;
afterEach(() => {
  view?.close();
  view = undefined;
});

describe('createWatchedView', () => {
  it('answers learn, the tool and the prompt as the core does', async () => {
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': 'Alpha', 'project/pinned.md': 'Pinned', 'project/.hidden.md': 'Hidden' });
    view = createWatchedView(readConfig(dir), { watch: false });
    expect(await view.learn({ topic: 'project' })).toEqual({
      ok: true,
      text: '# Topic: Project\n\n## Available subjects:\n\n- a\n\nUse the `learn` tool with the `subjects` argument to learn specific subjects.\n\n## Already learned (in system prompt):\n\n- pinned',
    });
    expect(await view.learn({ topic: 'project', subjects: 'hidden' })).toEqual({ ok: true, text: 'Hidden' });
    expect(await view.learn({ topic: 'project', subjects: ['*'] })).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>' });
    expect(await view.learn({ topic: 'nope' })).toEqual({ ok: false, message: 'Unknown topic "nope". Valid topics: project (Project).' });
    expect(await view.learn([])).toEqual({
      ok: false,
      message:
        'Invalid arguments: expected an object. Call learn with {"topic": "<topic id or title>"} to list a topic, and add "subjects": "<pattern>" or ["<pattern>", …] to load subjects.',
    });
    expect(await view.tool()).toEqual({
      name: 'learn',
      description: 'Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**Project**)',
      parameters: expect.objectContaining({ type: 'object', required: ['topic'] }),
    });
    expect(await view.prompt()).toContain('<subject "pinned">\nPinned\n</subject>');
  });

  it('gives the index of the catalog, and builds it once while nothing changes', async () => {
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': '# A\n\nThe first subject.', 'project/pinned.md': 'Pinned' });
    const config = readConfig(dir);
    view = createWatchedView(config);
    const first = await view.index();
    // The same index object: built once, not again for the second call.
    expect(await view.index()).toBe(first);
    const { catalog } = await buildCatalog(openKnowledgeBase(config));
    expect(first).toEqual(buildSiteIndex(catalog, config.site));
  });

  it('reads the config again and opens the knowledge base again when asked to (here: at every call)', async () => {
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': 'Alpha' });
    view = createWatchedView(readConfig(dir), { watch: false, reloadConfig: () => readConfig(dir) });
    expect(await view.learn({ topic: 'project', subjects: '*' })).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>' });
    fs.writeFileSync(path.join(dir, 'project', 'b.md'), 'Beta');
    expect(await view.learn({ topic: 'project', subjects: '*' })).toEqual({ ok: true, text: '<subject "a">\nAlpha\n</subject>\n\n<subject "b">\nBeta\n</subject>' });
    fs.writeFileSync(path.join(dir, 'kb.toml'), TOML.replace('title = "Project"', 'title = "Renamed"'));
    expect((await view.tool())?.description).toBe('Learn about knowledge base topics and subjects.\n\nAvailable topics:\n- project (**Renamed**)');
  });

  it('answers every call with the configuration error while the config does not load, then recovers', async () => {
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': 'Alpha' });
    view = createWatchedView(readConfig(dir), {
      watch: false,
      reloadConfig: () => readConfig(dir),
      describeError: (error) => `config: ${(error as Error).message}`,
    });
    fs.writeFileSync(path.join(dir, 'kb.toml'), `${TOML}introducton = "x"\n`);
    const message = `config: ${(() => {
      try {
        readConfig(dir);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('the config should not load');
    })()}`;
    expect(message).toMatch(/^config: kb\.topic\.project\.introducton: unknown key/);
    expect(await view.learn({ topic: 'project' })).toEqual({ ok: false, message });
    expect(await view.learn('not even an object')).toEqual({ ok: false, message });
    for (const call of [view.tool(), view.prompt(), view.index()]) {
      await expect(call).rejects.toThrow(new ConfigurationError(message));
    }
    fs.writeFileSync(path.join(dir, 'kb.toml'), TOML);
    expect(await view.learn({ topic: 'project', subjects: 'a' })).toEqual({ ok: true, text: 'Alpha' });
  });

  it('reports a configuration error found when opening (an escaping topic folder) in its own format', async () => {
    const outside = makeTree({ 'x.md': 'X' });
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': 'Alpha' });
    view = createWatchedView(readConfig(dir), {
      watch: false,
      reloadConfig: () => readConfig(dir),
      formatDiagnostic: (d) => `[${d.code}] ${d.message}`,
    });
    fs.rmSync(path.join(dir, 'project'), { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'project'));
    const outcome = await view.learn({ topic: 'project' });
    expect(outcome).toEqual({
      ok: false,
      message: `[escaping-subjects] kb.topic.project.subjects: "project" is a symlink to ${fs.realpathSync(outside)}, outside the folder of the config file (${fs.realpathSync(dir)}). Topic folders must lie inside it, because PR previews build configs from untrusted branches; move the folder there.`,
    });
  });

  it('warns about each content error once', async () => {
    const dir = makeTree({ 'kb.toml': TOML, 'project/a.md': 'Alpha', 'project/a.txt': 'Alpha too' });
    const warnings: string[] = [];
    view = createWatchedView(readConfig(dir), { warn: (d) => warnings.push(`${d.code}: ${d.message}`) });
    await view.learn({ topic: 'project', subjects: 'a' });
    await view.learn({ topic: 'project' });
    await view.prompt();
    expect(warnings).toEqual(['duplicate-slug: Duplicate slug "a" in topic "project": a.md, a.txt all have it; a.md is used. Rename or remove the others.']);
  });
});
