/**
 * Reading the two sides of `syllabus diff` into snapshots: a source (a `kb.toml`: opened and
 * cataloged, hidden and disabled subjects included), a build folder (`dist/`: its endpoint files,
 * read from disk) or a site URL (its endpoints, fetched). Builds are read lazily: the catalogs
 * first, then only the subjects whose sha256 differs from the other side's.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { buildCatalog } from '../kb/catalog/catalog.ts';
import { loadConfig } from '../kb/config/validate.ts';
import { readConfigFiles } from '../kb/config/read.ts';
import type { SubjectRef } from '../kb/diff/schema.ts';
import { type KnowledgeSnapshot, snapshotOfBuild, snapshotOfSource, subjectsToLoad, withContents } from '../kb/diff/snapshot.ts';
import { FORMAT_VERSION, type KnowledgeFile, KnowledgeFileSchema, type SiteIndex, SiteIndexSchema, type SubjectEntry, SubjectFileSchema } from '../kb/publish/endpoint-schemas.ts';
import { jsonPath, RemoteError, timeoutFromEnv } from '../remote/fetch-json.ts';
import { mapBounded, MAX_CONCURRENT_REQUESTS } from '../net/bounded-calls.ts';
import { openRemoteSite, type RemoteSite } from '../remote/remote-site.ts';
import type { Catalog } from '../kb/catalog/catalog.ts';
import { hasConfigErrors, hasContentErrors, displayPath } from '../kb/diagnostics/diagnostics.ts';
import { readCheckedQuestionSet, topicTitlesOf } from '../kb/evals/checked-questions.ts';
import { compareEvaluations } from '../kb/evals/compare.ts';
import { evaluateQuestions } from '../kb/evals/evaluate.ts';
import type { EvalQuestion, QuestionSet } from '../kb/evals/questions.ts';
import type { EvalDelta, EvalReport } from '../kb/evals/report-schema.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { createLocalView } from '../kb/view/local-view.ts';
import type { KnowledgeView } from '../kb/view/view.ts';
import { openBuildFolderView } from '../remote/build-folder.ts';
import { createRemoteView } from '../remote/remote-view.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { failOnConfigErrors, openForCommand, warnContentErrors } from './knowledge-base-options.ts';

/** What a side argument names. */
export type DiffSideSpec = { kind: 'source'; arg: string; file: string } | { kind: 'folder'; arg: string; dir: string } | { kind: 'url'; arg: string; root: string };

/** Which side, for messages. */
export type Which = 'base' | 'head';

/** A side that cannot be read (exit 1); the message names the side, what happened and the fix. */
function unreadable(which: Which, message: string): CliError {
  return new CliError(`cannot read the ${which}: ${message}`, 1);
}

/**
 * What a side argument names: an http(s) URL is a published site; an existing folder a build
 * (`dist/`); an existing file a source (`kb.toml`). A malformed URL is a usage error (2); a path
 * that does not exist cannot be read (1).
 */
export function classifyDiffSide(arg: string, which: Which, cwd: string): DiffSideSpec {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
    let url: URL;
    try {
      url = new URL(arg);
    } catch {
      throw usageError(`the ${which} ${JSON.stringify(arg)} is not a valid URL. Give a site's root address, like https://kb.example.com/.`, 'diff');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw usageError(`the ${which} ${JSON.stringify(arg)}: only http and https sites can be read. Give a kb.toml, a dist/ folder or an http(s) URL.`, 'diff');
    }
    if (url.search !== '' || url.hash !== '') {
      throw usageError(`the ${which} ${JSON.stringify(arg)} has a query or a fragment. Give the site's root address, with its base path if it has one.`, 'diff');
    }
    if (!url.pathname.endsWith('/')) url.pathname += '/';
    return { kind: 'url', arg, root: url.href };
  }
  const resolved = path.resolve(cwd, arg);
  const stat = fs.statSync(resolved, { throwIfNoEntry: false });
  if (!stat) throw unreadable(which, `${arg} does not exist. Give a kb.toml (a source), a folder written by syllabus build (a build), or a site URL.`);
  if (stat.isDirectory()) return { kind: 'folder', arg, dir: resolved };
  return { kind: 'source', arg, file: resolved };
}

/**
 * Reads both sides; a build side's subjects are loaded where the other side differs. `evals` is
 * the offline evaluation of both sides when one is a source with a question set.
 */
export async function readDiffSides(baseArg: string, headArg: string, io: CommandIo): Promise<{ base: KnowledgeSnapshot; head: KnowledgeSnapshot; evals: EvalDelta | undefined }> {
  const specs = { base: classifyDiffSide(baseArg, 'base', io.cwd), head: classifyDiffSide(headArg, 'head', io.cwd) };
  const timeout = timeoutFromEnv(io.env);
  if (!timeout.ok) throw usageError(timeout.message, 'diff');
  const base = await openDiffSide(specs.base, 'base', io, timeout.value);
  const head = await openDiffSide(specs.head, 'head', io, timeout.value);
  const [baseSnapshot, headSnapshot] = await Promise.all([base.load(subjectsToLoad(base.snapshot, head.snapshot)), head.load(subjectsToLoad(head.snapshot, base.snapshot))]);
  return { base: baseSnapshot, head: headSnapshot, evals: await evaluateSides(base, head, io) };
}

/** An opened side: its snapshot (a build's without contents) and how to load contents. */
export interface OpenedDiffSide extends EvaluableSide {
  snapshot: KnowledgeSnapshot;
  /** The snapshot with these subjects' contents loaded (see `subjectsToLoad`). */
  load(refs: readonly SubjectRef[]): Promise<KnowledgeSnapshot>;
}

/** A side as the offline evaluation sees it (content/reference/evaluations.md, "In review"). */
export interface EvaluableSide {
  /** A source's question set (`[eval] questions`), checked against it; undefined for a build, or a source without one. */
  questions: QuestionSet | undefined;
  /** Evaluates questions against the side, through the tools its agents get. */
  evaluate(questions: readonly EvalQuestion[]): Promise<EvalReport>;
}

/** The evaluable side of a source: its knowledge base, `find` ranking over `catalog`. */
export function evaluableSource(kb: KnowledgeBase, catalog: Catalog): EvaluableSide {
  return {
    questions: readCheckedQuestionSet(kb),
    evaluate: (questions) => evaluateQuestions(createLocalView(kb, { catalog: async () => catalog }), questions, topicTitlesOf(kb)),
  };
}

/** The evaluable side of a build read as a site (a folder, or a URL). */
function evaluableBuild(view: KnowledgeView): EvaluableSide {
  return {
    questions: undefined,
    evaluate: async (questions) => evaluateQuestions(view, questions, new Map((await view.index()).topics.map((t) => [t.id, t.title ?? undefined]))),
  };
}

/**
 * The offline evaluation of both sides with one question set: the head's, else the base's; none
 * when neither side is a source with a question set. A question set with errors is left out with
 * a warning (`syllabus check` names them): the diff is still printed.
 */
export async function evaluateSides(base: EvaluableSide, head: EvaluableSide, io: CommandIo): Promise<EvalDelta | undefined> {
  const set = head.questions ?? base.questions;
  if (!set) return undefined;
  const whose = head.questions ? 'head' : 'base';
  if (hasConfigErrors(set.diagnostics) || hasContentErrors(set.diagnostics)) {
    io.err(`warning: the question set ${displayPath(set.file, io.cwd)} has errors, so the questions are not evaluated. Run "syllabus check" to see them.`);
    return undefined;
  }
  const evaluate = (side: EvaluableSide, name: Which): Promise<EvalReport> => guard(name, () => side.evaluate(set.questions));
  const [b, h] = [await evaluate(base, 'base'), await evaluate(head, 'head')];
  return compareEvaluations(b, h, whose);
}

/**
 * Opens one side (see {@link classifyDiffSide}): a source is read whole; a build's catalog and
 * knowledge files are read, its subjects when `load` asks. Throws the CLI's errors.
 */
export async function openDiffSide(spec: DiffSideSpec, which: Which, io: CommandIo, timeoutMs: number): Promise<OpenedDiffSide> {
  if (spec.kind === 'source') {
    const { snapshot, kb, catalog } = await readSource(spec, io);
    return { snapshot, load: async () => snapshot, ...evaluableSource(kb, catalog) };
  }
  // A site's diff and its evaluation read one RemoteSite, so that each file is fetched once.
  const site = spec.kind === 'url' ? openRemoteSite(spec.root, { timeoutMs }) : undefined;
  const reader = spec.kind === 'folder' ? folderReader(spec, which) : urlReader(spec, site!, which);
  const view = spec.kind === 'folder' ? openBuildFolderView(spec.dir) : createRemoteView(site!);
  return guard(which, async () => {
    const index = await reader.index();
    const knowledge = await reader.knowledge(undefined);
    const profiles = new Map<string, KnowledgeFile>();
    for (const name of Object.keys(index.knowledge.profiles)) profiles.set(name, await reader.knowledge(name));
    const snapshot = snapshotOfBuild(index, knowledge, profiles, spec.arg);
    const entries = new Map(index.topics.map((t) => [t.id, new Map(t.subjects.map((s) => [s.slug, s]))]));
    return {
      snapshot,
      ...evaluableBuild(view),
      load: (refs) =>
        guard(which, async () => {
          const contents = await mapBounded(refs, MAX_CONCURRENT_REQUESTS, (ref) => reader.subject(ref.topic, entries.get(ref.topic)!.get(ref.slug)!));
          const byTopic = new Map<string, Map<string, string>>();
          refs.forEach((ref, i) => {
            const topic = byTopic.get(ref.topic) ?? new Map<string, string>();
            topic.set(ref.slug, contents[i]!);
            byTopic.set(ref.topic, topic);
          });
          return withContents(snapshot, byTopic);
        }),
    };
  });
}

/** Runs `work`; a site that cannot be read becomes the side's error (exit 1). */
async function guard<T>(which: Which, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // The remote client's messages are written for --remote; here the URL is a side.
    if (error instanceof RemoteError) throw unreadable(which, error.message.replaceAll('the --remote URL', 'the URL'));
    throw error;
  }
}

/** A source: the catalog of the kb.toml, with the subjects `disabled` removed. Configuration errors exit 2. */
async function readSource(spec: Extract<DiffSideSpec, { kind: 'source' }>, io: CommandIo): Promise<{ snapshot: KnowledgeSnapshot; kb: KnowledgeBase; catalog: Catalog }> {
  const read = readConfigFiles([spec.file], io.cwd);
  failOnConfigErrors(read.diagnostics, io);
  const loaded = loadConfig(read.configTexts);
  failOnConfigErrors(loaded.diagnostics, io);
  const kb = openForCommand(loaded.config!, io);
  const { catalog } = await buildCatalog(kb);
  warnContentErrors(kb, io);
  return { snapshot: await snapshotOfSource(kb, catalog, spec.arg), kb, catalog };
}

/** How a build is read: its catalog, knowledge files and listed subjects' contents. Failures are RemoteErrors. */
interface BuildReader {
  index(): Promise<SiteIndex>;
  knowledge(profile: string | undefined): Promise<KnowledgeFile>;
  subject(topic: string, entry: SubjectEntry): Promise<string>;
}

function urlReader(spec: Extract<DiffSideSpec, { kind: 'url' }>, site: RemoteSite, which: Which): BuildReader {
  return {
    index: async () => {
      try {
        return await site.index();
      } catch (error) {
        if (error instanceof RemoteError && error.message.includes('does not look like a Syllabus site')) {
          throw new RemoteError(
            `${spec.root} is not a Syllabus site: ${site.indexUrl} was not found (HTTP 404). Give the ${which} as the root address of a site built by syllabus build, with its base path if it has one.`,
          );
        }
        throw error;
      }
    },
    knowledge: (profile) => site.knowledge(profile),
    subject: async (topic, entry) => (await site.listedSubject(topic, entry)).content,
  };
}

function folderReader(spec: Extract<DiffSideSpec, { kind: 'folder' }>, which: Which): BuildReader {
  const indexFile = path.join(spec.dir, 'kb', 'index.json');
  let index: SiteIndex | undefined;
  let base = '/';
  /** The file of a site path (`/docs/kb/x.json` → `<dir>/kb/x.json`). */
  const fileOf = (sitePath: string): string => path.join(spec.dir, ...decodeURIComponent(sitePath.slice(base.length)).split('/'));
  const readJson = <T>(file: string, schema: z.ZodType<T>, what: string, missing: () => string): T => {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new RemoteError(missing());
      throw new RemoteError(`cannot read ${file} (${(error as Error).message}). Check its permissions.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new RemoteError(`${file} is not valid JSON (${(error as Error).message}). The file is cut off or damaged; rebuild the site.`);
    }
    if (parsed !== null && typeof parsed === 'object' && 'version' in parsed && typeof parsed.version === 'number' && parsed.version !== FORMAT_VERSION) {
      throw new RemoteError(
        `${file} is in format version ${parsed.version}; this syllabus reads version ${FORMAT_VERSION}. Rebuild the ${which} with this syllabus, or diff it with a syllabus that reads version ${parsed.version}.`,
      );
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      const where = issue.path.length === 0 ? 'the top level' : jsonPath(issue.path);
      throw new RemoteError(`${file} is not a Syllabus ${what}: at ${where}, ${issue.message.replace(/\s+/g, ' ')}. Rebuild the site with this syllabus.`);
    }
    return checked.data;
  };
  const incomplete = (file: string) => () => `${file} is missing, but ${indexFile} refers to it. The folder holds part of a build; build it again.`;
  return {
    index: async () => {
      index = readJson(indexFile, SiteIndexSchema, 'catalog', () => {
        const source = fs.existsSync(path.join(spec.dir, 'kb.toml')) ? ` It holds a kb.toml: to diff the source, give ${path.join(spec.arg, 'kb.toml')}.` : '';
        return `${spec.arg} is not a Syllabus build: ${indexFile} does not exist. Give the folder syllabus build wrote (its --out, default dist/), a kb.toml, or a site URL.${source}`;
      });
      base = index.site.base;
      return index;
    },
    knowledge: async (profile) => {
      index ??= readJson(indexFile, SiteIndexSchema, 'catalog', incomplete(indexFile));
      const sitePath = profile === undefined ? index.knowledge.json : index.knowledge.profiles[profile]!;
      const file = fileOf(sitePath);
      return readJson(file, KnowledgeFileSchema, 'knowledge file', incomplete(file));
    },
    subject: async (topic, entry) => {
      const file = fileOf(entry.json);
      const subject = readJson(file, SubjectFileSchema, 'subject file', incomplete(file));
      const actual = createHash('sha256').update(subject.content, 'utf8').digest('hex');
      if (subject.topic !== topic || subject.slug !== entry.slug || actual !== entry.sha256) {
        throw new RemoteError(
          `${file} does not hold the subject ${JSON.stringify(`${topic}/${entry.slug}`)} that ${indexFile} lists (another subject, or a sha256 mismatch). The folder mixes builds; build it again.`,
        );
      }
      return subject.content;
    },
  };
}
