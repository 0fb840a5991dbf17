/**
 * `syllabus check` as the pull-request gate: the checks only `check` runs (links, mentions,
 * titles, near-duplicates) in its JSON output, and the bundled guide passing them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

/** The codes of the checks that only `check` runs. */
const CHECK_ONLY = ['broken-link', 'broken-mention', 'missing-title', 'near-duplicate'];

describe('syllabus check', () => {
  it('reports broken links and mentions, missing titles and near-duplicates in --json, with columns where known', () => {
    const text = 'Rotate the signing keys every quarter with the rotation script, then restart the gateway and watch its error rate. Record the date in the changelog.';
    const root = makeTree({
      'kb.toml': '[kb.topic.ops]\ntitle = "Ops"\nsubjects = "ops"\n',
      'ops/keys.md': `# Keys\n\n${text}\nSee [the runbook](runbook.md) and \`ops/rotation\`.\n`,
      'ops/keys-copy.md': `# Keys\n\n${text}\n`,
      'ops/gateway.md': 'Gateway\n=======\n\nThe public entry point.\n',
    });
    const result = runCli(['check', '--json', '--config', 'kb.toml'], { cwd: root });
    const file = (name: string) => path.join(fs.realpathSync(root), 'ops', name);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      diagnostics: [
        {
          kind: 'warning',
          code: 'missing-title',
          message:
            'This level-1 heading is not read as the title (only a one-line "# Title" is), so the title falls back to "gateway" (the slug\'s last segment). Write it as "# Title", or set title in the front matter.',
          file: file('gateway.md'),
          line: 1,
        },
        {
          kind: 'warning',
          code: 'near-duplicate',
          message:
            'ops/keys.md and ops/keys-copy.md are near-duplicates: they share 15 of the 18 words they use (Jaccard similarity over 0.8). Merge them, or make each say what the other does not.',
          file: file('keys.md'),
          line: 1,
        },
        {
          kind: 'warning',
          code: 'broken-link',
          message: 'Broken link "runbook.md": topic "ops" has no subject "runbook" (it is missing or disabled). Fix the link, or add the subject.',
          file: file('keys.md'),
          line: 4,
          column: 5,
        },
        {
          kind: 'warning',
          code: 'broken-mention',
          message: 'Broken mention "ops/rotation": topic "ops" has no subject "rotation" (it is missing or disabled). Fix the slug; start a path that is not a subject with "./".',
          file: file('keys.md'),
          line: 4,
          column: 35,
        },
      ],
      errors: 0,
      warnings: 4,
    });
  });

  it('finds no broken link or mention, missing title or near-duplicate in the bundled guide (content/)', () => {
    const result = runCli(['check', '--json', '--config', 'content/kb.toml']);
    const { diagnostics, errors } = JSON.parse(result.stdout) as { diagnostics: { code: string }[]; errors: number };
    expect({ code: result.code, errors, found: diagnostics.filter((d) => CHECK_ONLY.includes(d.code)) }).toEqual({ code: 0, errors: 0, found: [] });
  });

  it('reports a topic folder that cannot be looked at (a symlink loop) as a content error, without crashing', () => {
    const root = makeTree({ 'kb.toml': '[kb.topic.t]\nsubjects = "a"\n', a: { symlink: 'b' }, b: { symlink: 'a' } });
    const result = runCli(['check', '--config', 'kb.toml'], { cwd: root });
    expect(result).toEqual({
      code: 1,
      stdout:
        'error[missing-folder]: kb.toml:2: kb.topic.t.subjects: the folder "a" cannot be read (ELOOP). Fix its permissions, or the symlink on its way.\n1 error, 0 warnings\n',
      stderr: '',
    });
  });
});
