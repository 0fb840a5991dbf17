/**
 * Where Syllabus's own modules are, as they run: the `.ts` sources in this repository's tests, the
 * compiled `.js` modules from bin/syllabus.js and the package. Worker threads, the pages' shared
 * module and the browser scripts are found beside the module that names them.
 */

/** The extension of the modules as they run, read from `from`, a module's `import.meta.url`. */
export function moduleExtension(from: string): '.ts' | '.js' {
  return from.endsWith('.ts') ? '.ts' : '.js';
}

/** The URL of the module `relative` (a path without extension, `./catalog-worker`) from the module `from` (its `import.meta.url`). */
export function moduleUrl(relative: string, from: string): URL {
  return new URL(`${relative}${moduleExtension(from)}`, from);
}
