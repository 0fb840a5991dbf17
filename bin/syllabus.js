#!/usr/bin/env node
// The `syllabus` command. Plain JavaScript so that any Node can start it: on a Node older than the
// project's own (the `node` devDependency), it re-runs itself on that one.
//
// The TypeScript sources are bundled into one file on first use and again whenever they change,
// and V8's compile cache keeps that file's bytecode: a cold run then starts about as fast as a
// bare `node`, where transpiling many modules at every run would cost several times more.
import fs from 'node:fs';
import module from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const MIN_NODE = [22, 12];
const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
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
  const { spawnSync } = await import('node:child_process');
  const result = spawnSync(projectNode, [self, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, SYLLABUS_REEXEC: '1' },
  });
  if (result.signal) process.kill(process.pid, result.signal);
  process.exit(result.status ?? 1);
}

/** A short key of the sources the bundle is made of: their paths, sizes and modification times. */
function sourceKey() {
  let state = '';
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.ts')) {
        const stat = fs.statSync(file);
        state += `${file}\0${stat.size}\0${stat.mtimeMs}\n`;
      }
    }
  };
  // The bundle holds src/cli and what it imports: the core and the site's data modules.
  visit(path.join(root, 'src'));
  for (const file of ['package-lock.json', 'package.json', 'bin/syllabus.js']) {
    state += `${file}\0${fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.mtimeMs ?? 0}\n`;
  }
  // FNV-1a, twice with different seeds: a key, not a security boundary.
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < state.length; i++) {
    const c = state.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x811c9dc5) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

async function loadBundle() {
  const cacheDir = path.join(root, 'node_modules', '.cache', 'syllabus');
  const bundle = path.join(cacheDir, `cli-${sourceKey()}.mjs`);
  if (!fs.existsSync(bundle)) {
    const { build } = await import('esbuild');
    fs.mkdirSync(cacheDir, { recursive: true });
    const temporary = `${bundle}.${process.pid}.tmp`;
    await build({
      entryPoints: [path.join(root, 'src', 'cli', 'main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      outfile: temporary,
      // Large libraries needed only by some commands stay lazy imports from node_modules.
      external: ['gpt-tokenizer', 'gpt-tokenizer/*', 'yaml', 'esbuild', 'astro'],
      minifyWhitespace: true,
      minifySyntax: true,
      banner: { js: "import { createRequire as __syllabusRequire } from 'node:module'; const require = __syllabusRequire(import.meta.url);" },
      logLevel: 'error',
    });
    fs.renameSync(temporary, bundle);
    // Older bundles go once they are surely out of use: another process may be loading one now.
    const stale = Date.now() - 10 * 60 * 1000;
    for (const old of fs.readdirSync(cacheDir)) {
      const file = path.join(cacheDir, old);
      if (old.startsWith('cli-') && file !== bundle && (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < stale) fs.rmSync(file, { force: true });
    }
  }
  module.enableCompileCache?.(path.join(cacheDir, 'v8'));
  return import(pathToFileURL(bundle).href);
}

const { runProcess } = await loadBundle();
await runProcess(process.argv.slice(2));
