#!/usr/bin/env node
// The `syllabus` command. Plain JavaScript that any Node can parse, so that an old Node gets a
// clear message instead of a syntax error.
//
// Installed, it runs the compiled modules of lib/. In a checkout of Syllabus (src/ is there), it
// compiles src/ into node_modules/.cache/syllabus/ whenever the sources change, and on a Node
// older than Astro's floor it runs again on the project's own Node (the `node` devDependency),
// passing signals on so that `dev` and `preview` never outlive it.
const MIN_NODE = [22, 12];
const [major, minor] = process.versions.node.split('.').map(Number);
const supported = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
// Node's own modules by getBuiltinModule where it exists: an `import` of node:fs makes Node set
// up all of fs for ES modules, streams included, which costs a short command much of its time.
const { default: fs } = supported ? { default: process.getBuiltinModule('node:fs') } : await import('node:fs');
const { default: path } = supported ? { default: process.getBuiltinModule('node:path') } : await import('node:path');
const { fileURLToPath, pathToFileURL } = supported ? process.getBuiltinModule('node:url') : await import('node:url');

const self = fileURLToPath(import.meta.url);
const root = path.resolve(path.dirname(self), '..');
const checkout = fs.existsSync(path.join(root, 'src', 'cli', 'main.ts'));

if (!supported) {
  const projectNode = path.join(root, 'node_modules', 'node', 'bin', 'node');
  if (!checkout || !fs.existsSync(projectNode) || process.env.SYLLABUS_REEXEC === '1') {
    process.stderr.write(
      `error: syllabus needs Node.js ${MIN_NODE.join('.')} or later, and this is Node.js ${process.version}. Install a current Node.js from https://nodejs.org/ (or with a version manager: "nvm install 22"), then run the command again.\n`,
    );
    process.exit(2);
  }
  await runOnProjectNode(projectNode);
} else {
  await run();
}

/** Runs this command again on `node`, passing signals on and ending as the child ends. */
async function runOnProjectNode(node) {
  const { spawn } = await import('node:child_process');
  // The channel closes when this process dies, however it dies: the child then stops too.
  const child = spawn(node, [self, ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], env: { ...process.env, SYLLABUS_REEXEC: '1' } });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
}

async function run() {
  if (process.env.SYLLABUS_REEXEC === '1' && process.channel) {
    // Started by the lines above on an older Node: stop when that parent is gone.
    process.channel.unref();
    process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  }
  const modules = checkout ? await compiledCheckout() : path.join(root, 'lib');
  process.getBuiltinModule('node:module').enableCompileCache?.();
  const { runProcess } = await import(pathToFileURL(path.join(modules, 'cli', 'main.js')).href);
  await runProcess(process.argv.slice(2));
}

/** The compiled sources of this checkout, compiled now when they changed since the last run. */
async function compiledCheckout() {
  const cacheDir = path.join(root, 'node_modules', '.cache', 'syllabus');
  const out = path.join(cacheDir, `lib-${sourceKey()}`);
  if (fs.existsSync(out)) return out;
  const { compileSources } = await import('./compile-sources.js');
  const temporary = `${out}.${process.pid}.tmp`;
  fs.rmSync(temporary, { recursive: true, force: true });
  await compileSources(path.join(root, 'src'), temporary);
  // No package.json above node_modules/ gives these modules a type: without their own, Node reads
  // each as CommonJS first, fails, parses it again as an ES module and never keeps its compiled code.
  fs.writeFileSync(path.join(temporary, 'package.json'), '{ "type": "module" }\n');
  try {
    fs.renameSync(temporary, out);
  } catch {
    // Another process compiled the same sources first: its copy is as good.
    fs.rmSync(temporary, { recursive: true, force: true });
  }
  // Older copies go once they are surely out of use: another process may be loading one now.
  const stale = Date.now() - 10 * 60 * 1000;
  for (const name of fs.readdirSync(cacheDir)) {
    const dir = path.join(cacheDir, name);
    if (dir !== out && /^(lib|cli)-/.test(name) && (fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < stale) fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** A short key of the sources: their paths, sizes and modification times, and the compiler's own. */
function sourceKey() {
  let state = '';
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(file);
      else {
        const stat = fs.statSync(file);
        state += `${file}\0${stat.size}\0${stat.mtimeMs}\n`;
      }
    }
  };
  visit(path.join(root, 'src'));
  for (const file of ['package-lock.json', 'package.json', 'bin/syllabus.js', 'bin/compile-sources.js']) {
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
