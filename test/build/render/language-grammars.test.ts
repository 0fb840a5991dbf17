/**
 * Languages Shiki lacks are highlighted by the closest grammar it has, or shown as plain text, and
 * nothing is ever printed (content/reference/subject-formats.md, "Highlighting on the site").
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GRAMMAR_FOR, grammarOf, isShikiLanguage } from '../../../src/build/render/language-grammars.ts';
import { createMarkdownRenderer, type MarkdownRenderer } from '../../../src/build/render/markdown-renderer.ts';

function renderer(): Promise<MarkdownRenderer> {
  return createMarkdownRenderer(() => ({ allowHtml: false, base: '/', linkTopics: [], byFile: new Map(), rawUrls: new Map() }));
}

describe('the table of grammars', () => {
  it('maps only languages Shiki lacks, each to a grammar Shiki has', () => {
    expect(Object.keys(GRAMMAR_FOR).filter(isShikiLanguage)).toEqual([]);
    expect(Object.entries(GRAMMAR_FOR).filter(([, grammar]) => !isShikiLanguage(grammar))).toEqual([]);
    expect(Object.keys(GRAMMAR_FOR).filter((key) => key !== key.toLowerCase())).toEqual([]);
  });

  it("keeps Shiki's own names and aliases, in any case, maps the others and falls back to plain text", () => {
    const asked = [
      'xml',
      'py',
      'Python',
      'TS',
      'xsd',
      'XSD',
      'xslt',
      'wsdl',
      'plist',
      'gradle',
      'bzl',
      'mk',
      'env',
      'service',
      'tf',
      'hcl',
      'properties',
      'conf',
      'no-such-language',
      '',
      'text',
    ];
    expect(Object.fromEntries(asked.map((language) => [language, grammarOf(language)]))).toEqual({
      xml: 'xml',
      py: 'py',
      Python: 'python',
      TS: 'ts',
      xsd: 'xml',
      XSD: 'xml',
      xslt: 'xsl',
      wsdl: 'xml',
      plist: 'xml',
      gradle: 'groovy',
      bzl: 'python',
      mk: 'make',
      env: 'dotenv',
      service: 'systemd',
      tf: 'tf',
      hcl: 'hcl',
      properties: 'properties',
      conf: 'plaintext',
      'no-such-language': 'plaintext',
      '': 'plaintext',
      text: 'text',
    });
  });
});

describe('highlighting a language Shiki lacks', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('colours it with the mapped grammar, in code subjects and markdown fences alike, labelled with the language as written', async () => {
    const site = await renderer();
    const schema = '<xs:element name="note" type="xs:string"/>';
    const asXml = await site.highlight(schema, 'xml');
    expect(asXml).toContain('data-language="xml"');
    const labelled = (html: string, label: string) => html.replace('data-language="xml">', `data-language="xml" data-label="${label}">`);
    expect(await site.highlight(schema, 'xsd')).toBe(labelled(asXml, 'xsd'));
    expect((await site.render(`\`\`\`xsd\n${schema}\n\`\`\`\n`)).html).toBe(labelled((await site.render(`\`\`\`xml\n${schema}\n\`\`\`\n`)).html, 'xsd'));
    // A patch keeps a diff's unselectable markers.
    expect(await site.highlight('+a\n-b', 'patch')).toBe((await site.highlight('+a\n-b', 'diff')).replace('data-language="diff">', 'data-language="diff" data-label="patch">'));
  });

  it.each(['xsd', 'svg', 'plist', 'csproj'])('highlights .%s as XML', async (extension) => {
    const site = await renderer();
    const text = '<a b="c"/>';
    expect(await site.highlight(text, extension)).toBe((await site.highlight(text, 'xml')).replace('data-language="xml">', `data-language="xml" data-label="${extension}">`));
  });

  it.each(['xsl', 'xslt'])("highlights .%s with the XSL grammar (XML with XSLT's own elements)", async (extension) => {
    const site = await renderer();
    const text = '<xsl:template match="/"/>';
    const label = extension === 'xsl' ? '' : ' data-label="xslt"';
    expect(await site.highlight(text, extension)).toBe((await site.highlight(text, 'xsl')).replace('data-language="xsl">', `data-language="xsl"${label}>`));
    expect(await site.highlight(text, extension)).not.toBe((await site.highlight(text, 'plaintext')).replace('data-language="plaintext">', `data-language="xsl"${label}>`));
  });

  it('prints nothing, for a mapped language or an unknown one', async () => {
    const printed: unknown[][] = [];
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => printed.push([method, ...args]));
    }
    const written = vi.spyOn(process.stderr, 'write');
    const site = await renderer();
    await site.highlight('a', 'xsd');
    await site.highlight('a', 'no-such-language');
    await site.render('```no-such-language\na\n```\n\n```{.weird}\nb\n```\n\n```Plist\n<plist/>\n```\n');
    expect(printed).toEqual([]);
    expect(written).not.toHaveBeenCalled();
  });

  it('shows an unknown language as plain text', async () => {
    const site = await renderer();
    expect(await site.highlight('a < b', 'no-such-language')).toBe(
      (await site.highlight('a < b', 'plaintext')).replace('data-language="plaintext">', 'data-language="plaintext" data-label="no-such-language">'),
    );
  });
});
