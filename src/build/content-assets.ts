/**
 * The libraries the site's pages load for what markdown shows (content/guide/the-site.md,
 * "Math and diagrams"): KaTeX's stylesheet and fonts, linked by pages with math, and mermaid's
 * browser modules, loaded by pages with a diagram. Published from the packages this build
 * runs with, under `_syllabus/<package>-<version>/`, so that the site needs nothing from
 * another host and a browser may keep them until the version changes.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { StaticFile } from './static-file.ts';

const require = createRequire(import.meta.url);

/** A package's folder and version, as installed. */
function packageOf(name: string): { dir: string; version: string } {
  const file = require.resolve(`${name}/package.json`);
  return { dir: path.dirname(file), version: (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version };
}

/** Where the assets are, below the site's base. */
export interface ContentAssetPaths {
  /** KaTeX's stylesheet, its fonts in `fonts/` beside it. */
  katexStylesheet: string;
  /** mermaid's ES module, its chunks in `chunks/` beside it. */
  mermaid: string;
}

/** KaTeX's stylesheet, as the package ships it. */
export function katexStylesheetFile(): string {
  return require.resolve('katex/dist/katex.min.css');
}

let paths: ContentAssetPaths | undefined;

/** The assets' paths below the site's base (`_syllabus/katex-0.18.11/katex.css`). */
export function contentAssetPaths(): ContentAssetPaths {
  paths ??= {
    katexStylesheet: `_syllabus/katex-${packageOf('katex').version}/katex.css`,
    mermaid: `_syllabus/mermaid-${packageOf('mermaid').version}/mermaid.esm.min.mjs`,
  };
  return paths;
}

/**
 * KaTeX's stylesheet with its fonts as WOFF2 only: every browser the site supports reads WOFF2,
 * so the older formats are neither published nor named.
 */
export function katexStylesheet(css: string): string {
  return css.replace(/,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\(["'](?:woff|truetype)["']\)/g, '');
}

/**
 * Every file of the assets: KaTeX's stylesheet and WOFF2 fonts, mermaid's module and its chunks
 * (no source maps). Each copied file is keyed by its path, which names the package's version,
 * so that a build neither hashes nor writes again the megabytes it wrote before.
 */
export function listContentAssets(): StaticFile[] {
  const { katexStylesheet: stylesheet, mermaid } = contentAssetPaths();
  const katexDir = path.dirname(katexStylesheetFile());
  const katexOut = path.posix.dirname(stylesheet);
  const files: StaticFile[] = [{ path: stylesheet, body: { make: () => katexStylesheet(fs.readFileSync(katexStylesheetFile(), 'utf8')) } }];
  for (const font of fs
    .readdirSync(path.join(katexDir, 'fonts'))
    .filter((name) => name.endsWith('.woff2'))
    .sort()) {
    files.push({ path: `${katexOut}/fonts/${font}`, body: { copy: path.join(katexDir, 'fonts', font) } });
  }
  const mermaidDir = path.join(packageOf('mermaid').dir, 'dist');
  const mermaidOut = path.posix.dirname(mermaid);
  files.push({ path: mermaid, body: { copy: path.join(mermaidDir, 'mermaid.esm.min.mjs') } });
  const chunks = path.join(mermaidDir, 'chunks', 'mermaid.esm.min');
  for (const chunk of fs
    .readdirSync(chunks)
    .filter((name) => name.endsWith('.mjs'))
    .sort()) {
    files.push({ path: `${mermaidOut}/chunks/mermaid.esm.min/${chunk}`, body: { copy: path.join(chunks, chunk) } });
  }
  return files;
}
