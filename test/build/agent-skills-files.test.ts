/**
 * The Agent Skills discovery files of a site (content/agents/agent-skills.md), as the build writes
 * its non-page files for test/fixtures/agent-skills: the index whole, every digest checked against
 * the bytes published, each archive unpacked by the system's tar and compared with the skill's
 * files, and the hidden and disabled canaries nowhere.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { listStaticFiles } from '../../src/build/endpoints.ts';
import { readSiteData } from '../../src/build/site-data.ts';
import { readStaticFile, writeStaticFiles } from '../../src/build/static-file.ts';
import { createTarGz, fitsTarPath } from '../../src/kb/publish/tar-gz.ts';
import { ROOT } from '../helpers/run-cli.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'agent-skills');
const SKILLS = path.join(FIXTURE, 'skills');

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** Every file below `dir`, relative, sorted. */
function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Unpacks a .tar.gz with the system's tar (an implementation that is not ours) into a fresh folder. */
function untar(archive: string): string {
  const dir = makeTree({});
  execFileSync('tar', ['-xzf', archive, '-C', dir]);
  return dir;
}

let dist: string;
beforeAll(async () => {
  dist = makeTree({});
  const data = await readSiteData(['kb.toml'], FIXTURE);
  writeStaticFiles(dist, listStaticFiles(data));
});

describe('/.well-known/agent-skills/', () => {
  it('index.json lists each skill with its type, url and the digest of the bytes at that url', () => {
    const index = JSON.parse(fs.readFileSync(path.join(dist, '.well-known/agent-skills/index.json'), 'utf8')) as { skills: { url: string; digest: string }[] };
    const published = (url: string): Buffer => fs.readFileSync(path.join(dist, url));
    expect(index).toEqual({
      $schema: 'https://schemas.agentskills.io/discovery/0.2.0/schema.json',
      skills: [
        {
          name: 'changelog',
          type: 'skill-md',
          description: 'Write a changelog entry for a release. Use when a user asks what changed in a version.',
          url: '/.well-known/agent-skills/changelog/SKILL.md',
          // A skill of one file is its SKILL.md as stored.
          digest: sha256(fs.readFileSync(path.join(SKILLS, 'changelog', 'SKILL.md'))),
        },
        {
          name: 'pdf-forms',
          type: 'archive',
          description: 'Fill in PDF forms from a JSON file of values. Use when a user asks to complete a PDF form.',
          url: '/.well-known/agent-skills/pdf-forms.tar.gz',
          digest: sha256(published('.well-known/agent-skills/pdf-forms.tar.gz')),
        },
        {
          // Published by its name, which check warns differs from its folder's.
          name: 'slide-deck',
          type: 'archive',
          description: 'Build a slide deck from an outline in markdown.',
          url: '/.well-known/agent-skills/slide-deck.tar.gz',
          digest: sha256(published('.well-known/agent-skills/slide-deck.tar.gz')),
        },
      ],
    });
    expect(published('.well-known/agent-skills/changelog/SKILL.md')).toEqual(fs.readFileSync(path.join(SKILLS, 'changelog', 'SKILL.md')));
    expect(filesBelow(path.join(dist, '.well-known'))).toEqual([
      'agent-skills/changelog/SKILL.md',
      'agent-skills/index.json',
      'agent-skills/pdf-forms.tar.gz',
      'agent-skills/slide-deck.tar.gz',
    ]);
  });

  it.each([
    ['pdf-forms', 'pdf-forms', ['SKILL.md', 'reference/fields.xsd', 'scripts/fill_fillable_fields.py', 'scripts/list_fields.js']],
    ['slide-deck', 'slides', ['SKILL.md', 'notes.md', 'package.json', 'scripts/build.sh', 'scripts/theme.py']],
  ])('the archive of %s holds the listed files of its folder, byte for byte, SKILL.md first', (name, folder, files) => {
    const archive = path.join(dist, '.well-known/agent-skills', `${name}.tar.gz`);
    const unpacked = untar(archive);
    expect(filesBelow(unpacked)).toEqual(files);
    for (const file of files) expect(fs.readFileSync(path.join(unpacked, file)), file).toEqual(fs.readFileSync(path.join(SKILLS, folder, file)));
    const listed = execFileSync('tar', ['-tzf', archive], { encoding: 'utf8' }).trim().split('\n');
    expect(listed[0]).toBe('SKILL.md');
  });

  it('holds no byte of a hidden or disabled file: not in the index, not in any archive', () => {
    const texts = filesBelow(path.join(dist, '.well-known')).map((file) => {
      const bytes = fs.readFileSync(path.join(dist, '.well-known', file));
      return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('latin1');
    });
    expect(texts.length).toBe(4);
    for (const text of texts) {
      expect(text).not.toMatch(/CANARY|secret|private-notes|drafts/);
    }
  });

  it('is the same bytes when listed again (archives are deterministic)', async () => {
    const again = listStaticFiles(await readSiteData(['kb.toml'], FIXTURE)).filter((f) => f.path.startsWith('.well-known/'));
    expect(again.map((f) => f.path)).toEqual([
      '.well-known/agent-skills/index.json',
      '.well-known/agent-skills/changelog/SKILL.md',
      '.well-known/agent-skills/pdf-forms.tar.gz',
      '.well-known/agent-skills/slide-deck.tar.gz',
    ]);
    for (const file of again) expect(readStaticFile(file), file.path).toEqual(fs.readFileSync(path.join(dist, file.path)));
  });
});

describe('createTarGz', () => {
  it('stores a long path in the ustar prefix, and refuses one that fits nowhere', () => {
    const long = `${'a'.repeat(120)}/${'b'.repeat(90)}.md`;
    expect(fitsTarPath(long)).toBe(true);
    expect(fitsTarPath('c'.repeat(101))).toBe(false);
    const file = path.join(makeTree({}), 'x.tar.gz');
    fs.writeFileSync(
      file,
      createTarGz([
        { path: long, bytes: Buffer.from('long\n') },
        { path: 'empty.txt', bytes: new Uint8Array() },
      ]),
    );
    const unpacked = untar(file);
    expect(filesBelow(unpacked)).toEqual([long, 'empty.txt'].sort());
    expect(fs.readFileSync(path.join(unpacked, long), 'utf8')).toBe('long\n');
    expect(fs.readFileSync(path.join(unpacked, 'empty.txt'), 'utf8')).toBe('');
  });
});
