/**
 * `syllabus skills` and `skills export` on test/fixtures/agent-skills (content/reference/cli/skills.md):
 * the command's own main in this process, and the real bin for its help.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKILLS_HELP } from '../../src/cli/skills.ts';
import { ROOT, runCli, runCliInProcess } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'agent-skills');
const CONFIG = ['--config', path.join(FIXTURE, 'kb.toml')];

/** Every file below `dir` with its mode's permission bits, relative and sorted. */
function tree(dir: string): [string, string][] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e): [string, string] => {
      const file = path.join(e.parentPath, e.name);
      return [path.relative(dir, file).split(path.sep).join('/'), (fs.statSync(file).mode & 0o777).toString(8)];
    })
    .sort(([a], [b]) => (a < b ? -1 : 1));
}

describe('syllabus skills', () => {
  it('lists each skill on one line', async () => {
    expect(await runCliInProcess(['skills', ...CONFIG])).toEqual({
      stdout: `- changelog (skills/changelog, 1 file): Write a changelog entry for a release. Use when a user asks what changed in a version.
- pdf-forms (skills/pdf-forms, 4 files): Fill in PDF forms from a JSON file of values. Use when a user asks to complete a PDF form.
- slide-deck (skills/slides, 5 files): Build a slide deck from an outline in markdown.
`,
      stderr: '',
      code: 0,
    });
  });

  it('--json: name, description, topic, folder and files of each', async () => {
    const run = await runCliInProcess(['skills', '--json', ...CONFIG]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([
      {
        name: 'changelog',
        description: 'Write a changelog entry for a release. Use when a user asks what changed in a version.',
        topic: 'skills',
        folder: 'changelog',
        files: ['SKILL.md'],
      },
      {
        name: 'pdf-forms',
        description: 'Fill in PDF forms from a JSON file of values. Use when a user asks to complete a PDF form.',
        topic: 'skills',
        folder: 'pdf-forms',
        files: ['SKILL.md', 'reference/fields.xsd', 'scripts/fill_fillable_fields.py', 'scripts/list_fields.js'],
      },
      {
        name: 'slide-deck',
        description: 'Build a slide deck from an outline in markdown.',
        topic: 'skills',
        folder: 'slides',
        files: ['SKILL.md', 'notes.md', 'package.json', 'scripts/build.sh', 'scripts/theme.py'],
      },
    ]);
  });

  it('export writes each skill of the topic as a folder named by the skill, its files byte for byte, none executable', async () => {
    const out = path.join(makeTree({}), 'exported');
    const run = await runCliInProcess(['skills', 'export', 'skills', '--out', out, ...CONFIG]);
    expect(run).toEqual({ stdout: '', stderr: `Wrote 3 skills (10 files) to ${path.relative(ROOT, out)}/\n`, code: 0 });
    expect(tree(out)).toEqual([
      ['changelog/SKILL.md', '644'],
      ['pdf-forms/SKILL.md', '644'],
      ['pdf-forms/reference/fields.xsd', '644'],
      ['pdf-forms/scripts/fill_fillable_fields.py', '644'],
      ['pdf-forms/scripts/list_fields.js', '644'],
      ['slide-deck/SKILL.md', '644'],
      ['slide-deck/notes.md', '644'],
      ['slide-deck/package.json', '644'],
      ['slide-deck/scripts/build.sh', '644'],
      ['slide-deck/scripts/theme.py', '644'],
    ]);
    expect(fs.readFileSync(path.join(out, 'slide-deck', 'scripts', 'build.sh'))).toEqual(fs.readFileSync(path.join(FIXTURE, 'skills', 'slides', 'scripts', 'build.sh')));
    // Exporting again over the same folders is refused, and changes nothing.
    expect(await runCliInProcess(['skills', 'export', 'skills', '--out', out, ...CONFIG])).toEqual({
      stdout: '',
      stderr: `error: ${path.join(out, 'changelog')} already exists. Remove it, or export to another --out folder.\n`,
      code: 1,
    });
    expect(tree(out)).toHaveLength(10);
  });

  it('export: an unknown topic is a usage error, a missing --out too', async () => {
    expect(await runCliInProcess(['skills', 'export', 'nope', '--out', makeTree({}), ...CONFIG])).toEqual({
      stdout: '',
      stderr: 'error: Unknown topic "nope". Valid topics: skills.\nRun "syllabus skills --help" for usage.\n',
      code: 2,
    });
    expect(await runCliInProcess(['skills', 'export', 'skills', ...CONFIG])).toEqual({
      stdout: '',
      stderr: 'error: skills export needs --out DIR: the folder to write the skill folders to.\nRun "syllabus skills --help" for usage.\n',
      code: 2,
    });
  });

  it('a topic without skills: exit 1, nothing written', async () => {
    const dir = makeTree({ 'kb.toml': '[kb.topic.notes]\nsubjects = "notes"\n', 'notes/a.md': '# A\n' });
    const out = path.join(dir, 'out');
    expect(await runCliInProcess(['skills', 'export', 'notes', '--out', out, '--config', path.join(dir, 'kb.toml')])).toEqual({
      stdout: '',
      stderr: 'error: Topic "notes" has no skills: no visible folder of it holds a SKILL.md with a name and a description. Run "syllabus check" for why.\n',
      code: 1,
    });
    expect(fs.existsSync(out)).toBe(false);
    expect(await runCliInProcess(['skills', '--config', path.join(dir, 'kb.toml')])).toEqual({ stdout: '', stderr: '', code: 0 });
  });

  it('prints its help', () => {
    expect(runCli(['skills', '--help'])).toEqual({ stdout: `${SKILLS_HELP}\n`, stderr: '', code: 0 });
  });
});
