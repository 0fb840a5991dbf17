/** Syllabus's own package: where it is installed and its version. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm package name of Syllabus (its command is `syllabus`). */
export const PACKAGE_NAME = 'syllabus-kb';

let root: string | undefined;
let version: string | undefined;

/**
 * The folder of Syllabus's package.json: this checkout, or `node_modules/syllabus-kb` where it is
 * installed. Found by walking up from this module, which may run from `src/`, the compiled `lib/`
 * or a compiled copy in `node_modules/.cache/`.
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown };
      if (manifest.name === PACKAGE_NAME) return (root = dir);
    } catch {
      // No package.json here: keep walking up.
    }
    if (dir === path.dirname(dir)) throw new Error(`Syllabus could not find its own package.json (name "${PACKAGE_NAME}") above ${fileURLToPath(import.meta.url)}.`);
  }
}

/** Syllabus's version, from its package.json. */
export function packageVersion(): string {
  version ??= (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}

/** The User-Agent of URL source fetches: `Syllabus/<version> (+<[site] url>)`, or `Syllabus/<version>` without a url. */
export function sourcesUserAgent(siteUrl: string | undefined): string {
  return siteUrl ? `Syllabus/${packageVersion()} (+${siteUrl})` : `Syllabus/${packageVersion()}`;
}

/** The packages whose versions shape the output besides Syllabus's own code, each with the package that depends on it. */
const OUTPUT_PACKAGES: readonly (readonly [name: string, from: string])[] = [
  ['astro', PACKAGE_NAME],
  ['shiki', 'astro'],
  ['satteri', PACKAGE_NAME],
  ['@astrojs/markdown-satteri', PACKAGE_NAME],
  ['hast-util-sanitize', PACKAGE_NAME],
  ['pagefind', PACKAGE_NAME],
];

let versions: string | undefined;

/**
 * `name@version` of each package that shapes pages and the search index (Astro, Shiki, Sätteri,
 * the sanitiser, Pagefind), as installed: part of the keys of cached renderings and built pages,
 * so that updating one of them, even by a range its dependent allows, builds everything again.
 * A package that cannot be found counts as `unknown`.
 */
export function outputPackageVersions(): string {
  if (versions !== undefined) return versions;
  const folders = new Map<string, string>([[PACKAGE_NAME, packageRoot()]]);
  const found = OUTPUT_PACKAGES.map(([name, from]) => {
    const folder = packageFolder(name, folders.get(from));
    if (folder) folders.set(name, folder);
    const manifest = folder ? (JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8')) as { version?: string }) : undefined;
    return `${name}@${manifest?.version ?? 'unknown'}`;
  });
  return (versions = found.join(' '));
}

/**
 * The folder of package `name` as Node finds it from the package folder `from`: the first
 * `node_modules/<name>` on the way up (exports that hide `package.json`, or import-only packages,
 * do not matter). Undefined when there is none.
 */
function packageFolder(name: string, from: string | undefined): string | undefined {
  if (!from) return undefined;
  for (let dir = from; ; dir = path.dirname(dir)) {
    const folder = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
    if (dir === path.dirname(dir)) return undefined;
  }
}
