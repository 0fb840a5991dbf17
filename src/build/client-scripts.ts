/**
 * The site's browser scripts (src/site-client/): published as files of the site whose names carry
 * a hash of their content, so that a browser may keep them for good. They are Syllabus's own,
 * compiled with the rest of its modules; the site's pages load them with a plain `<script>`, so
 * Astro never bundles anything for the browser.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { moduleUrl } from './module-url.ts';

/** The browser scripts, by the name pages use. */
export const CLIENT_SCRIPTS = { shell: 'shell', search: 'search', copyMarkdown: 'copy-markdown', sidebar: 'sidebar', codeBlocks: 'code-blocks', diagrams: 'diagrams' } as const;

/** A browser script of the site. */
export interface ClientScript {
  /** Its path below the site's base (`_syllabus/shell.1a2b3c4d.js`). */
  path: string;
  /** The compiled module it is copied from. */
  file: string;
}

let scripts: Record<keyof typeof CLIENT_SCRIPTS, ClientScript> | undefined;

/** The site's browser scripts, with their hashed names (computed once per process). */
export function clientScripts(): Record<keyof typeof CLIENT_SCRIPTS, ClientScript> {
  if (scripts) return scripts;
  const entries = Object.entries(CLIENT_SCRIPTS).map(([key, name]) => {
    const file = fileURLToPath(moduleUrl(`../site-client/${name}`, import.meta.url));
    const hash = createHash('sha256').update(fs.readFileSync(file)).digest('hex').slice(0, 10);
    return [key, { path: `_syllabus/${name}.${hash}.js`, file }] as const;
  });
  scripts = Object.fromEntries(entries) as Record<keyof typeof CLIENT_SCRIPTS, ClientScript>;
  return scripts;
}
