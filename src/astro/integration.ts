/**
 * The Astro integration of Syllabus: writes the site's non-page files after the page build, and
 * serves the same files from the development server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { SiteData } from './site-data.ts';
import { loadSiteData } from './site-data-access.ts';
import { readStaticFile, staticText, type StaticFile } from './static-file.ts';

const CONTENT_TYPES: Record<string, string> = {
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
};

/** Writes `files` below `dir`, creating folders as needed. */
export function writeStaticFiles(dir: string, files: StaticFile[]): void {
  const made = new Set<string>();
  for (const file of files) {
    const target = path.join(dir, file.path);
    const folder = path.dirname(target);
    if (!made.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    if ('copy' in file.body) fs.copyFileSync(file.body.copy, target);
    else fs.writeFileSync(target, staticText(file.body));
  }
}

const byPath = new WeakMap<StaticFile[], Map<string, StaticFile>>();

/** The dev server's lookup of static files by path. */
function staticFileAt(files: StaticFile[], local: string): StaticFile | undefined {
  let index = byPath.get(files);
  if (!index) byPath.set(files, (index = new Map(files.map((f) => [f.path, f]))));
  return index.get(local);
}

/**
 * The static files of `data`: listed already when `syllabus build` provided it; otherwise listed
 * now, loading the core only then (see site-data-access.ts).
 */
async function listedStaticFiles(data: SiteData): Promise<StaticFile[]> {
  return data.staticFiles ?? (await import('./static-files.ts')).staticFilesOf(data);
}

/** Folders of the project that the dev server never needs to watch. */
const UNWATCHED = new Set(['test', 'dist', 'scripts', '.cache', '.syllabus-cache', '.ci', '.github']);

/**
 * Whether the dev server's watcher skips `file`: the project's folders that hold no site source,
 * unless a knowledge base being served lives there. Vite's watcher follows symlinks, and the
 * symlink fixtures under test/ (`loop -> .`) made it walk without end.
 */
export function isUnwatched(file: string, root: string, contentDirs: string[]): boolean {
  const local = path.relative(root, file);
  if (local.startsWith('..') || path.isAbsolute(local)) return false;
  if (!UNWATCHED.has(local.split(path.sep)[0]!)) return false;
  return !contentDirs.some((dir) => file === dir || file.startsWith(dir + path.sep) || dir.startsWith(file + path.sep));
}

/** The integration; `astro.config.mjs` adds it. */
export function syllabusIntegration(): AstroIntegration {
  return {
    name: 'syllabus',
    hooks: {
      'astro:config:setup': ({ command, config, updateConfig }) => {
        if (command !== 'dev') return;
        const root = fileURLToPath(config.root);
        const configFiles = JSON.parse(process.env['SYLLABUS_CONFIG_FILES'] ?? '[]') as string[];
        const contentDirs = (configFiles.length > 0 ? configFiles : [path.join(root, 'content', 'kb.toml')]).map((f) => path.dirname(path.resolve(f)));
        updateConfig({ vite: { server: { watch: { ignored: [(file: string) => isUnwatched(file, root, contentDirs)] } } } });
      },
      'astro:server:setup': ({ server }) => {
        server.middlewares.use((request, response, next) => {
          void (async () => {
            const data = await loadSiteData();
            const wanted = decodeURIComponent((request.url ?? '').split('?')[0]!);
            if (!wanted.startsWith(data.routes.base)) return next();
            const local = wanted.slice(data.routes.base.length);
            const file = staticFileAt(await listedStaticFiles(data), local);
            if (!file) return next();
            const extension = local.slice(local.lastIndexOf('.') + 1).toLowerCase();
            response.setHeader('Content-Type', CONTENT_TYPES[extension] ?? 'application/octet-stream');
            response.end(readStaticFile(file));
          })().catch(next);
        });
      },
      'astro:build:done': async ({ dir }) => {
        const data = await loadSiteData();
        const files = await listedStaticFiles(data);
        writeStaticFiles(fileURLToPath(dir), data.only ? files.filter((f) => data.only!.files.has(f.path)) : files);
      },
    },
  };
}
