import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = path.resolve(import.meta.dirname, '../../src/kb');

/** Every file below src/kb, relative to it. */
function coreFiles(): string[] {
  return fs
    .readdirSync(CORE, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(CORE, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Module specifiers a file imports: static, dynamic, re-exports and require. */
function importsOf(text: string): string[] {
  const specifiers: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
    /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) specifiers.push(match[1]!);
  return [...new Set(specifiers)];
}

const FORBIDDEN = [/^astro$/, /^astro\//, /^astro:/, /^@astrojs\//, /^@modelcontextprotocol\//, /^vitest($|\/)/];

describe('src/kb stays framework-free (STYLE)', () => {
  const files = coreFiles();

  it('has files to scan', () => {
    expect(files).toContain('index.ts');
  });

  it.each(files)('%s imports no astro, MCP SDK or vitest, and has no process.exit or console', (file) => {
    const text = fs.readFileSync(path.join(CORE, file), 'utf8');
    const bad = importsOf(text).filter((specifier) => FORBIDDEN.some((pattern) => pattern.test(specifier)));
    expect(bad).toEqual([]);
    expect(text).not.toMatch(/\bprocess\s*\.\s*exit\b/);
    expect(text).not.toMatch(/\bconsole\s*\./);
  });

  it('recognises every import form it scans for', () => {
    const sample = `import x from 'astro';\nimport type { Y } from "astro:content";\nexport * from '@astrojs/mdx';\nimport '@modelcontextprotocol/sdk/server';\nconst v = await import('vitest');\nconst r = require("astro/config");\ntype T = typeof import('@astrojs/check');`;
    expect(
      importsOf(sample)
        .filter((s) => FORBIDDEN.some((p) => p.test(s)))
        .sort(),
    ).toEqual(['@astrojs/check', '@astrojs/mdx', '@modelcontextprotocol/sdk/server', 'astro', 'astro/config', 'astro:content', 'vitest'].sort());
  });
});
