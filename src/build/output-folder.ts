/**
 * Writing a built site into its output folder: a full build replaces the folder at once, an
 * incremental build moves its files into the previous build and removes what no longer exists.
 * Before either, {@link outputFolderProblem} makes sure that replacing the folder deletes nothing
 * but a build's own output (content/reference/cli/build.md, "The output folder").
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SyllabusConfig } from '../kb/config/merge.ts';
import { CACHE_FOLDER_NAME, isOutside, realPathAsMade } from '../kb/files/paths.ts';

/**
 * The file that marks a folder as the output of a Syllabus build or join. Every output folder they
 * write holds it: empty while the folder holds no finished build (a build under way, a join), else
 * the id of the build it holds (plan.ts).
 */
export const BUILD_MARKER = '.syllabus-build';

/** What a replaced output folder keeps: a Git checkout's own folder (a `gh-pages` worktree). */
const KEPT_ENTRIES: readonly string[] = ['.git'];

/** A file or folder that a build or a join must never delete, as an error names it. */
export interface ProtectedPath {
  path: string;
  name: string;
}

/**
 * Why a build or a join may not write into `outDir` (absolute), which it replaces whole; undefined
 * when it may. It may not when the folder holds one of `kept` (the knowledge base, the current
 * folder, …), when it is a file, or when it holds files that no Syllabus build made (no
 * {@link BUILD_MARKER}; a folder that is empty, or holds only `.git`, is fine). Symbolic links are
 * followed. `shown` names a path as the error shows it.
 */
export function outputFolderProblem(outDir: string, kept: readonly ProtectedPath[], shown: (file: string) => string): string | undefined {
  const out = realPathAsMade(outDir);
  const held = kept.find((entry) => !isOutside(out, realPathAsMade(entry.path)));
  if (held) {
    return `The output folder ${shown(outDir)}/ holds ${held.name}, and an output folder is replaced whole: it would be deleted. Build into a folder of its own, outside the knowledge base (--out DIR).`;
  }
  let entries: string[];
  try {
    entries = fs.readdirSync(outDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') return `The output folder ${shown(outDir)} is a file. Build into a folder (--out DIR).`;
    return `The output folder ${shown(outDir)}/ cannot be read (${(error as Error).message}). Build into another folder (--out DIR).`;
  }
  if (entries.includes(BUILD_MARKER)) return undefined;
  const foreign = entries.filter((entry) => !KEPT_ENTRIES.includes(entry)).sort();
  if (foreign.length === 0) return undefined;
  const named = foreign.length > 3 ? `${foreign.slice(0, 3).join(', ')} and ${foreign.length - 3} more` : foreign.join(', ');
  return `The output folder ${shown(outDir)}/ holds files that no Syllabus build made (${named}; a folder a build wrote holds a ${BUILD_MARKER} file), and an output folder is replaced whole: they would be deleted. Move them away, or build into another folder (--out DIR).`;
}

/**
 * Why a build of `config` may not write into `outDir` with its cache in `cacheDir` (both
 * absolute), or undefined when it may: {@link outputFolderProblem}, with the config files, every
 * topic's folder or learnings store, the cache and `cwd` to keep; the cache may hold none of them
 * but itself; and neither folder may lie in an enabled topic's folder, where the next build would
 * read what this one writes as subjects (a cache folder named `.syllabus-cache` is never read).
 */
export function buildOutputProblem(config: SyllabusConfig, outDir: string, cacheDir: string, cwd: string, shown: (file: string) => string): string | undefined {
  const knowledge: ProtectedPath[] = [
    ...config.files.map((file) => ({ path: file, name: `the config file ${shown(file)}` })),
    ...config.topics.map((topic) => ({
      path: topic.dir,
      name: topic.kind === 'folder' ? `the folder of topic "${topic.id}" (${shown(topic.dir)}/)` : `the learnings store of topic "${topic.id}" (${shown(topic.dir)})`,
    })),
    { path: cwd, name: 'the current folder' },
  ];
  const problem = outputFolderProblem(outDir, [...knowledge, { path: cacheDir, name: `the build cache (${shown(cacheDir)}/)` }], shown);
  if (problem) return problem;
  // The build replaces folders of its own in the cache (staging/, pages-bundle/, …).
  const cache = realPathAsMade(cacheDir);
  const inCache = knowledge.find((entry) => !isOutside(cache, realPathAsMade(entry.path)));
  if (inCache) {
    return `The build cache ${shown(cacheDir)}/ holds ${inCache.name}, and the build makes and deletes folders of its own in its cache (staging/, pages-bundle/, …). Keep the cache in a folder of its own (--cache DIR).`;
  }
  const topicHolding = (dir: string) => {
    const real = realPathAsMade(dir);
    return config.topics.find((topic) => topic.enable && topic.kind === 'folder' && !isOutside(realPathAsMade(topic.dir), real));
  };
  const outTopic = topicHolding(outDir);
  if (outTopic) {
    return `The output folder ${shown(outDir)}/ is inside the folder of topic "${outTopic.id}" (${shown(outTopic.dir)}/): the next build would read the site it writes as that topic's subjects. Build into a folder outside every topic's folder (--out DIR).`;
  }
  const cacheTopic = path.basename(cacheDir) === CACHE_FOLDER_NAME ? undefined : topicHolding(cacheDir);
  if (cacheTopic) {
    return `The build cache ${shown(cacheDir)}/ is inside the folder of topic "${cacheTopic.id}" (${shown(cacheTopic.dir)}/): the next build would read its files as that topic's subjects. Keep the cache outside every topic's folder (--cache DIR), or name its folder ${CACHE_FOLDER_NAME}.`;
  }
  return undefined;
}

/** The folder the symbolic link `file` points to, even when it is not there yet; `file` itself when it is no link. */
function linkedFolder(file: string): string {
  return fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink() ? realPathAsMade(file) : file;
}

/**
 * Puts `from` in place of `to`, and keeps `to`'s `.git`; when `to` is a symbolic link to a folder,
 * the folder it points to is replaced (as a rebuild writes through the link). The old folder is
 * moved aside at once and deleted in the background: the returned promise settles when it is gone.
 */
export function replaceFolder(from: string, to: string): Promise<void> {
  const target = linkedFolder(to);
  const aside = `${target}.old-${process.pid}-${Date.now()}`;
  const existed = fs.existsSync(target);
  if (existed) fs.renameSync(target, aside);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    fs.renameSync(from, target);
  } catch {
    fs.cpSync(from, target, { recursive: true });
    fs.rmSync(from, { recursive: true, force: true });
  }
  if (!existed) return Promise.resolve();
  // Moved back beside the new files: the old folder and the new one are on one file system.
  for (const entry of KEPT_ENTRIES) if (fs.existsSync(path.join(aside, entry))) fs.renameSync(path.join(aside, entry), path.join(target, entry));
  return fs.promises.rm(aside, { recursive: true, force: true });
}

/**
 * Moves the files of an incremental build (in `staging`) into the previous output `outDir`, and
 * removes the pages (URLs below `base`) and files (paths below the base) that no longer exist.
 */
export function applyChanges(staging: string, outDir: string, base: string, removedPages: readonly string[], removedFiles: readonly string[]): void {
  const move = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const from = path.join(dir, entry.name);
      const to = path.join(outDir, path.relative(staging, from));
      if (entry.isDirectory()) {
        fs.mkdirSync(to, { recursive: true });
        move(from);
      } else {
        moveFile(from, to);
      }
    }
  };
  move(staging);
  fs.rmSync(staging, { recursive: true, force: true });
  // The lists come from the cache's record of the last build: whatever it says, nothing outside the output folder is removed.
  const remove = (file: string): void => {
    if (isOutside(outDir, file)) return;
    fs.rmSync(file, { force: true });
    removeEmptyFolders(outDir, path.dirname(file));
  };
  for (const url of removedPages) remove(path.join(outDir, decodeURIComponent(url.slice(base.length)), 'index.html'));
  for (const file of removedFiles) remove(path.join(outDir, file));
}

/** Moves a file, copying it when the two places are on different file systems. */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch {
    fs.copyFileSync(from, to);
    fs.rmSync(from, { force: true });
  }
}

function removeEmptyFolders(root: string, dir: string): void {
  for (let current = dir; current.startsWith(root + path.sep); current = path.dirname(current)) {
    try {
      fs.rmdirSync(current);
    } catch {
      return;
    }
  }
}
