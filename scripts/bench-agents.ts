/**
 * The agents' benchmark (part of `npm run bench`): prints figures, asserts nothing.
 *
 * For generated knowledge bases of 1,000 and 10,000 subjects: the size of `/kb/index.json` and
 * of the `<knowledge>` section (which lists topics, so it must not grow with the subjects); then,
 * on the 10,000-subject one, the latency of `learn` calls over MCP (one `syllabus mcp` server,
 * SDK client over stdio) and over `--remote` (the remote view in process, and whole `syllabus
 * learn --remote` processes) against the published endpoints served on 127.0.0.1.
 *
 * The endpoints are written by the build's own code for non-page files (`readSiteData` +
 * `writeStaticFiles`); the HTML pages are not needed to answer agents.
 */
import { execFile } from 'node:child_process';
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
import { openRemoteView } from '../src/remote/remote-view.ts';
import { BIN, percentile, timeCalls } from './bench-common.ts';

const CALLS = 200;
const PROCESS_RUNS = 10;
const TOPICS = 5;

/** A knowledge base of `count` subjects in TOPICS topics, 50 folders each; a few learned per topic. */
function generate(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `syllabus-bench-agents-${count}-`));
  let toml = '[site]\ntitle = "Bench"\nurl = "https://bench.example.test"\n';
  for (let t = 0; t < TOPICS; t++) {
    toml += `\n[kb.topic.topic-${t}]\ntitle = "Topic ${t}"\nintroduction = "Subjects of topic ${t}."\nsubjects = "topic-${t}"\nlearned = ["pinned/*"]\n`;
  }
  fs.writeFileSync(path.join(dir, 'kb.toml'), toml);
  for (let i = 0; i < count; i++) {
    const topic = `topic-${i % TOPICS}`;
    const n = Math.floor(i / TOPICS);
    const folder = n < 2 ? 'pinned' : `group-${String(n % 50).padStart(2, '0')}`;
    const file = path.join(dir, topic, folder, `subject-${String(n).padStart(5, '0')}.md`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `# Subject ${n} of ${topic}\n\nSome knowledge about item ${n}: what it is, who owns it and how to change it.\n\n## Details\n\n${'A line of detail. '.repeat(20)}\n`,
    );
  }
  return dir;
}

/** Writes the published endpoints of the knowledge base at `dir` into `<dir>/dist`. */
async function publish(dir: string): Promise<string> {
  const out = path.join(dir, 'dist');
  const data = await readSiteData([path.join(dir, 'kb.toml')], process.cwd());
  writeStaticFiles(out, staticFilesOf(data));
  return out;
}

function describe(label: string, values: number[]): string {
  return `${label.padEnd(52)} median ${percentile(values, 50).toFixed(2).padStart(8)} ms   p95 ${percentile(values, 95).toFixed(2).padStart(8)} ms  (${values.length} calls)`;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The arguments of the i-th benchmark call: loads of one exact slug, cycling through topics and folders. */
function callArgs(i: number, count: number): { topic: string; subjects: string } {
  const n = 2 + ((i * 37) % Math.floor(count / TOPICS - 2));
  return { topic: `topic-${i % TOPICS}`, subjects: `group-${String(n % 50).padStart(2, '0')}/subject-${String(n).padStart(5, '0')}` };
}

/** Runs the agents' benchmark and prints its figures. */
export async function runAgentsBenchmark(): Promise<void> {
  console.log(`\nAgents: endpoints, MCP and --remote (${TOPICS} topics)\n`);
  const folders: string[] = [];
  try {
    let big = '';
    let bigDist = '';
    for (const count of [1_000, 10_000]) {
      const dir = generate(count);
      folders.push(dir);
      const dist = await publish(dir);
      const index = fs.statSync(path.join(dist, 'kb', 'index.json')).size;
      const knowledge = JSON.parse(fs.readFileSync(path.join(dist, 'kb', 'knowledge.json'), 'utf8')) as { prompt: string; tokens: number };
      console.log(
        `${`${count.toLocaleString('en')} subjects`.padEnd(18)} index.json ${kib(index).padStart(11)}   <knowledge> ${String(Buffer.byteLength(knowledge.prompt)).padStart(5)} bytes, ${knowledge.tokens} tokens`,
      );
      big = dir;
      bigDist = dist;
    }
    const count = 10_000;
    console.log('');

    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--config', path.join(big, 'kb.toml')], stderr: 'ignore' });
    const client = new Client({ name: 'syllabus-bench', version: '0.0.0' });
    await client.connect(transport);
    try {
      const mcp = await timeCalls(
        async (i) => {
          const result = await client.callTool({ name: 'learn', arguments: callArgs(i, count) });
          if (result.isError) throw new Error(`learn over MCP failed: ${JSON.stringify(result.content)}`);
        },
        5,
        CALLS,
      );
      console.log(describe('learn over MCP (one server, exact slug)', mcp));
      const listing = await timeCalls(
        async (i) => {
          const result = await client.callTool({ name: 'learn', arguments: { topic: `topic-${i % TOPICS}` } });
          if (result.isError) throw new Error('listing over MCP failed');
        },
        5,
        CALLS,
      );
      console.log(describe('learn over MCP (listing of 2,000 subjects)', listing));
    } finally {
      await client.close();
    }

    const server = await serveStatic(bigDist, '127.0.0.1', 0);
    try {
      const url = `${server.url}/`;
      const view = openRemoteView(url);
      const remote = await timeCalls(
        async (i) => {
          const outcome = await view.learn(callArgs(i, count));
          if (!outcome.ok) throw new Error(`learn --remote failed: ${outcome.message}`);
        },
        5,
        CALLS,
      );
      console.log(describe('learn --remote, in process (index cached)', remote));
      const processes: number[] = [];
      for (let i = 0; i < PROCESS_RUNS + 1; i++) {
        const { topic, subjects } = callArgs(i, count);
        const start = process.hrtime.bigint();
        // Not spawnSync: the server answering the child runs in this process.
        await promisify(execFile)(process.execPath, [BIN, 'learn', '--remote', url, topic, subjects]);
        if (i > 0) processes.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      console.log(describe('syllabus learn --remote, whole process', processes).replace('calls)', 'runs)'));
    } finally {
      await server.close();
    }
  } finally {
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runAgentsBenchmark();
