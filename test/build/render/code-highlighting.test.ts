/**
 * Code blocks are highlighted the same every time (content/reference/decisions.md, "Deterministic
 * builds"): the HTML of a block depends on its language and code only, never on which languages
 * the process met before it, nor on how long tokenizing took.
 */
import { bundledLanguages, bundledLanguagesInfo } from 'shiki';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SEPARATE_LANGUAGES } from '../../../src/build/render/code-highlighter.ts';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';

function renderer(): Promise<MarkdownRenderer> {
  return createMarkdownRenderer(() => ({ allowHtml: false, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() }));
}

async function html(markdown: string, site: MarkdownRenderer): Promise<string> {
  return (await site.render(markdown)).html;
}

// A Vue component whose style is SCSS: Shiki's Vue grammar highlights SCSS only when SCSS is loaded.
const VUE = '```vue\n<template>\n  <p class="note">{{ message }}</p>\n</template>\n<style lang="scss">\n.note { .inner { color: red; } }\n</style>\n```\n';
// A markdown block with a Python fence inside and a Vue interpolation: Shiki's markdown grammar
// highlights the fence only when Python is loaded, and Vue injects its interpolations into markdown.
const MARKDOWN = '~~~markdown\n# Notes {{ name }}\n\n```python\ndef area(r):\n    return 3.14 * r * r\n```\n~~~\n';
// One line of HTML with a script and a style: three grammars on one line.
const ONE_LINE_HTML = '```html\n<div onclick="go()">x</div><script>const a = 1;</script><style>.a{color:red}</style>\n```\n';

describe('highlighting does not depend on what was highlighted before', () => {
  // First in the file: the process has met none of these languages yet.
  it('gives the same HTML to blocks highlighted at the same time as to blocks highlighted alone', async () => {
    const site = await renderer();
    const blocks = [
      VUE,
      MARKDOWN,
      ONE_LINE_HTML,
      '```scss\n.a { .b { color: blue; } }\n```\n',
      '```svelte\n<script lang="ts">let n: number = 0;</script>\n<style lang="scss">.a { .b { c: d; } }</style>\n```\n',
    ];
    const together = await Promise.all(blocks.map((block) => html(block, site)));
    const alone = [];
    for (const block of blocks) alone.push(await html(block, site));
    expect(together).toEqual(alone);
  });

  it('gives a block the same HTML before and after the languages it embeds or that inject into it were used', async () => {
    const site = await renderer();
    const before = [await html(VUE, site), await html(MARKDOWN, site)];
    // Languages the two blocks embed, one that injects into markdown (Vue), and others.
    for (const language of ['scss', 'python', 'vue', 'sass', 'less', 'javascript', 'typescript', 'ts-tags', 'angular-html']) {
      await html(`\`\`\`${language}\nx\n\`\`\`\n`, site);
    }
    const after = [await html(VUE, site), await html(MARKDOWN, site)];
    expect(after).toEqual(before);
  });
});

describe('highlighting does not depend on time', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('highlights a line to its end however long tokenizing it takes', async () => {
    const site = await renderer();
    const blocks = [ONE_LINE_HTML, VUE, MARKDOWN];
    const expected = [];
    for (const block of blocks) expected.push(await html(block, site));
    // Every reading of the clock a second later: Shiki's default limit (500 ms a line) would stop
    // tokenizing at once and leave the rest of the line as one plain token.
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000));
    const slow = [];
    for (const block of blocks) slow.push(await html(block, site));
    expect(slow).toEqual(expected);
    // The whole line in tokens: the attribute's script, the script and the style too.
    const [plain, tag, attribute, string, call, keyword] = [
      ['#1F2328', '#E6EDF3'],
      ['#116329', '#7EE787'],
      ['#0550AE', '#79C0FF'],
      ['#0A3069', '#A5D6FF'],
      ['#8250DF', '#D2A8FF'],
      ['#CF222E', '#FF7B72'],
    ] as const;
    const tokens = [
      [plain, '&lt;'],
      [tag, 'div'],
      [attribute, ' onclick'],
      [plain, '='],
      [string, '"'],
      [call, 'go'],
      [string, '()"'],
      [plain, '&gt;x&lt;/'],
      [tag, 'div'],
      [plain, '&gt;&lt;'],
      [tag, 'script'],
      [plain, '&gt;'],
      [keyword, 'const'],
      [attribute, ' a'],
      [keyword, ' ='],
      [attribute, ' 1'],
      [plain, ';&lt;/'],
      [tag, 'script'],
      [plain, '&gt;&lt;'],
      [tag, 'style'],
      [plain, '&gt;.a{'],
      [attribute, 'color'],
      [plain, ':'],
      [attribute, 'red'],
      [plain, '}&lt;/'],
      [tag, 'style'],
      [plain, '&gt;'],
    ] as const;
    const line = tokens.map(([[light, dark], text]) => `<span style="--shiki-light:${light};--shiki-dark:${dark}">${text}</span>`).join('');
    expect(slow[0]).toBe(
      `<pre class="astro-code astro-code-themes github-light-default github-dark-default" style="--shiki-light:#1f2328;--shiki-dark:#e6edf3;--shiki-light-bg:#ffffff;--shiki-dark-bg:#0d1117; overflow-x: auto;" tabindex="0" data-language="html"><code><span class="line">${line}</span></code></pre>\n`,
    );
  });
});

describe('a block highlighted directly (a code subject, a diff)', () => {
  it('is the HTML its fenced block renders to, byte for byte', async () => {
    const site = await renderer();
    const code = 'const x = 1; // <a> & "b"\n+ added\n- removed\n\n\tindented';
    const blocks: [string, string][] = [
      ['typescript', code],
      ['diff', '+a\n-b\n c'],
      ['vue', VUE.split('\n').slice(1, -2).join('\n')],
      ['markdown', MARKDOWN.split('\n').slice(1, -2).join('\n')],
      ['no-such-language', code],
      ['', code],
      ['math', 'x^2 < y'],
      ['js title="a.js"', code],
      // Markdown ends a line at a lone carriage return and drops NUL; one final line break is not part of the block.
      ['js', 'a\rb\r\rc'],
      ['js', 'a\0b'],
      ['js', 'x\n'],
      ['js', '\n\nlead'],
      ['js', ''],
      ['js', '```inner```'],
    ];
    const direct = await Promise.all(blocks.map(([language, text]) => site.highlight(text, language)));
    const fenced = [];
    for (const [language, text] of blocks) {
      const fence = '`'.repeat(Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length)) + 1);
      fenced.push(await html(`${fence}${language}\n${text}\n${fence}\n`, site));
    }
    expect(direct).toEqual(fenced);
  });

  it('looks as Astro makes a block: its classes and attributes, unselectable diff markers, plain text for an unknown language', async () => {
    const site = await renderer();
    const pre = (language: string) =>
      `<pre class="astro-code astro-code-themes github-light-default github-dark-default" style="--shiki-light:#1f2328;--shiki-dark:#e6edf3;--shiki-light-bg:#ffffff;--shiki-dark-bg:#0d1117; overflow-x: auto;" tabindex="0" data-language="${language}"><code>`;
    expect(await site.highlight('+a\n-b\n c', 'diff')).toBe(
      `${pre('diff')}<span class="line"><span style="--shiki-light:#116329;--shiki-dark:#7EE787"><span style="user-select: none;">+</span>a</span></span>\n` +
        '<span class="line"><span style="--shiki-light:#82071E;--shiki-dark:#FFA198"><span style="user-select: none;">-</span>b</span></span>\n' +
        '<span class="line"><span style="--shiki-light:#1F2328;--shiki-dark:#E6EDF3"> c</span></span></code></pre>\n',
    );
    expect(await site.highlight('a < b & "c"', 'no-such-language')).toBe(
      `${pre('plaintext').replace('">', '" data-label="no-such-language">')}<span class="line"><span>a &lt; b &amp; "c"</span></span></code></pre>\n`,
    );
  });
});

/** A grammar of Shiki, as its language modules export it. */
interface Grammar {
  name: string;
  scopeName: string;
  embeddedLangsLazy?: string[];
  injectTo?: string[];
}

/** Each of Shiki's languages with the grammars loading it loads (its own and those it embeds). */
async function shikiBundles(): Promise<{ id: string; aliases: string[]; grammars: Grammar[] }[]> {
  return Promise.all(
    bundledLanguagesInfo.map(async (info) => ({
      id: info.id,
      aliases: info.aliases ?? [],
      grammars: (await bundledLanguages[info.id as keyof typeof bundledLanguages]()).default,
    })),
  );
}

/** The scopes of other grammars a grammar includes. */
function includedScopes(grammar: Grammar): Set<string> {
  const scopes = new Set<string>();
  JSON.stringify(grammar, (key, value: unknown) => {
    if (key === 'include' && typeof value === 'string' && !value.startsWith('#') && !value.startsWith('$')) scopes.add(value.split('#')[0]!);
    return value;
  });
  scopes.delete(grammar.scopeName);
  return scopes;
}

describe('the languages highlighted apart', () => {
  it("are Shiki's languages whose grammars embed others lazily or inject themselves into others, with their aliases", async () => {
    const separate = (await shikiBundles()).filter((b) => b.grammars.some((g) => (g.embeddedLangsLazy ?? []).length > 0 || (g.injectTo ?? []).length > 0));
    expect(Object.entries(SEPARATE_LANGUAGES)).toEqual(separate.map((b) => [b.id, b.aliases]));
  });

  it('leave languages that include no grammar but those loaded with them, so that sharing a highlighter changes none', async () => {
    const bundles = await shikiBundles();
    const languageOfScope = new Map<string, string>();
    for (const grammar of bundles.flatMap((b) => b.grammars)) {
      // Two grammars with one scope would make the one loaded last win.
      expect([grammar.scopeName, languageOfScope.get(grammar.scopeName) ?? grammar.name]).toEqual([grammar.scopeName, grammar.name]);
      languageOfScope.set(grammar.scopeName, grammar.name);
    }
    const reachingOut = bundles
      .filter((b) => !(b.id in SEPARATE_LANGUAGES))
      .flatMap((b) => {
        const own = new Set(b.grammars.map((g) => g.scopeName));
        return b.grammars.flatMap((g) =>
          [...includedScopes(g)].filter((scope) => languageOfScope.has(scope) && !own.has(scope)).map((scope) => `${b.id}: ${g.name} includes ${scope}`),
        );
      });
    expect(reachingOut).toEqual([]);
  });
});
