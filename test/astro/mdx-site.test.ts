/**
 * A docs folder in MDX (test/fixtures/mdx-docs), built (content/reference/subject-formats.md,
 * "MDX"): pages rendered as markdown with the docs components mapped, front matter titles and
 * descriptions on every surface, the `.md` twin as written, and a file that is not valid MDX
 * rendered as markdown with a warning. Built once for the file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, type CliRun } from '../helpers/run-cli.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { readDistFiles } from '../helpers/dist-files.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'mdx-docs');
let work: string;
let dist: string;
let built: CliRun;

beforeAll(async () => {
  work = makeTree({});
  fs.cpSync(path.join(FIXTURE, 'kb.toml'), path.join(work, 'kb.toml'));
  fs.cpSync(path.join(FIXTURE, 'docs'), path.join(work, 'docs'), { recursive: true });
  dist = path.join(work, 'dist');
  await withKeptPages(path.join(work, '.cache'));
  built = runCli(['build', '--config', path.join(work, 'kb.toml'), '--out', dist, '--cache', path.join(work, '.cache')], { cwd: work });
});

function page(url: string): string {
  return fs.readFileSync(path.join(dist, url, 'index.html'), 'utf8');
}

/** The rendered content of a subject page (after its meta line), each highlighted code block shown as `<pre/>`. */
function body(url: string): string {
  const html = page(url);
  const start = html.indexOf('</div>', html.indexOf('class="meta"')) + '</div>'.length;
  return html.slice(start, html.indexOf('</article>')).replace(/<pre class="astro-code[\s\S]*?<\/pre>/g, '<pre/>');
}

describe('building MDX docs', () => {
  it('builds, and warns about the file that is not valid MDX', () => {
    expect(built.code).toBe(0);
    expect(built.stderr.replace(/\d+\.\d s/g, 'T s')).toBe(
      [
        'warning[mdx-syntax]: docs/broken.mdx:5:36: Not valid MDX (Unexpected end of file in expression, expected a corresponding closing brace for `{`); the site shows it as plain markdown. Fix the MDX there (write a literal < or { in text as \\< or \\{, close every tag), or rename the file to .md.',
        'warning[no-site-url]: kb.toml: [site] url is not set, so no sitemap.xml is written. Set it to the site\'s public address (e.g. url = "https://kb.example.com").',
        'read      1 topic, 5 subjects (T s)',
        'pages     9 pages; 5 subjects rendered, 0 unchanged (T s)',
        'search    5 pages indexed, 1 of 1 shard written (T s)',
        'Built dist/: 1 topic, 5 subjects (0 hidden, 0 disabled, 0 skipped), 2 warnings, T s',
        '',
      ].join('\n'),
    );
  });
});

describe('pages', () => {
  it('Mintlify: front matter title, no import, a figure, a callout, a code group, steps and cards, a table of contents', () => {
    expect(body('docs/introduction')).toBe(
      [
        '<p>The example server answers questions about your files.</p>',
        '<figure class="frame"><p><img src="/images/server.png" alt="A terminal running the server"></p><figcaption>The server at work</figcaption></figure>',
        '<div class="callout callout-note"><p class="callout-title">Note</p><p>The server never writes to your files.</p></div>',
        '<h2 id="install">Install<a class="heading-anchor" href="#install" aria-label="Link to this section" data-pagefind-ignore>#</a></h2>',
        '<div class="code-group"><p class="code-title">npm</p><pre/><p class="code-title">pnpm</p><pre/></div>',
        '<h2 id="start">Start<a class="heading-anchor" href="#start" aria-label="Link to this section" data-pagefind-ignore>#</a></h2>',
        '<ol class="steps"><li><p class="step-title">Configure</p><p>Write <code>server.toml</code>.</p></li><li><p class="step-title">Run</p><p>Run <code>example-server</code>.</p></li></ol>',
        '<div class="cards"><div class="card"><p class="card-title"><a href="/docs/reference/fields">Fields</a></p><p>Every option.</p></div><div class="card"><p class="card-title"><a>Unsafe</a></p><p>Never a script.</p></div></div>',
        '',
      ].join('\n'),
    );
    const html = page('docs/introduction');
    expect(html).toContain('<title>Introduction · Example Server Docs</title>');
    expect(html).toContain('<meta name="description" content="What the example server does, and how to start it.">');
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toMatch(/<pre class="astro-code[^"]*"[^>]*data-language="bash"><code><span class="line"><span style="[^"]*">npm<\/span>/);
    expect(html).toContain(
      '<details class="toc" id="toc" open><summary id="toc-title">On this page</summary><nav aria-labelledby="toc-title"><ul><li class="depth-2"><a href="#install">Install</a></li><li class="depth-2"><a href="#start">Start</a></li></ul></nav></details>',
    );
  });

  it('fields, an accordion, expressions, an unknown component; no script or handler', () => {
    expect(body('docs/reference/fields')).toBe(
      [
        '<p>Options of <code>server.toml</code>, for values &lt; 10 and more.</p>',
        '<dl class="field"><dt><code>limit</code> <span class="field-meta">query · number · required · default: 10</span></dt><dd><p>How many answers to return.</p></dd></dl>',
        '<dl class="field"><dt><code>answers</code> <span class="field-meta">string[]</span></dt><dd><p>The answers, best first.</p></dd></dl>',
        '<div class="accordion-group"><details class="accordion"><summary>Why a limit?</summary><p>Answers cost tokens.</p></details></div>',
        '<p>Kept <strong>as text</strong>.</p>',
        '<p>Click</p>',
        '',
      ].join('\n'),
    );
  });

  it('Starlight: an aside, tabs, steps around a list, a link card, a file tree, a badge', () => {
    expect(body('docs/starlight')).toBe(
      [
        '<div class="callout callout-warning"><p class="callout-title">Before you start</p><p>Back up your data.</p></div>',
        '<div class="tabs"><section class="tab"><p class="tab-label">macOS</p><p>Use Homebrew.</p></section><section class="tab"><p class="tab-label">Linux</p><p>Use your package manager.</p></section></div>',
        '<ol class="steps">',
        '<li>Download the server.</li>',
        '<li>Run it.</li>',
        '</ol>',
        '<div class="cards"><div class="card"><p class="card-title"><a href="/docs/reference/fields">Fields</a></p><p>Every option.</p></div></div>',
        '<div class="file-tree"><ul>',
        '<li>server.toml</li>',
        '<li>data/</li>',
        '</ul></div>',
        '<p>Status: <span class="badge">Beta</span> </p>',
        '',
      ].join('\n'),
    );
  });

  it('Docusaurus: admonitions, tabs by value and label, details, a code block', () => {
    expect(body('docs/docusaurus')).toBe(
      [
        '<div class="callout callout-tip"><p class="callout-title">Fast path</p><p>Use the defaults.</p></div>',
        '<div class="callout callout-caution"><p class="callout-title">Danger</p><p>Never run it as root.</p></div>',
        '<div class="tabs"><section class="tab"><p class="tab-label">Yarn</p><p>yarn add example-server</p></section><section class="tab"><p class="tab-label">npm</p><p>npm install example-server</p></section></div>',
        '<details><summary>Why Node?</summary><p>Every docs site already has it.</p></details>',
        '<pre/>',
        '',
      ].join('\n'),
    );
    expect(page('docs/docusaurus')).toMatch(/<pre class="astro-code[^"]*"[^>]*data-language="toml"><code><span class="line">/);
  });

  it('a file that is not valid MDX is shown as markdown, its title from its front matter', () => {
    expect(body('docs/broken')).toBe('<p>Written for a markdown renderer: a { brace and a <b>bold</b> word.</p>\n\nThe note is never closed.\n');
    expect(page('docs/broken')).toContain('<title>A page that is not valid MDX · Example Server Docs</title>');
  });

  it('no page holds a script, an event handler or a javascript: URL from the MDX', () => {
    for (const [name, text] of readDistFiles(dist)) {
      if (!name.endsWith('.html')) continue;
      expect(text, name).not.toMatch(/alert\(|javascript:|onclick/i);
    }
  });
});

describe('what agents get', () => {
  it('the markdown twin is the file as written', () => {
    for (const name of ['introduction', 'reference/fields', 'broken']) {
      expect(fs.readFileSync(path.join(dist, 'docs', `${name}.md`), 'utf8')).toBe(fs.readFileSync(path.join(FIXTURE, 'docs', `${name}.mdx`), 'utf8').replace(/\n+$/, ''));
    }
  });

  it('index.json and llms.txt take titles and summaries from the front matter, else the first paragraph of text', () => {
    const index = JSON.parse(fs.readFileSync(path.join(dist, 'kb/index.json'), 'utf8'));
    expect(index.topics[0].subjects.map((s: any) => [s.slug, s.title, s.summary, s.format, s.language])).toEqual([
      ['broken', 'A page that is not valid MDX', 'Written for a markdown renderer: a { brace and a <b>bold</b> word.', 'markdown', null],
      ['docusaurus', 'Docusaurus components', 'Use the defaults.', 'markdown', null],
      ['introduction', 'Introduction', 'What the example server does, and how to start it.', 'markdown', null],
      ['reference/fields', 'Fields', 'Options of server.toml, for values < 10 and more.', 'markdown', null],
      ['starlight', 'Starlight components', 'Download the server.', 'markdown', null],
    ]);
    expect(fs.readFileSync(path.join(dist, 'llms.txt'), 'utf8')).toBe(
      [
        '# Example Server Docs',
        '',
        '> A knowledge base for people and agents, in one topic: Example Server.',
        '',
        'The knowledge of this site for agents: /kb/index.json lists every topic and subject with its addresses, and /kb/knowledge.json holds the <knowledge> system-prompt section and the learn tool.',
        '',
        '## Example Server',
        '',
        '- [A page that is not valid MDX](/docs/broken.md): Written for a markdown renderer: a { brace and a <b>bold</b> word.',
        '- [Docusaurus components](/docs/docusaurus.md): Use the defaults.',
        '- [Introduction](/docs/introduction.md): What the example server does, and how to start it.',
        '- [Fields](/docs/reference/fields.md): Options of server.toml, for values < 10 and more.',
        '- [Starlight components](/docs/starlight.md): Download the server.',
        '',
        '## Optional',
        '',
        '- [Everything in one file](/llms-full.txt): The content of every subject listed here, in one markdown file.',
        '',
      ].join('\n'),
    );
  });
});
