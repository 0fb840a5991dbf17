/**
 * A site built in parts, a topic or a group of topics per machine, and joined into one
 * (content/guide/performance.md, "When one machine is not enough").
 *
 * Every part reads the whole knowledge base and makes everything that is not a subject's own from
 * it: the home, search, 404 and topic pages, the agent endpoints, llms.txt, the sitemap, the
 * scripts. Those files are the same in every part built from the same sources, and the join checks
 * that they are. A part makes the pages and files of its own topics' subjects only, and indexes
 * them for search in shards of its own, named after the part. The join copies the parts into one
 * folder and lists every part's shards in `pagefind/shards.json`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { BuildError } from './build-error.ts';
import { BUILD_MARKER, outputFolderProblem, replaceFolder } from './output-folder.ts';
import { readShardList, SHARD_LIST, writeShardList } from './search-index.ts';
import type { SiteData } from './site-data.ts';

/** The file a part build leaves in its output folder, for the join. */
export const PART_FILE = '.syllabus-part.json';
/** The list of search shards, which the join merges. */
const SHARDS_FILE = `pagefind/${SHARD_LIST}`;

/** What a part build records about itself in {@link PART_FILE}. */
export interface PartRecord {
  version: 1;
  /** The topics this part holds, in the order the knowledge base lists them. */
  topics: string[];
  /** Every topic of the knowledge base, in its order. */
  all: string[];
}

/** A part of a site: its topics, and what it leaves out. */
export interface SitePart {
  record: PartRecord;
  /** The prefix of its search shards' folders (`part-<hash>-`). */
  shardPrefix: string;
  /** Page URLs (base included) of other topics' subjects. */
  foreignPages: Set<string>;
  /** Static file paths (below the base) of other topics' subjects. */
  foreignFiles: Set<string>;
}

/**
 * The part of `data` that holds `topics` (topic ids), or an error naming the topics that do not
 * exist. Topics may come in any order and more than once.
 */
export function sitePartOf(data: SiteData, topics: readonly string[]): { ok: true; part: SitePart } | { ok: false; message: string } {
  const all = data.catalog.topics.map((t) => t.id);
  const unknown = [...new Set(topics.filter((t) => !all.includes(t)))];
  if (unknown.length > 0) {
    return {
      ok: false,
      message: `--part names ${unknown.length === 1 ? 'a topic that does not exist' : 'topics that do not exist'}: ${unknown.map((t) => JSON.stringify(t)).join(', ')}. Topics: ${all.join(', ')}.`,
    };
  }
  const held = all.filter((t) => topics.includes(t));
  const base = data.routes.base;
  const local = (url: string): string => decodeURIComponent(url.slice(base.length));
  const foreignPages = new Set<string>();
  const foreignFiles = new Set<string>();
  for (const route of data.routes.subjects) {
    if (held.includes(route.subject.topic)) continue;
    foreignPages.add(route.url);
    foreignFiles.add(local(route.markdownUrl));
    foreignFiles.add(local(route.jsonUrl));
    if (route.rawUrl) foreignFiles.add(local(route.rawUrl));
  }
  const shardPrefix = `part-${createHash('sha1').update(JSON.stringify(held)).digest('hex').slice(0, 8)}-`;
  return { ok: true, part: { record: { version: 1, topics: held, all }, shardPrefix, foreignPages, foreignFiles } };
}

/** Writes the part's record into its output folder, or removes a stale one after a whole build. */
export function recordPart(outDir: string, part: SitePart | undefined): void {
  const file = path.join(outDir, PART_FILE);
  if (part) fs.writeFileSync(file, `${JSON.stringify(part.record)}\n`);
  else fs.rmSync(file, { force: true });
}

/** What a join did. */
export interface JoinResult {
  /** Files in the joined site. */
  files: number;
  /** Search shards listed. */
  shards: number;
}

/**
 * Joins the part builds in `parts` (their output folders) into `outDir`: every file of every part,
 * each once, and the search shards of all. Throws a {@link BuildError} that names the folder or
 * file and says what to do when a folder is not a part build, when the parts hold a topic twice
 * or leave one out, or when a file they share differs (parts built from different sources).
 * Nothing is written to `outDir` unless the join succeeds; it is then replaced whole, and only
 * when it holds no part, not `cwd` and no files but a build's ({@link outputFolderProblem}).
 */
export async function joinParts(parts: readonly string[], outDir: string, cwd: string, nameOf: (dir: string) => string = (dir) => dir): Promise<JoinResult> {
  if (parts.length === 0)
    throw new BuildError(
      'join needs the output folders of the part builds. Build each part with "syllabus build --part <topic>[,<topic>…] --out <folder>", then join the folders.',
    );
  const names = parts.map(nameOf);
  const records = parts.map((dir, i) => readPartRecord(dir, names[i]!));
  checkCoverage(names, records);
  // Nothing but a build's own output is ever replaced (content/reference/cli/build.md, "The output folder").
  const problem = outputFolderProblem(outDir, [...parts.map((dir, i) => ({ path: dir, name: `the part ${names[i]}/` })), { path: cwd, name: 'the current folder' }], nameOf);
  if (problem) throw new BuildError(problem);

  const staging = `${outDir}.join-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const from = new Map<string, string>();
  const shards: string[] = [];
  let files = 0;
  try {
    for (const [i, dir] of parts.entries()) {
      shards.push(...readShards(dir, names[i]!));
      for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        const relative = path.relative(dir, file).split(path.sep).join('/');
        if (relative === PART_FILE || relative === BUILD_MARKER || relative === SHARDS_FILE) continue;
        const target = path.join(staging, relative);
        const earlier = from.get(relative);
        if (earlier !== undefined) {
          if (!fs.readFileSync(file).equals(fs.readFileSync(target))) {
            throw new BuildError(
              `${relative} differs between the parts ${earlier} and ${names[i]}: every part must be built from the same sources, config and Syllabus version. Build the parts again from one commit, then join them.`,
            );
          }
          continue;
        }
        from.set(relative, names[i]!);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.copyFileSync(file, target);
        files++;
      }
    }
    fs.mkdirSync(path.join(staging, 'pagefind'), { recursive: true });
    writeShardList(path.join(staging, 'pagefind'), shards);
    // A joined site is a build's output, though of no build the cache describes.
    fs.writeFileSync(path.join(staging, BUILD_MARKER), '');
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  await replaceFolder(staging, outDir);
  // With the list of shards and the marker.
  return { files: files + 2, shards: shards.length };
}

/** The part record of the build in `dir`. */
function readPartRecord(dir: string, name: string): PartRecord {
  const file = path.join(dir, PART_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    throw new BuildError(`${name} holds no part build (no ${PART_FILE}): build each part with "syllabus build --part <topic>[,<topic>…] --out ${name}".`);
  }
  let record: Partial<PartRecord> | null;
  try {
    record = JSON.parse(text) as Partial<PartRecord> | null;
  } catch {
    record = null;
  }
  if (record?.version !== 1 || !Array.isArray(record.topics) || !Array.isArray(record.all)) {
    throw new BuildError(`${name}/${PART_FILE} is not a part record this Syllabus reads: build the part again with this version.`);
  }
  return record as PartRecord;
}

/** Checks that the parts are of one knowledge base and hold each of its topics exactly once. */
function checkCoverage(parts: readonly string[], records: readonly PartRecord[]): void {
  const all = records[0]!.all;
  records.forEach((record, i) => {
    if (JSON.stringify(record.all) !== JSON.stringify(all)) {
      throw new BuildError(
        `${parts[i]} was built from a knowledge base with other topics than ${parts[0]} (${record.all.join(', ')}, not ${all.join(', ')}): build every part from the same sources.`,
      );
    }
  });
  const holder = new Map<string, string>();
  records.forEach((record, i) => {
    for (const topic of record.topics) {
      const other = holder.get(topic);
      if (other !== undefined) throw new BuildError(`The topic "${topic}" is in two parts, ${other} and ${parts[i]}: give each topic to one part.`);
      holder.set(topic, parts[i]!);
    }
  });
  const missing = all.filter((t) => !holder.has(t));
  if (missing.length > 0) {
    throw new BuildError(
      `No part holds ${missing.length === 1 ? 'the topic' : 'the topics'} ${missing.map((t) => `"${t}"`).join(', ')}: build ${missing.length === 1 ? 'it' : 'them'} as a part too (--part ${missing.join(',')}), then join every part.`,
    );
  }
}

/** The search shards a part lists. */
function readShards(dir: string, name: string): string[] {
  try {
    return readShardList(path.join(dir, 'pagefind'));
  } catch {
    throw new BuildError(`${name}/${SHARDS_FILE} is missing or unreadable: the part build in ${name} did not finish. Build it again.`);
  }
}
