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
