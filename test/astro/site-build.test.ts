/**
 * The built site of test/fixtures/site, checked on the files in dist/: visibility (canaries in
 * every file, the Pagefind index decompressed), rendering, navigation bounds, and incremental
 * rebuilds. Built once for the file, from kept compiled pages (test/helpers/kept-pages.ts); the
 * browser tests are in test/e2e.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderEndpointSchemas } from '../../src/kb/index.ts';
import { ROOT, runCli, type CliRun } from '../helpers/run-cli.ts';
import { readDistFiles } from '../helpers/dist-files.ts';
import { withKeptPages } from '../helpers/kept-pages.ts';
import { makeTree } from '../helpers/temp-tree.ts';

const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'site');
let work: string;
let dist: string;
let first: CliRun;

const readDist = (): Map<string, string> => readDistFiles(dist);

function containing(text: string): string[] {
  return [...readDist()].filter(([, body]) => body.includes(text)).map(([name]) => name);
}

function page(url: string): string {
  return fs.readFileSync(path.join(dist, url, 'index.html'), 'utf8');
}

/** The part of a page between two markers, both included. */
function between(html: string, start: string, end: string): string {
  const from = html.indexOf(start);
  expect(from, `missing ${start}`).toBeGreaterThanOrEqual(0);
  return html.slice(from, html.indexOf(end, from) + end.length);
}

function build(): CliRun {
  return runCli(['build', '--config', path.join(work, 'kb.toml'), '--out', dist, '--cache', path.join(work, '.cache')], { cwd: work });
}

beforeAll(async () => {
  work = makeTree({});
  fs.cpSync(FIXTURE, work, { recursive: true });
  dist = path.join(work, 'dist');
  await withKeptPages(path.join(work, '.cache'), 'site');
  first = build();
});

describe('the build', () => {
  it('prints a line per phase and a closing summary', () => {
    expect(first.code).toBe(0);
    expect(first.stderr.replace(/\d+\.\d s/g, 'T s')).toBe(
      [
        'warning[binary]: handbook/files/archive.bin: Binary file: agents get a one-line message instead of its content (subject "files/archive"), and the site offers it as a download. Replace it with text if agents need what it says.',
        'warning[binary]: handbook/img/logo.png: Image: the site shows it on its page; agents get a one-line message instead (subject "img/logo"). Describe what matters in a text subject too.',
        'read      2 topics, 43 subjects (T s)',
        'pages     48 pages; 43 subjects rendered, 0 unchanged (T s)',
        'search    40 pages indexed, 1 of 1 shard written (T s)',
        'Built dist/: 2 topics, 43 subjects (1 hidden, 1 disabled, 2 skipped), 2 warnings, T s',
        '',
      ].join('\n'),
    );
  });
});

describe('visibility (content/agents/endpoints.md)', () => {
  it('leaves no byte of disabled subjects or disabled topics anywhere, search index included', () => {
    // Lower-cased without punctuation, as a keyword would hold them.
    for (const canary of [
      'DISABLEDCANARY_91bd',
      'disabledcanary91bd',
      'unreleased-zebra',
      'Unreleased zebra',
      'DISABLEDTOPICCANARY_c4e2',
      'runbook-walrus',
      'VaultTitleCanary',
      'opsvault',
    ]) {
      expect(containing(canary), canary).toEqual([]);
    }
  });

  it('builds a hidden subject at its own addresses only', () => {
    const own = ['handbook/secret/hidden-note.md', 'handbook/secret/hidden-note/index.html', 'kb/subjects/handbook/secret/hidden-note.json'];
    expect(containing('HIDDENCANARY_7f3a')).toEqual(own);
    expect(containing('hidden-note')).toEqual(['handbook/secret/hidden-note/index.html', 'kb/subjects/handbook/secret/hidden-note.json']);
    // The canary as a keyword would hold it: in no file, keywords.json included.
    expect(containing('hiddencanary7f3a')).toEqual([]);
    expect(page('handbook/secret/hidden-note')).toContain('<meta name="robots" content="noindex">');
    expect(page('handbook/secret/hidden-note')).not.toContain('data-pagefind-body');
    expect(page('handbook/welcome')).not.toContain('noindex');
  });

  it('indexes exactly the listed text subjects for search, with their topic as a filter and their topic and path as meta', () => {
    const fragments = [...readDist()]
      .filter(([name]) => name.endsWith('.pf_fragment'))
      .map(([, body]) => JSON.parse(body.slice(body.indexOf('{'))) as { url: string; filters: Record<string, string[]>; meta: Record<string, string> });
    const urls = fragments.map((f) => f.url).sort();
    expect(urls).toEqual([
      '/handbook/content-features/schema/',
      '/handbook/content-features/showcase/',
      '/handbook/guides/config/',
      '/handbook/guides/deploy/',
      ...Array.from({ length: 30 }, (_, i) => `/handbook/many/item-${String(i + 1).padStart(2, '0')}/`),
      '/handbook/notes/',
      '/handbook/search/escalation/',
      '/handbook/search/rotation/',
      '/handbook/welcome/',
      '/oncall/escalation/',
      '/oncall/rotation/',
    ]);
    const byUrl = new Map(fragments.map((f) => [f.url, f]));
    // Each page's topic as the filter (its title), and its topic id and slug as meta: the result line `handbook › guides/deploy`.
    for (const f of fragments) {
      const [title, id] = f.url.startsWith('/oncall/') ? ['On-call', 'oncall'] : ['Team Handbook', 'handbook'];
      expect([f.filters, f.meta['topic_id'], f.meta['path']], f.url).toEqual([{ topic: [title] }, id, f.url.slice(id.length + 2, -1)]);
    }
    expect([byUrl.get('/handbook/search/rotation/')!.meta, byUrl.get('/oncall/rotation/')!.meta]).toEqual([
      { title: 'On-call rotation', topic_id: 'handbook', path: 'search/rotation' },
      { title: 'On-call rotation', topic_id: 'oncall', path: 'rotation' },
    ]);
  });

  it('lists hidden subjects in no sitemap, topic page or navigation', () => {
    expect(fs.readFileSync(path.join(dist, 'sitemap.xml'), 'utf8')).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        '  <url><loc>https://handbook.example.test/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/</loc></url>',
        '  <url><loc>https://handbook.example.test/oncall/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/content-features/schema/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/content-features/showcase/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/files/archive/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/guides/config/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/guides/deploy/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/img/logo/</loc></url>',
        ...Array.from({ length: 30 }, (_, i) => `  <url><loc>https://handbook.example.test/handbook/many/item-${String(i + 1).padStart(2, '0')}/</loc></url>`),
        '  <url><loc>https://handbook.example.test/handbook/notes/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/search/escalation/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/search/rotation/</loc></url>',
        '  <url><loc>https://handbook.example.test/handbook/welcome/</loc></url>',
        '  <url><loc>https://handbook.example.test/oncall/escalation/</loc></url>',
        '  <url><loc>https://handbook.example.test/oncall/rotation/</loc></url>',
        '</urlset>',
        '',
      ].join('\n'),
    );
  });
});

describe('rendering', () => {
  it('renders markdown with rewritten links and sanitised raw HTML', () => {
    const html = page('handbook/welcome');
    const body = html.slice(html.indexOf('</div>', html.indexOf('class="meta"')) + '</div>'.length, html.indexOf('</article>'));
    expect(body).toBe(
      [
        '<p>Read the <a href="/handbook/guides/deploy/#rollback">deploy guide</a> and the <a href="/handbook/notes/">notes</a>.',
        'See the <a href="/handbook/#folder-guides">guides folder</a> too.</p>',
        '<p><img src="/raw/handbook/img/logo/logo.png" alt="Team logo"></p>',
        '<details><summary>More</summary>Kept details text.</details>',
        '',
        '<img src="missing.png" alt="A missing picture">',
        '<a>anchor</a>',
        '',
        '<p>A <a>bad link</a> and a <a href="https://example.test/docs">good one</a>.</p>',
        '<h2 id="values">Values<a class="heading-anchor" href="#values" aria-label="Link to this section" data-pagefind-ignore>#</a></h2>',
        '<p>We write things down.</p>',
        '',
      ].join('\n'),
    );
    for (const attack of ['xss-script', 'xss-onerror', 'xss-link', 'xss-anchor', 'evil.example.test', '<script>alert']) expect(html).not.toContain(attack);
  });

  it('shows the front matter title once, and its description as the page description', () => {
    const html = page('handbook/welcome');
    expect(html).toContain('<title>Welcome aboard · Fixture Handbook</title>');
    expect(html).toContain('<meta name="description" content="The first page every teammate reads.">');
    expect(html.match(/<h1/g)).toHaveLength(1);
  });

  it('highlights code subjects and code blocks with light and dark themes', () => {
    const config = page('handbook/guides/config');
    expect(config).toMatch(/<pre class="astro-code astro-code-themes github-light-default github-dark-default"[^>]*data-language="toml"/);
    expect(config).toContain('--shiki-dark:');
    expect(page('handbook/guides/deploy')).toMatch(/<pre class="astro-code[^"]*"[^>]*data-language="toml"/);
  });

  it('heads a code subject’s block with its file name, extension included, and no other block', () => {
    expect(page('handbook/guides/config')).toMatch(
      /<figure class="code-block numbered" style="--line-digits: 1"><figcaption class="code-block-header"><span class="code-block-name">config\.toml<\/span><span class="code-language">toml<\/span><button type="button" class="code-wrap" aria-pressed="false" hidden>Wrap lines<\/button><button type="button" class="code-copy" aria-label="Copy config\.toml" hidden>Copy<\/button><\/figcaption><pre class="astro-code[^"]*"[^>]*data-language="toml"/,
    );
    for (const other of ['handbook/guides/deploy', 'handbook/notes', 'handbook/welcome']) expect(page(other)).not.toContain('<figure class="code-block');
  });

  it('shows text subjects as preformatted text, escaped', () => {
    expect(page('handbook/notes')).toContain('<pre class="plain-text">Plain notes.\nSecond line with &lt;angle&gt; &amp; ampersand.</pre>');
  });

  it('shows images on their page and offers other binaries as downloads, from the stored bytes', () => {
    expect(page('handbook/img/logo')).toContain('<img src="/raw/handbook/img/logo/logo.png" alt="logo">');
    expect(page('handbook/files/archive')).toContain('<a href="/raw/handbook/files/archive/archive.bin" download>Download archive.bin</a>');
    expect(fs.readFileSync(path.join(dist, 'raw/handbook/img/logo/logo.png'))).toEqual(fs.readFileSync(path.join(FIXTURE, 'handbook/img/logo.png')));
    expect(fs.readFileSync(path.join(dist, 'raw/handbook/files/archive/archive.bin'))).toEqual(fs.readFileSync(path.join(FIXTURE, 'handbook/files/archive.bin')));
  });

  it('writes each subject’s markdown twin and JSON, and links them from its page', () => {
    expect(fs.readFileSync(path.join(dist, 'handbook/guides/config.md'), 'utf8')).toBe('```toml\n# Service settings\n[service]\nname = "api"\nreplicas = 3\n```');
    const html = page('handbook/guides/config');
    expect(html).toContain('<link rel="alternate" type="text/markdown" href="/handbook/guides/config.md">');
    expect(html).toContain('<a href="/kb/subjects/handbook/guides/config.json" type="application/json">JSON</a>');
    expect(html).toContain('<a href="https://example.test/acme/handbook/edit/trunk/handbook/guides/config.toml" rel="noopener">Edit</a>');
  });

  it('keeps the markdown twin of a page with alerts, math and a diagram as written, and loads KaTeX and mermaid on that page only', () => {
    expect(fs.readFileSync(path.join(dist, 'handbook/content-features/showcase.md'), 'utf8')).toBe(
      // The file as written, without its final line break, as every twin.
      fs.readFileSync(path.join(FIXTURE, 'handbook/content-features/showcase.md'), 'utf8').replace(/\n$/, ''),
    );
    const loads = (url: string) =>
      [...page(url).matchAll(/<(?:link rel="stylesheet"|script)[^>]*(?:href|src)="(\/_syllabus\/[^"]+)"[^>]*>/g)].map((match) => match[1]!.replace(/\.[0-9a-f]{10}\.js$/, '.js'));
    expect(loads('handbook/content-features/showcase')).toEqual([
      '/_syllabus/search.js',
      '/_syllabus/katex-0.18.11/katex.css',
      '/_syllabus/copy-markdown.js',
      '/_syllabus/code-blocks.js',
      '/_syllabus/diagrams.js',
      '/_syllabus/shell.js',
      '/_syllabus/sidebar.js',
    ]);
    expect(page('handbook/content-features/showcase')).toContain('data-mermaid="/_syllabus/mermaid-12.3.0/mermaid.esm.min.mjs"');
    for (const other of ['handbook/welcome', 'handbook/content-features/schema'])
      expect(loads(other)).toEqual(['/_syllabus/search.js', '/_syllabus/copy-markdown.js', '/_syllabus/code-blocks.js', '/_syllabus/shell.js', '/_syllabus/sidebar.js']);
  });
});

describe('agent endpoints (content/agents/endpoints.md)', () => {
  const json = (name: string): any => JSON.parse(fs.readFileSync(path.join(dist, name), 'utf8'));

  it('validates every JSON endpoint against the schema published beside it', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    const schemas = renderEndpointSchemas();
    for (const [name, schema] of Object.entries(schemas)) expect(json(`kb/schema/${name}`)).toEqual(schema);
    const schemaOf = (file: string): keyof typeof schemas =>
      file === 'kb/index.json'
        ? 'index.json'
        : file === 'kb/keywords.json'
          ? 'keywords.json'
          : file.startsWith('kb/knowledge')
            ? 'knowledge.json'
            : file.startsWith('kb/topics/')
              ? 'topic.json'
              : file.startsWith('kb/nav/')
                ? 'nav.json'
                : 'subject.json';
    const files = [...readDist().keys()].filter((f) => f.startsWith('kb/') && f.endsWith('.json') && !f.startsWith('kb/schema/') && f !== 'kb/kb.schema.json');
    expect(files.filter((f) => !f.startsWith('kb/subjects/'))).toEqual([
      'kb/index.json',
      'kb/keywords.json',
      'kb/knowledge.json',
      'kb/knowledge/newcomer.json',
      'kb/nav/handbook.json',
      'kb/nav/oncall.json',
      'kb/topics/handbook.json',
      'kb/topics/oncall.json',
    ]);
    expect(files.filter((f) => f.startsWith('kb/subjects/'))).toHaveLength(43);
    for (const file of files) {
      const validate = ajv.compile(schemas[schemaOf(file)]);
      expect(validate(json(file)) ? null : { file, errors: validate.errors }).toBeNull();
    }
  });

  it('publishes the JSON Schema of kb.toml at /kb/kb.schema.json, the file the package ships', () => {
    expect(fs.readFileSync(path.join(dist, 'kb/kb.schema.json'), 'utf8')).toBe(fs.readFileSync(path.join(ROOT, 'schema/kb.schema.json'), 'utf8'));
  });

  it('reaches every listed subject in two fetches from /kb/index.json, with matching hashes', () => {
    const index = json('kb/index.json');
    const listed = index.topics.flatMap((t: any) => t.subjects);
    expect(listed).toHaveLength(42);
    for (const entry of listed) {
      const subject = json(entry.json.slice(1));
      expect([subject.slug, subject.sha256, subject.hidden]).toEqual([entry.slug, entry.sha256, false]);
      expect(createHash('sha256').update(subject.content).digest('hex')).toBe(entry.sha256);
      expect(fs.readFileSync(path.join(dist, entry.markdown.slice(1)), 'utf8')).toBe(subject.content);
    }
  });

  it('serves a hidden subject at its predictable address only', () => {
    const hidden = json('kb/subjects/handbook/secret/hidden-note.json');
    expect([hidden.slug, hidden.hidden, hidden.address]).toEqual(['secret/hidden-note', true, 'secret/hidden-note']);
    for (const file of [
      'kb/index.json',
      'kb/keywords.json',
      'kb/index.txt',
      'llms.txt',
      'llms-full.txt',
      'sitemap.xml',
      'kb/topics/handbook.json',
      'kb/knowledge.json',
      'kb/knowledge/newcomer.json',
    ]) {
      expect(fs.readFileSync(path.join(dist, file), 'utf8'), file).not.toContain('hidden-note');
    }
  });

  it('writes a knowledge file per profile, with its subjects pre-loaded', () => {
    const profile = json('kb/knowledge/newcomer.json');
    expect(profile.topics).toEqual([
      { id: 'handbook', preloaded: ['welcome', 'guides/config', 'guides/deploy'].map((slug) => ({ slug, content: json(`kb/subjects/handbook/${slug}.json`).content })) },
      { id: 'oncall', preloaded: [] },
    ]);
    expect(json('kb/index.json').knowledge.profiles).toEqual({ newcomer: '/kb/knowledge/newcomer.json' });
  });

  it('links the endpoints for agents from every page, and each subject’s markdown twin from its head', () => {
    expect(between(page(''), '<nav class="agent-links"', '</nav>')).toBe(
      '<nav class="agent-links" aria-label="For agents">For agents: <a href="/llms.txt">llms.txt</a> · <a href="/kb/index.json" type="application/json">index.json</a> · <a href="/kb/knowledge.json" type="application/json">knowledge.json</a></nav>',
    );
    expect(page('handbook/welcome')).toContain('<link rel="alternate" type="text/markdown" href="/handbook/welcome.md">');
  });
});

describe('navigation', () => {
  it('gives a subject breadcrumbs, a table of contents, the sidebar’s place and previous/next', () => {
    const html = page('handbook/guides/deploy');
    expect(between(html, '<nav class="breadcrumbs"', '</nav>')).toBe(
      '<nav class="breadcrumbs" aria-label="Breadcrumbs"><ol><li><a href="/handbook/">Team Handbook</a></li><li><a href="/handbook/#folder-guides">guides</a></li><li aria-current="page">Deploying</li></ol></nav>',
    );
    expect(between(html, '<details class="toc"', '</details>')).toBe(
      '<details class="toc" id="toc" open><summary id="toc-title">On this page</summary><nav aria-labelledby="toc-title"><ul><li class="depth-2"><a href="#rollback">Rollback</a></li><li class="depth-3"><a href="#rollback-steps">Rollback steps</a></li></ul></nav></details>',
    );
    // The sidebar's tree comes from the topic's nav file in the browser: the page links the topic page only.
    expect(between(html, '<nav class="topic-nav"', '</nav>')).toBe(
      '<nav class="topic-nav" id="topic-nav" aria-label="Team Handbook" data-nav-url="/kb/nav/handbook.json" data-topic-url="/handbook/" data-current="guides/deploy" data-current-title="Deploying"><a class="topic-nav-title" href="/handbook/">Team Handbook</a><div id="topic-nav-tree"><p class="nav-fallback"><a href="/handbook/">All subjects of this topic</a></p></div></nav>',
    );
    expect(between(html, '<nav class="pager"', '</nav>')).toBe(
      '<nav class="pager" aria-label="Previous and next subjects"><a class="previous" href="/handbook/guides/config/" rel="prev"><span>Previous</span>config</a><a class="next" href="/handbook/img/logo/" rel="next"><span>Next</span>logo</a></nav>',
    );
  });

  it('publishes each topic’s tree as its nav file, listed subjects only', () => {
    const nav = JSON.parse(fs.readFileSync(path.join(dist, 'kb/nav/handbook.json'), 'utf8')) as { entries: { address?: string; folder?: string }[] };
    expect(nav.entries.filter((e) => e.folder !== undefined).map((e) => e.folder)).toEqual(['content-features', 'files', 'guides', 'img', 'many', 'search']);
    expect(nav.entries.filter((e) => e.address !== undefined)).toHaveLength(40);
    expect(JSON.stringify(nav)).not.toMatch(/secret|hidden-note|zebra/);
  });

  it('keeps every subject page’s links bounded, whatever the size of its topic', () => {
    const counts = [...readDist()].filter(([name]) => /^handbook\/.+\/index\.html$/.test(name)).map(([name, body]) => [name, body.match(/<a /g)?.length ?? 0] as const);
    expect(counts.length).toBe(41);
    for (const [name, links] of counts) expect(links, name).toBeLessThanOrEqual(40);
  });

  it('lists every listed subject on the topic page, in folders, with learned ones marked', () => {
    const html = page('handbook');
    expect(html).toContain('<h3 id="folder-many">many/ <span class="counts">(30)</span></h3>');
    expect(html).toContain('<li><a href="/handbook/welcome/">Welcome aboard</a><span class="badge learned" title="Pre-loaded into the agent\'s system prompt">learned</span></li>');
    expect(html).toContain('<p>Everything a new teammate needs. Start with <strong>Welcome</strong>.</p>');
    // The tree only: the header's topic switcher links the topic page too.
    expect(between(html, '<section class="tree"', '</section>').match(/<li><a href="\/handbook\//g)).toHaveLength(40);
  });

  it('shows each topic on the home page with its introduction, subject count and tokens', () => {
    const html = page('');
    expect(between(html, '<ul class="topics">', '</ul>')).toMatch(
      /^<ul class="topics"><li><h2><a href="\/handbook\/">Team Handbook<\/a><\/h2><p>How we build and ship\.<\/p><p class="counts">40 subjects · [\d,]+ tokens<\/p><\/li><li><h2><a href="\/oncall\/">On-call<\/a><\/h2><p>Who answers the pager\.<\/p><p class="counts">2 subjects · [\d,]+ tokens<\/p><\/li><\/ul>$/,
    );
  });

  it('loads nothing from other sites: no external scripts, styles or fonts', () => {
    for (const [name, body] of readDist()) {
      if (!name.endsWith('.html') && !name.endsWith('.css')) continue;
      expect(body, name).not.toMatch(/<script[^>]+src="(https?:)?\/\//);
      expect(body, name).not.toMatch(/<link[^>]+rel="stylesheet"[^>]+href="(https?:)?\/\//);
      expect(body, name).not.toMatch(/@import|url\((["']?)(https?:)?\/\//);
    }
  });
});

describe('incremental rebuilds', () => {
  it('rebuilds nothing when nothing changed', () => {
    const before = fs.statSync(path.join(dist, 'handbook/welcome/index.html')).mtimeMs;
    const again = build();
    expect(again.code).toBe(0);
    expect(
      again.stderr
        .replace(/\d+\.\d s/g, 'T s')
        .split('\n')
        .slice(2),
    ).toEqual([
      'read      2 topics, 43 subjects (T s)',
      'pages     nothing changed since the last build of dist/ (T s)',
      'Built dist/: 2 topics, 43 subjects (1 hidden, 1 disabled, 2 skipped), 2 warnings, T s',
      '',
    ]);
    expect(fs.statSync(path.join(dist, 'handbook/welcome/index.html')).mtimeMs).toBe(before);
  });

  it('rebuilds a changed subject and every page that shows it, and removes a deleted one', () => {
    fs.writeFileSync(path.join(work, 'handbook/guides/deploy.md'), '# Shipping\n\nDeploys go out every day.\n');
    fs.rmSync(path.join(work, 'handbook/many/item-30.md'));
    const again = build();
    expect(again.code).toBe(0);
    // Pages showing the new title (the subject, its neighbour and folder mate config, its
    // neighbour logo, the topic page), and the neighbours of the removed item (item-29, notes).
    expect(again.stderr).toContain('pages     6 pages changed, 1 removed; 1 subject rendered, 41 unchanged');
    expect(page('handbook/guides/deploy')).toContain('<h1 data-pagefind-meta="title">Shipping</h1>');
    expect(page('handbook/guides/config')).toContain('<a class="next" href="/handbook/guides/deploy/" rel="next"><span>Next</span>Shipping</a>');
    expect(page('handbook')).toContain('<a href="/handbook/guides/deploy/">Shipping</a>');
    expect(fs.existsSync(path.join(dist, 'handbook/many/item-30'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'handbook/many/item-30.md'))).toBe(false);
    expect(fs.existsSync(path.join(dist, 'kb/subjects/handbook/many/item-30.json'))).toBe(false);
    expect(containing('item-30')).toEqual([]);
    expect(containing('pineapple-deploy')).toEqual([]);
    expect(page('handbook/many/item-29')).toContain('<a class="next" href="/handbook/notes/" rel="next"><span>Next</span>notes</a>');
  });
});

describe('the search index in shards', () => {
  it('indexes again only the shard whose page changed, and keeps every page findable', async () => {
    const dir = makeTree({});
    fs.cpSync(FIXTURE, dir, { recursive: true });
    await withKeptPages(path.join(dir, '.cache'), 'site');
    const out = path.join(dir, 'dist');
    const env = { SYLLABUS_SEARCH_SHARD_PAGES: '10' };
    const args = ['build', '--config', path.join(dir, 'kb.toml'), '--out', out, '--cache', path.join(dir, '.cache')];
    const searchLine = (run: CliRun) =>
      run.stderr
        .split('\n')
        .find((l) => l.startsWith('search'))!
        .replace(/\d+\.\d s/, 'T s');
    expect(searchLine(runCli(args, { cwd: dir, env }))).toBe('search    40 pages indexed, 4 of 4 shards written (T s)');
    fs.writeFileSync(path.join(dir, 'handbook/many/item-05.md'), '# Item 05\n\nNow about kumquat-harvest.\n');
    expect(searchLine(runCli(args, { cwd: dir, env }))).toBe('search    40 pages indexed, 1 of 4 shards written (T s)');
    const fragments = fs
      .readdirSync(path.join(out, 'pagefind'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.pf_fragment'))
      .map((f) => zlib.gunzipSync(fs.readFileSync(path.join(out, 'pagefind', f))).toString('utf8'))
      .map((body) => JSON.parse(body.slice(body.indexOf('{'))) as { url: string; content: string });
    expect(fragments.length).toBe(40);
    expect(fragments.find((f) => f.url === '/handbook/many/item-05/')?.content).toBe('Item 05. Now about kumquat-harvest.');
    expect(JSON.parse(fs.readFileSync(path.join(out, 'pagefind/shards.json'), 'utf8'))).toEqual({ shards: ['0/', '1/', '2/', '3/'] });
  });
});
