/**
 * MDX on the site (src/build/render/mdx-components.ts, content/reference/subject-formats.md,
 * "MDX"): each docs component mapped to the site's element, rendered through the site's own
 * renderer and sanitiser. Whole output strings.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { RenderContext } from '../../../src/build/render/markdown-plugins.ts';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';
import { stringLiteral } from '../../../src/build/render/mdx-components.ts';

function siteContext(allowHtml: boolean): RenderContext {
  return { allowHtml, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() };
}

let sanitised: MarkdownRenderer;
let trusted: MarkdownRenderer;
beforeAll(async () => {
  [sanitised, trusted] = await Promise.all([createMarkdownRenderer(() => siteContext(false)), createMarkdownRenderer(() => siteContext(true))]);
});

async function html(mdx: string, renderer = sanitised): Promise<string> {
  const rendered = await renderer.renderMdx(mdx);
  expect(rendered.error).toBeUndefined();
  return rendered.html;
}

describe('callouts', () => {
  it('Mintlify callouts, with their kind and their name as the title', async () => {
    expect(await html('<Note>Read **this**.</Note>')).toBe('<div class="callout callout-note"><p class="callout-title">Note</p><p>Read <strong>this</strong>.</p></div>\n');
    expect(await html('<Info>i</Info>\n\n<Tip>t</Tip>\n\n<Check>c</Check>\n\n<Warning>w</Warning>\n\n<Danger>d</Danger>')).toBe(
      [
        '<div class="callout callout-note"><p class="callout-title">Info</p><p>i</p></div>',
        '<div class="callout callout-tip"><p class="callout-title">Tip</p><p>t</p></div>',
        '<div class="callout callout-tip"><p class="callout-title">Check</p><p>c</p></div>',
        '<div class="callout callout-warning"><p class="callout-title">Warning</p><p>w</p></div>',
        '<div class="callout callout-caution"><p class="callout-title">Danger</p><p>d</p></div>',
        '',
      ].join('\n'),
    );
  });

  it("Starlight's Aside and Docusaurus's Admonition by type, titled by title", async () => {
    expect(await html('<Aside type="caution" title="Mind the gap">\n\nText.\n\n</Aside>')).toBe(
      '<div class="callout callout-warning"><p class="callout-title">Mind the gap</p><p>Text.</p></div>\n',
    );
    expect(await html('<Aside>\nPlain.\n</Aside>')).toBe('<div class="callout callout-note"><p class="callout-title">Note</p><p>Plain.</p></div>\n');
    expect(await html('<Admonition type="danger">Stop.</Admonition>')).toBe('<div class="callout callout-caution"><p class="callout-title">Danger</p><p>Stop.</p></div>\n');
  });

  it('Docusaurus directives, titled by their label or the words after the name; other directives stay text', async () => {
    expect(await html(':::tip[Use *this*]\nBody.\n:::')).toBe('<div class="callout callout-tip"><p class="callout-title">Use <em>this</em></p><p>Body.</p></div>\n');
    expect(await html(':::info Legacy title\nBody.\n:::')).toBe('<div class="callout callout-note"><p class="callout-title">Legacy title</p><p>Body.</p></div>\n');
    expect(await html(':::warning\nBody.\n:::')).toBe('<div class="callout callout-warning"><p class="callout-title">Warning</p><p>Body.</p></div>\n');
    expect(await html('Serve on localhost:8080 at 10:30.\n\n::leaf')).toBe('<p>Serve on localhost:8080 at 10:30.</p>\n<p>::leaf</p>\n');
  });
});

describe('tabs, steps, cards', () => {
  it('tabs of each docs site: a labelled section per tab', async () => {
    const tab = (label: string, body: string) => `<section class="tab"><p class="tab-label">${label}</p><p>${body}</p></section>`;
    expect(await html('<Tabs>\n  <Tab title="npm">npm i</Tab>\n  <Tab title="pnpm">pnpm add</Tab>\n</Tabs>')).toBe(
      `<div class="tabs">${tab('npm', 'npm i')}${tab('pnpm', 'pnpm add')}</div>\n`,
    );
    expect(await html('<Tabs>\n<TabItem label="Stars">\n\nA\n\n</TabItem>\n<TabItem value="moons">\n\nB\n\n</TabItem>\n</Tabs>')).toBe(
      `<div class="tabs">${tab('Stars', 'A')}${tab('moons', 'B')}</div>\n`,
    );
  });

  it('Mintlify steps with titles, and Starlight steps around an ordered list', async () => {
    expect(await html('<Steps>\n  <Step title="Install">Run it.</Step>\n  <Step>Done.</Step>\n</Steps>')).toBe(
      '<ol class="steps"><li><p class="step-title">Install</p><p>Run it.</p></li><li><p>Done.</p></li></ol>\n',
    );
    expect(await html('<Steps>\n\n1. One\n2. Two\n\n</Steps>')).toBe('<ol class="steps">\n<li>One</li>\n<li>Two</li>\n</ol>\n');
  });

  it('cards in a grid, titled by a link to their address', async () => {
    expect(await html('<CardGroup cols={2}>\n  <Card title="Guide" href="/guide" icon="book">Start here.</Card>\n  <Card title="Plain">No link.</Card>\n</CardGroup>')).toBe(
      '<div class="cards"><div class="card"><p class="card-title"><a href="/guide">Guide</a></p><p>Start here.</p></div><div class="card"><p class="card-title">Plain</p><p>No link.</p></div></div>\n',
    );
    expect(await html('<LinkCard title="API" href="https://example.com/api" description="Every call." />')).toBe(
      '<div class="cards"><div class="card"><p class="card-title"><a href="https://example.com/api">API</a></p><p>Every call.</p></div></div>\n',
    );
  });
});

describe('figures, accordions, code, fields', () => {
  it('a frame is a figure with its caption', async () => {
    expect(await html('<Frame caption="The dashboard">\n  <img src="/dash.png" alt="Dashboard" />\n</Frame>')).toBe(
      '<figure class="frame"><p><img src="/dash.png" alt="Dashboard"></p><figcaption>The dashboard</figcaption></figure>\n',
    );
  });

  it('accordions and details are disclosures', async () => {
    expect(await html('<AccordionGroup>\n  <Accordion title="Why?">Because.</Accordion>\n</AccordionGroup>')).toBe(
      '<div class="accordion-group"><details class="accordion"><summary>Why?</summary><p>Because.</p></details></div>\n',
    );
    expect(await html('<details>\n<summary>More</summary>\n\nHidden text.\n\n</details>')).toBe('<details><summary>More</summary><p>Hidden text.</p></details>\n');
  });

  it('a code group shows each block after its title; CodeBlock is a code block', async () => {
    const group = await html('<CodeGroup>\n\n```bash npm\nnpm i\n```\n\n```bash title="pnpm"\npnpm i\n```\n\n</CodeGroup>');
    expect(group.replace(/<pre[\s\S]*?<\/pre>/g, '<pre/>')).toBe('<div class="code-group"><p class="code-title">npm</p><pre/><p class="code-title">pnpm</p><pre/></div>\n');
    expect(group).toContain('data-language="bash"><code><span class="line"><span style="--shiki-light:#953800;--shiki-dark:#FFA657">npm</span>');
    const block = await html('<CodeBlock language="python" title="hello.py">{`print("hi")`}</CodeBlock>');
    expect(block).toMatch(/^<pre class="astro-code[^"]*"[^>]*data-language="python"><code><span class="line">.*print.*<\/span><\/code><\/pre>\n$/);
  });

  it('fields are definitions: the name, then its facts, then the description', async () => {
    expect(await html('<ParamField query="limit" type="number" required default="10">\n  How many.\n</ParamField>')).toBe(
      '<dl class="field"><dt><code>limit</code> <span class="field-meta">query · number · required · default: 10</span></dt><dd><p>How many.</p></dd></dl>\n',
    );
    expect(await html('<ResponseField name="id" type="string">The id.</ResponseField>')).toBe(
      '<dl class="field"><dt><code>id</code> <span class="field-meta">string</span></dt><dd><p>The id.</p></dd></dl>\n',
    );
  });

  it('file trees, badges and icons', async () => {
    expect(await html('<FileTree>\n\n- src/\n  - index.ts\n\n</FileTree>')).toBe('<div class="file-tree"><ul>\n<li>src/\n<ul>\n<li>index.ts</li>\n</ul>\n</li>\n</ul></div>\n');
    expect(await html('New <Badge text="beta" /> here <Icon name="star" />.')).toBe('<p>New <span class="badge">beta</span> here .</p>\n');
  });
});

describe('what is not a component', () => {
  it('import and export are dropped; unknown components render their children, self-closing ones nothing', async () => {
    expect(
      await html('import Chart from \'./chart.tsx\'\nexport const meta = {}\n\n# Title\n\n<Chart points={[1, 2]} />\n\n<Tooltip tip="x">\n\nKept **text**.\n\n</Tooltip>'),
    ).toBe('<h1 id="title">Title</h1>\n<p>Kept <strong>text</strong>.</p>\n');
  });

  it('expressions render nothing, but a string literal renders its text', async () => {
    expect(await html('Less than {\'<\'}, {"quoted"}, {`tpl`}, {1 + 1}{/* note */}{`${x}`}.')).toBe('<p>Less than &lt;, quoted, tpl, .</p>\n');
    expect(await html("{'A paragraph of its own'}\n\n{props.hidden}")).toBe('<p>A paragraph of its own</p>\n');
  });

  it('headings get ids, for the table of contents', async () => {
    const rendered = await sanitised.renderMdx('## First\n\n<Note>\n\n### Inside\n\n</Note>');
    expect(rendered.headings).toEqual([
      { depth: 2, slug: 'first', text: 'First' },
      { depth: 3, slug: 'inside', text: 'Inside' },
    ]);
  });
});

describe('nothing in MDX runs', () => {
  it('scripts, event handlers and javascript: URLs never reach the page', async () => {
    const mdx =
      '<script>alert(1)</script>\n\n<button onClick={() => alert(1)} onmouseover="alert(2)">Go</button>\n\n<Card title="Bad" href="javascript:alert(3)" />\n\n<a href="javascript:alert(4)">link</a>';
    expect(await html(mdx)).toBe('<p>Go</p>\n<div class="cards"><div class="card"><p class="card-title"><a>Bad</a></p></div></div>\n<p><a>link</a></p>\n');
  });

  it('with allow_html, HTML stays as written but scripts and handlers are still dropped', async () => {
    expect(await html('<script>alert(1)</script>\n\n<div class="mine" onClick={f} onclick="alert(2)">x</div>', trusted)).toBe('<div class="mine"><p>x</p></div>\n');
  });
});

describe('MDX that does not parse', () => {
  it('is rendered as plain markdown (raw HTML sanitised), with the reason and place', async () => {
    const rendered = await sanitised.renderMdx('# Title\n\nA { in prose.\n\n<Note>\nUnclosed');
    expect(rendered).toEqual({
      html: '<h1 id="title">Title</h1>\n<p>A { in prose.</p>\n\nUnclosed\n',
      headings: [{ depth: 1, slug: 'title', text: 'Title' }],
      error: { reason: 'Unexpected end of file in expression, expected a corresponding closing brace for `{`', line: 3, column: 3 },
    });
  });
});

describe('stringLiteral', () => {
  it('reads one string literal, escapes included, and nothing else', () => {
    expect(stringLiteral(` 'it\\'s' `)).toBe("it's");
    expect(stringLiteral('"a\\n\\u0041\\u{1F600}\\x41"')).toBe('a\nA😀A');
    expect(stringLiteral('`multi\nline`')).toBe('multi\nline');
    expect(stringLiteral('`${x}`')).toBeUndefined();
    expect(stringLiteral("'a' + 'b'")).toBeUndefined();
    expect(stringLiteral('x')).toBeUndefined();
  });
});
