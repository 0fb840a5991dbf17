// Compiles Syllabus's TypeScript sources (src/) into plain ES modules, file by file, the way the
// published package ships them (lib/): `.ts` files become `.js` with their relative imports
// renamed, `.astro` pages and styles are copied with the same renaming. Used by `npm pack` (see
// scripts/build-package.ts) and, in a checkout, by bin/syllabus.js whenever the sources change.
// Plain JavaScript, so that it runs before anything is compiled; needs esbuild (a devDependency).
import fs from 'node:fs';
import path from 'node:path';

/** Relative import specifiers ending in `.ts`, in `import … from`, `export … from`, `import(…)` and `import '…'`. */
const TS_IMPORT = /((?:\bfrom|\bimport)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.ts\2/g;

/** Renames the relative `.ts` imports of a module's text to `.js`. */
export function renameImports(text) {
  return text.replace(TS_IMPORT, '$1$2$3.js$2');
}

/** Every file below `dir`, as paths relative to it, in a stable order. */
export function listFiles(dir) {
  const found = [];
  const visit = (folder) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (entry.isFile()) found.push(path.relative(dir, full));
    }
  };
  visit(dir);
  return found;
}

/**
 * Command modules an agent runs many times a task, bundled whole (their static imports inlined,
 * packages included) so that a command starts by loading one file instead of a hundred: their
 * cold start is most of their run. What they import lazily stays a separate module.
 */
export const BUNDLED_COMMANDS = ['cli/learn.ts', 'cli/prompt.ts', 'cli/schema.ts'];

/**
 * Modules a bundled command shares with the rest of the CLI instead of holding its own copy: their
 * classes must be the same (main.ts tells a CliError from a bug with `instanceof`).
 */
const SHARED_MODULES = ['cli/errors.ts', 'build/build-error.ts'];

/**
 * An esbuild plugin for a command bundled from `srcDir`: dynamic imports stay imports, of the
 * compiled module (relative ones) or the package; the shared modules are imported, not copied.
 */
function keepOut(srcDir, entry) {
  const shared = new Set(SHARED_MODULES.map((m) => path.join(srcDir, m)));
  const outDir = path.dirname(path.join(srcDir, entry));
  const compiled = (file) => {
    const relative = path.relative(outDir, file).split(path.sep).join('/').replace(/\.ts$/, '.js');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  return {
    name: 'keep-out',
    setup(build) {
      // node:fs through getBuiltinModule (see bin/syllabus.js); every module imports it whole.
      build.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: 'node:fs', namespace: 'builtin-fs' }));
      build.onLoad({ filter: /.*/, namespace: 'builtin-fs' }, () => ({ contents: "export default process.getBuiltinModule('node:fs');", loader: 'js' }));
      build.onResolve({ filter: /.*/ }, (args) => {
        const relative = args.path.startsWith('.');
        const file = relative ? path.resolve(args.resolveDir, args.path) : undefined;
        if (file && shared.has(file)) return { path: compiled(file), external: true };
        if (args.kind !== 'dynamic-import') return undefined;
        return { path: file ? compiled(file) : args.path, external: true };
      });
    },
  };
}

/** Compiles `srcDir` into `outDir` (which must not exist yet). */
export async function compileSources(srcDir, outDir) {
  const { build } = await import('esbuild');
  const files = listFiles(srcDir);
  const modules = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await build({
    entryPoints: modules.map((f) => path.join(srcDir, f)),
    outdir: outDir,
    outbase: srcDir,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'error',
  });
  for (const file of modules) {
    const out = path.join(outDir, file.replace(/\.ts$/, '.js'));
    fs.writeFileSync(out, renameImports(fs.readFileSync(out, 'utf8')));
  }
  for (const file of BUNDLED_COMMANDS) {
    await build({
      entryPoints: [path.join(srcDir, file)],
      outfile: path.join(outDir, file.replace(/\.ts$/, '.js')),
      allowOverwrite: true,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node22',
      plugins: [keepOut(srcDir, file)],
      // Bundled CommonJS packages (picomatch) require Node's own modules.
      banner: { js: "import { createRequire as __syllabusRequire } from 'node:module'; const require = __syllabusRequire(import.meta.url);" },
      minify: true,
      logLevel: 'error',
    });
  }
  for (const file of files.filter((f) => !f.endsWith('.ts'))) {
    const out = path.join(outDir, file);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    if (file.endsWith('.astro')) fs.writeFileSync(out, renameImports(fs.readFileSync(path.join(srcDir, file), 'utf8')));
    else fs.copyFileSync(path.join(srcDir, file), out);
  }
}
