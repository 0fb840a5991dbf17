/**
 * An ESLint rule: a module may not import, directly or through others, a module that imports it.
 * Every kind of import counts: static and dynamic imports, re-exports, `import type` and
 * `typeof import(…)`, since a cycle of types still ties two modules' designs together
 * (content/reference/decisions.md, "Developing Syllabus"). Only relative imports are followed: a
 * package cannot import this project's modules.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Each module's resolved relative imports, by absolute path, for the whole lint run. */
const importsByFile = new Map();

/** The module a relative specifier names, or undefined (a package, or a file that does not exist). */
function resolveImport(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = path.resolve(path.dirname(from), specifier.split(/[?#]/)[0]);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find((file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile());
}

/** The imports of `file` with their offsets in `text`, resolved. */
function importsOf(file, text) {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => ({ target: resolveImport(file, imported.fileName), pos: imported.pos, end: imported.end }))
    .filter((imported) => imported.target !== undefined);
}

/** The modules `file` imports, read from disk once per run. */
function importedBy(file) {
  let targets = importsByFile.get(file);
  if (targets === undefined) {
    const text = /\.(?:[cm]?[jt]s)$/.test(file) ? fs.readFileSync(file, 'utf8') : '';
    targets = [...new Set(importsOf(file, text).map((imported) => imported.target))];
    importsByFile.set(file, targets);
  }
  return targets;
}

/** A shortest chain of imports from `start` back to `file`, or undefined when there is none. */
function chainBack(start, file) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of importedBy(current)) {
      if (next === file) {
        const chain = [current];
        for (let step = previous.get(current); step !== undefined; step = previous.get(step)) chain.unshift(step);
        return chain;
      }
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import cycles, type-only imports included' },
    schema: [],
    messages: { cycle: 'Import cycle: {{chain}}. Move what both need into a module that neither imports.' },
  },
  create(context) {
    const file = context.physicalFilename;
    const { sourceCode } = context;
    return {
      'Program:exit'() {
        const root = context.cwd;
        const name = (module) => path.relative(root, module).split(path.sep).join('/');
        for (const imported of importsOf(file, sourceCode.text)) {
          const chain = imported.target === file ? [] : chainBack(imported.target, file);
          if (chain === undefined) continue;
          context.report({
            loc: { start: sourceCode.getLocFromIndex(imported.pos), end: sourceCode.getLocFromIndex(imported.end) },
            messageId: 'cycle',
            data: { chain: [file, ...chain, file].map(name).join(' → ') },
          });
        }
      },
    };
  },
};
