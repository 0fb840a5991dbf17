/**
 * Builds what the published package runs (`npm pack` and `npm publish` run it as `prepack`):
 * `lib/`, Syllabus's sources compiled file by file into ES modules (bin/compile-sources.js), with
 * the type declarations of the public entry points (`syllabus-kb`, `syllabus-kb/astro`,
 * `syllabus-kb/loader`) beside them. Nothing is compiled when a team runs the installed package.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileSources } from '../bin/compile-sources.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lib = path.join(root, 'lib');
const staging = `${lib}.building`;

fs.rmSync(staging, { recursive: true, force: true });
await compileSources(path.join(root, 'src'), staging);
// --noCheck: the declarations only, without checking the types again (half the time): CI checks
// them (`npm run typecheck`), and a syntax error still fails here.
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--noCheck', '--outDir', staging],
  {
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) {
  fs.rmSync(staging, { recursive: true, force: true });
  throw new Error('The type declarations did not compile (see the errors above); lib/ was left as it was.');
}
fs.rmSync(lib, { recursive: true, force: true });
fs.renameSync(staging, lib);
process.stderr.write(`Compiled src/ into ${path.relative(process.cwd(), lib) || 'lib'}/\n`);
