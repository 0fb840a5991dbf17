#!/usr/bin/env node
// The `syllabus` command. Plain JavaScript so that any Node can start it: on a Node older than the
// project's own (the `node` devDependency), it re-runs itself on that one. The TypeScript sources
// are bundled into one file on first use and again whenever they change, because loading one
// bundle starts several times faster than transpiling many modules at every run.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIN_NODE = [22, 12];
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [major, minor] = process.versions.node.split('.').map(Number);

if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  const projectNode = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (!fs.existsSync(projectNode) || process.env.SYLLABUS_REEXEC === '1') {
    process.stderr.write(
      `error: syllabus needs Node ${MIN_NODE.join('.')} or later (this is ${process.version}), and the project's own Node is not installed.\n` +
        `Run "npm install" in ${root} first.\n`,
    );
    process.exit(2);
  }
  const result = spawnSync(projectNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SYLLABUS_REEXEC: '1' },
  });
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 1);
}

/** Paths and sizes and times of every source the bundle is made of: the bundle's key. */
function sourceKey() {
  const hash = createHash('sha256');
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts')) {
        const stat = fs.statSync(file);
        hash.update(`${file}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  visit(path.join(root, 'src', 'kb'));
  visit(path.join(root, 'src', 'cli'));
  for (const file of ['package-lock.json', 'package.json']) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.mtimeMs ?? 0}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

async function loadBundle() {
  const cacheDir = path.join(root, 'node_modules', '.cache', 'syllabus');
  const key = sourceKey();
  const bundle = path.join(cacheDir, `cli-${key}.mjs`);
  if (!fs.existsSync(bundle)) {
    const { build } = await import('esbuild');
    fs.mkdirSync(cacheDir, { recursive: true });
    for (const old of fs.readdirSync(cacheDir)) if (old.startsWith('cli-')) fs.rmSync(path.join(cacheDir, old), { force: true });
    const temporary = `${bundle}.${process.pid}.tmp`;
    await build({
      entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: temporary,
      // The tokenizer is large and needed only by some commands: it stays a lazy import.
      external: ['gpt-tokenizer', 'gpt-tokenizer/*', 'esbuild'],
      banner: { js: "import { createRequire as __syllabusRequire } from 'node:module'; const require = __syllabusRequire(import.meta.url);" },
      logLevel: 'error',
    });
    fs.renameSync(temporary, bundle);
  }
  return import(pathToFileURL(bundle).href);
}

const { runProcess } = await loadBundle();
await runProcess(process.argv.slice(2));
