/**
 * The built site of a learnings topic (test/fixtures/learnings-store): each learning has its page,
 * markdown twin and JSON like any subject; disabled ones and the store file itself are published
 * nowhere. Built once for the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'learnings-store');
let work: string;
let dist: string;
let build: CliRun;

/** Every file of dist/, relative, `/`-separated. */
function distFiles(): string[] {
  return fs
    .readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(dist, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort();
}

function read(file: string): string {
  return fs.readFileSync(path.join(dist, file), 'utf8');
}

function containing(text: string): string[] {
  return distFiles().filter((name) => !/\.pf_(?:fragment|index|meta)$|\.pagefind$/.test(name) && read(name).includes(text));
}

beforeAll(async () => {
  work = makeTree({});
  fs.cpSync(FIXTURE, work, { recursive: true });
  fs.rmSync(path.join(work, 'cases'), { recursive: true });
  dist = path.join(work, 'dist');
  await withKeptPages(path.join(work, '.cache'));
  build = runCli(['build', '--config', path.join(work, 'kb.toml'), '--out', dist, '--cache', path.join(work, '.cache')], { cwd: work });
});

describe('the site of a learnings topic', () => {
  it('builds', () => {
    expect(build.code, build.stderr).toBe(0);
    expect(build.stderr).toMatch(/^read {6}2 topics, 7 subjects \(/m);
  });

  it('gives each learning a page with its title, its rendered content and its slug', () => {
    const html = read('team/gotcha/learn-lx2abd-aaa111/index.html');
    expect(html).toContain('<title>ESM imports need the .js extension · Knowledge</title>');
    expect(html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1]).toBe('ESM imports need the .js extension');
    expect(html).toContain('<code>team/gotcha/learn-lx2abd-aaa111</code>');
    const article = html.slice(html.indexOf('</div>', html.indexOf('class="meta"')) + '</div>'.length, html.indexOf('</article>'));
    expect(article).toBe(
      [
        "<p>Even in TypeScript files, write <code>import { x } from './x.js'</code>.</p>",
        '<ul>',
        '<li>Confidence: 0.6</li>',
        '<li>Used: 2 times, 1 successful</li>',
        '<li>Last used: 2024-01-13T10:00:00.000Z</li>',
        '<li>Created: 2024-01-11T09:00:00.000Z</li>',
        '<li>Keywords: esm, import, extension, typescript</li>',
        '<li>File: <code>src/index.ts</code></li>',
        "<li>Pattern: <code>from './x.js'</code></li>",
        '<li>Approach: Fix every relative import at once.</li>',
        '</ul>',
        '',
      ].join('\n'),
    );
  });

  it("publishes each learning's markdown twin exactly as learn returns it, odd ids at encoded addresses", () => {
    const learn = runCli(['learn', 'team', 'fact/team~2Flead', '--config', path.join(work, 'kb.toml')], { cwd: work });
    expect(read('team/fact/team~7E2Flead.md')).toBe(learn.stdout.replace(/\n$/, ''));
    expect(read('team/fact/team~7E2Flead.md')).toBe(
      '# Ana leads the platform team\n\n- Confidence: 0.9\n- Used: 1 time, 1 successful\n- Created: 2024-01-14T08:00:00.000Z\n- Keywords: ana, platform',
    );
    expect(distFiles().filter((f) => f.startsWith('team/fact/'))).toEqual([
      'team/fact/team~7E2Flead.md',
      'team/fact/team~7E2Flead/index.html',
      'team/fact/~7E2Edotfile.md',
      'team/fact/~7E2Edotfile/index.html',
    ]);
  });

  it('lists the learnings in the index with their titles and summaries; the folder topic lists only its own files', () => {
    const index = JSON.parse(read('kb/index.json')) as { topics: { id: string; subjects: { slug: string; title: string; summary: string; path: string; learned: boolean }[] }[] };
    expect(index.topics.map((t) => [t.id, t.subjects.map((s) => [s.slug, s.title, s.summary, s.path, s.learned])])).toEqual([
      [
        'team',
        [
          ['fact/team~2Flead', 'Ana leads the platform team', 'Ana leads the platform team', 'knowledge.json#team~2Flead', false],
          ['fact/~2Edotfile', 'Dotfiles are kept in the repository', 'Dotfiles are kept in the repository', 'knowledge.json#~2Edotfile', false],
          [
            'gotcha/learn-lx2abd-aaa111',
            'ESM imports need the .js extension',
            "ESM imports need the .js extension Even in TypeScript files, write import { x } from './x.js'.",
            'knowledge.json#learn-lx2abd-aaa111',
            false,
          ],
          ['gotcha/learn-lx2abe-bbb222', 'The cache invalidates after 5 minutes', 'The cache invalidates after 5 minutes', 'knowledge.json#learn-lx2abe-bbb222', false],
          [
            'pattern/learn-lx2abc-def123',
            'This project uses Zod schemas for all API validation',
            'This project uses Zod schemas for all API validation',
            'knowledge.json#learn-lx2abc-def123',
            false,
          ],
          [
            'preference/learn-lx2abf-ccc333',
            'Always use execFileSync over execSync for git commands',
            'Always use execFileSync over execSync for git commands',
            'knowledge.json#learn-lx2abf-ccc333',
            true,
          ],
        ],
      ],
      ['notes', [['readme', 'Notes', "The team's notes. The learnings store next to this file belongs to the topic team.", 'readme.md', false]]],
    ]);
  });

  it('publishes neither a disabled learning nor the store file itself', () => {
    expect(containing('Draft canary')).toEqual([]);
    expect(containing('draft-1')).toEqual([]);
    expect(containing('"lastUpdated"')).toEqual([]);
    expect(distFiles().filter((f) => f.includes('knowledge.json') || f.startsWith('raw/'))).toEqual(['kb/knowledge.json', 'kb/schema/knowledge.json']);
  });
});
