/** Where the Syllabus project (its astro.config.mjs and src/) is, from this file's place in the bundle or in src/. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project folder, whether running from the CLI bundle in node_modules/.cache or from src/. */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!dir.endsWith(`${path.sep}node_modules`) && path.basename(dir) !== 'src' && dir !== path.dirname(dir)) dir = path.dirname(dir);
  return path.dirname(dir);
}
