/**
 * `[site] logo` and `[site] favicon` (content/reference/configuration.md): image files of the
 * knowledge base that the build copies into the site. A path is relative to the folder of the
 * config file that sets it and must stay inside it (pull request previews build configs from
 * untrusted branches), as topic folders must.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SiteFileKey, SyllabusConfig } from './merge.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { isOutside, realPathOrSelf } from '../files/paths.ts';

/** A checked site file, ready to copy. */
export interface SiteFile {
  key: SiteFileKey;
  /** The file to copy (absolute). */
  file: string;
  /** Its path in the site (`logo.png`, `favicon.ico`): the key's name and the file's extension, lower-cased. */
  sitePath: string;
}

/** The image extensions each key takes; SVG only with `allow_html` (an SVG may carry scripts). */
const EXTENSIONS: Record<SiteFileKey, readonly string[]> = {
  logo: ['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif'],
  favicon: ['png', 'ico', 'gif', 'webp', 'avif'],
};

/** Checks the site files of `config` on disk: the files to copy, and a configuration error for each that cannot be used. */
export function resolveSiteFiles(config: SyllabusConfig): { files: SiteFile[]; diagnostics: Diagnostic[] } {
  const files: SiteFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const key of ['logo', 'favicon'] as const) {
    const written = config.site[key];
    const origin = config.siteFileOrigins[key];
    if (written === undefined || origin === undefined) continue;
    const problem = siteFileProblem(key, written, path.dirname(origin.file), config.site.allow_html);
    if (typeof problem === 'string')
      diagnostics.push({ kind: 'config-error', code: 'bad-site-file', message: `site.${key}: ${problem}`, file: origin.file, ...(origin.line ? { line: origin.line } : {}) });
    else files.push(problem);
  }
  return { files, diagnostics };
}

/** What is wrong with the file `written` (relative to `root`) as `[site] <key>`, or the file when nothing is. */
function siteFileProblem(key: SiteFileKey, written: string, root: string, allowHtml: boolean): string | SiteFile {
  const quoted = JSON.stringify(written);
  const inside = `Put the file inside the folder of the config file (${root}) and give its path relative to that folder, because pull request previews build configs from untrusted branches.`;
  if (path.isAbsolute(written)) return `${quoted} is an absolute path. ${inside}`;
  const file = path.resolve(root, written);
  if (isOutside(root, file)) return `${quoted} leaves the folder of the config file. ${inside}`;
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(file, { throwIfNoEntry: false });
  } catch (error) {
    return `the file ${quoted} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}). Fix its permissions, or the symlink on its way.`;
  }
  const without = key === 'logo' ? 'the header then shows the title alone' : 'the site then uses the built-in icon';
  if (!stat) return `the file ${quoted} does not exist (${file}). Add the image there or correct the path, or remove ${key} (${without}).`;
  if (!stat.isFile()) return `${quoted} is not a file. Point ${key} at an image file.`;
  const real = realPathOrSelf(file);
  if (isOutside(realPathOrSelf(root), real)) return `${quoted} is a symlink to ${real}, outside the folder of the config file. ${inside}`;
  const extension = path.extname(written).slice(1).toLowerCase();
  const allowed = allowHtml ? [...EXTENSIONS[key], 'svg'] : EXTENSIONS[key];
  if (!allowed.includes(extension)) {
    const svg = extension === 'svg' ? ' An SVG file may carry scripts, so it is published only with allow_html = true.' : '';
    return `${quoted} is not an image the site can show as its ${key}.${svg} Use a file ending in ${allowed.map((e) => `.${e}`).join(', ')}.`;
  }
  return { key, file: real, sitePath: `${key}.${extension === 'jpeg' ? 'jpg' : extension}` };
}
