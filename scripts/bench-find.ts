/**
 * The `find` benchmark (`npm run bench:find`, part of `npm run bench`): prints figures, asserts
 * nothing. On the tldr corpus (one topic per platform folder, copied with a generated kb.toml):
 *  - in process: the catalog once, then the ranking alone (`rankSubjects` over every listed
 *    subject) for each of a set of queries, many times (target: under 10 ms a query);
 *  - the quality of the ranking: hit-at-3 and mean reciprocal rank of the query set
 *    (test/fixtures/find-queries.json), its tldr queries on the whole corpus, its guide ones on
 *    the bundled guide;
 *  - whole `syllabus find` processes: the first one (no memo of summaries yet), then warm ones;
 *  - `find` over MCP (one `syllabus mcp` server, the SDK's client over stdio), after a first call;
 *  - `find --remote` against the published endpoints on 127.0.0.1: in process (the site's files
 *    cached) and whole processes.
 *
 * Environment: BENCH_RUNS (whole processes per measurement, default 5), BENCH_CORPUS (the tldr
 * pages folder, default /work/shared/corpora/tldr/pages).
 */
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { writeStaticFiles } from '../src/build/static-file.ts';
import { readSiteData } from '../src/build/site-data.ts';
import { staticFilesOf } from '../src/build/endpoints.ts';
import { serveStatic } from '../src/cli/static-server.ts';
import { buildCatalog, findEntriesOf, loadConfig, openKnowledgeBase, rankSubjects, readConfigFiles, type FindEntry } from '../src/kb/index.ts';
import { openRemoteView } from '../src/remote/remote-view.ts';
import { BIN, NODE, TLDR_PAGES, percentile, prepareTldr, timeCalls } from './bench-common.ts';

/** Rankings timed per query in process. */
const RANKINGS = 200;
/** Calls timed over MCP and --remote in process. */
const CALLS = 100;

/** Queries as people and agents write them: names, phrases, a name of two letters, nothing. */
const QUERIES = [
  'tar',
  'ls',
  'extract an archive',
  'list files in a directory',
  'git commit',
  'docker compose up',
  'kill a process by name',
  'network interface configuration',
  'convert video to gif',
  'zzzz no such words',
];

/** The query set (test/fixtures/find-queries.json): queries with the subjects that answer them. */
interface QuerySet {
  queries: { corpus: 'guide' | 'tldr'; query: string; expected: string[] }[];
}

/** The bundled guide's find entries (content/kb.toml), for the guide part of the query set. */
async function guideEntries(): Promise<FindEntry[]> {
  const root = path.resolve(import.meta.dirname, '..');
  const { config } = loadConfig(readConfigFiles(['content/kb.toml'], root).configTexts);
  return findEntriesOf((await buildCatalog(openKnowledgeBase(config!))).catalog);
}

/**
 * Prints hit-at-3 (an expected subject among the first three) and mean reciprocal rank (of the
 * first expected subject among the first 10; 0 when none is there) of the query set, per corpus and
 * over the whole set, with the queries that miss the first three.
 */
function printQuality(corpora: Record<'guide' | 'tldr', readonly FindEntry[]>): void {
  const set = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '..', 'test', 'fixtures', 'find-queries.json'), 'utf8')) as QuerySet;
  const ranks = set.queries.map(({ corpus, query, expected }) => {
    const found = rankSubjects(corpora[corpus], query, { limit: 10 }).map((r) => `${r.topic}/${r.slug}`);
    return { corpus, query, found, rank: found.findIndex((subject) => expected.includes(subject)) + 1 };
  });
  const figures = (list: typeof ranks): string => {
    const hits = list.filter((r) => r.rank >= 1 && r.rank <= 3).length;
    const mrr = list.reduce((sum, r) => sum + (r.rank > 0 ? 1 / r.rank : 0), 0) / list.length;
    return `hit-at-3 ${hits}/${list.length} (${((100 * hits) / list.length).toFixed(0)} %), MRR ${mrr.toFixed(3)}`;
  };
  console.log(`  quality, the query set of test/fixtures/find-queries.json (tldr queries on the whole corpus):`);
  for (const corpus of ['guide', 'tldr'] as const) console.log(`    ${corpus.padEnd(6)} ${figures(ranks.filter((r) => r.corpus === corpus))}`);
  console.log(`    all    ${figures(ranks)}`);
  for (const miss of ranks.filter((r) => r.rank === 0 || r.rank > 3)) {
    console.log(`    missed: ${miss.corpus} ${JSON.stringify(miss.query)} (rank ${miss.rank || '> 10'}): ${miss.found.slice(0, 3).join(', ')}`);
  }
}

function runsPerMeasurement(): number {
  const runs = Number(process.env['BENCH_RUNS'] ?? '5');
  return Number.isInteger(runs) && runs > 0 ? runs : 5;
}

function describe(label: string, values: number[], unit = 'ms'): string {
  const digits = unit === 'ms' ? 2 : 0;
  return `  ${label.padEnd(50)} median ${percentile(values, 50).toFixed(digits).padStart(8)} ${unit}   p95 ${percentile(values, 95).toFixed(digits).padStart(8)} ${unit}  (${values.length})`;
}

/** Milliseconds of one whole `syllabus <args>` process in `cwd`; throws when it fails. */
function timeProcess(args: string[], cwd: string): number {
  const start = process.hrtime.bigint();
  const result = spawnSync(NODE, [BIN, ...args], { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`syllabus ${args.join(' ')} exited ${result.status}:\n${result.stderr}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs the `find` benchmark and prints its figures. */
export async function runFindBenchmark(): Promise<void> {
  if (!fs.existsSync(TLDR_PAGES)) {
    console.log(`find: skipped, no corpus at ${TLDR_PAGES} (set BENCH_CORPUS).`);
    return;
  }
  const runs = runsPerMeasurement();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-bench-find-'));
  try {
    const subjects = prepareTldr(TLDR_PAGES, dir);
    console.log(
      `\nfind on the tldr corpus: ${subjects.toLocaleString('en')} subjects; Node ${spawnSync(NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()}, ${os.cpus().length} cores`,
    );

    const { config } = loadConfig(readConfigFiles(['kb.toml'], dir).configTexts);
    const kb = openKnowledgeBase(config!);
    const start = process.hrtime.bigint();
    const { catalog } = await buildCatalog(kb);
    const catalogMs = Number(process.hrtime.bigint() - start) / 1e6;
    const entries = findEntriesOf(catalog);
    console.log(`  in process: the catalog once (every subject read, tokenized, summarised), ${catalogMs.toFixed(0)} ms; ${entries.length.toLocaleString('en')} listed subjects`);
    const ranking: number[] = [];
    for (let i = 0; i < RANKINGS * QUERIES.length; i++) {
      const query = QUERIES[i % QUERIES.length]!;
      const t = process.hrtime.bigint();
      rankSubjects(entries, query, { limit: 5 });
      if (i >= QUERIES.length) ranking.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    console.log(describe('ranking one query, in process (target < 10 ms)', ranking));
    for (const query of ['tar', 'extract an archive']) {
      console.log(
        `    ${JSON.stringify(query)}: ${rankSubjects(entries, query, { limit: 3 })
          .map((r) => `${r.topic}/${r.slug} ${r.score}`)
          .join(', ')}`,
      );
    }

    printQuality({ tldr: entries, guide: await guideEntries() });

    // The first find fills the memo of tokens and summaries in .syllabus-cache/; the next ones reuse it.
    timeProcess(['find', '--help'], dir); // brings the CLI's bundle up to date; not counted
    const first = timeProcess(['find', 'tar', '--config', 'kb.toml'], dir);
    const warm = Array.from({ length: runs }, (_, i) => timeProcess(['find', QUERIES[i % QUERIES.length]!, '--config', 'kb.toml'], dir));
    const bare = Array.from({ length: runs }, () => {
      const t = process.hrtime.bigint();
      spawnSync(NODE, ['-e', ''], { cwd: dir });
      return Number(process.hrtime.bigint() - t) / 1e6;
    });
    console.log(`  syllabus find, whole process, first (no memo yet)  ${first.toFixed(0).padStart(8)} ms`);
    console.log(describe('syllabus find, whole process, with the memo', warm));
    console.log(describe("node -e '' (for comparison)", bare));

    const transport = new StdioClientTransport({ command: NODE, args: [BIN, 'mcp', '--config', path.join(dir, 'kb.toml')], stderr: 'ignore' });
    const client = new Client({ name: 'syllabus-bench', version: '0.0.0' });
    await client.connect(transport);
    try {
      const t = process.hrtime.bigint();
      await client.callTool({ name: 'find', arguments: { query: 'tar' } });
      console.log(`  find over MCP, first call (the server builds its catalog)  ${(Number(process.hrtime.bigint() - t) / 1e6).toFixed(0)} ms`);
      const mcp = await timeCalls(
        async (i) => {
          const result = await client.callTool({ name: 'find', arguments: { query: QUERIES[i % QUERIES.length]! } });
          if (result.isError) throw new Error(`find over MCP failed: ${JSON.stringify(result.content)}`);
        },
        QUERIES.length,
        CALLS,
      );
      console.log(describe('find over MCP (one server, after the first call)', mcp));
    } finally {
      await client.close();
    }

    const dist = path.join(dir, 'dist');
    writeStaticFiles(dist, staticFilesOf(await readSiteData([path.join(dir, 'kb.toml')], process.cwd())));
    const keywordsKib = fs.statSync(path.join(dist, 'kb', 'keywords.json')).size / 1024;
    const indexKib = fs.statSync(path.join(dist, 'kb', 'index.json')).size / 1024;
    console.log(`  published: keywords.json ${keywordsKib.toFixed(0)} KiB, index.json ${indexKib.toFixed(0)} KiB`);
    const server = await serveStatic(dist, '127.0.0.1', 0);
    try {
      const url = `${server.url}/`;
      const view = openRemoteView(url);
      const remote = await timeCalls(
        async (i) => {
          const outcome = await view.find({ query: QUERIES[i % QUERIES.length]! });
          if (!outcome.ok) throw new Error(`find --remote failed: ${outcome.message}`);
        },
        QUERIES.length,
        CALLS,
      );
      console.log(describe('find --remote, in process (site files cached)', remote));
      const processes: number[] = [];
      for (let i = 0; i <= runs; i++) {
        const t = process.hrtime.bigint();
        // Not spawnSync: the server answering the child runs in this process.
        await promisify(execFile)(NODE, [BIN, 'find', '--remote', url, QUERIES[i % QUERIES.length]!], { maxBuffer: 16 * 1024 * 1024 });
        if (i > 0) processes.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      console.log(describe('syllabus find --remote, whole process', processes));
    } finally {
      await server.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) await runFindBenchmark();
