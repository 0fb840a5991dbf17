/**
 * The bare unified floor of the site benchmark (scripts/bench-site.ts): what turning a corpus's
 * markdown into HTML costs at the least, in one process on the same Node as the build. Reads every
 * `.md` file below a folder and writes one HTML file per page with
 * `unified().use(remarkParse).use(remarkRehype).use(rehypeStringify)`: no layout, no
 * navigation, no search index, no agent files.
 *
 * Usage: node scripts/bench-floor.ts <pages folder> <output folder>; prints the number of pages.
 */
import fs from 'node:fs';
import path from 'node:path';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

/** Renders every `.md` file below `pages` to `out/<same path>.html`; returns how many. */
export function renderFloor(pages: string, out: string): number {
  const processor = unified().use(remarkParse).use(remarkRehype).use(rehypeStringify);
  const files = fs.readdirSync(pages, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.md'));
  const folders = new Set<string>();
  for (const entry of files) {
    const source = path.join(entry.parentPath, entry.name);
    const target = path.join(out, path.relative(pages, source).replace(/\.md$/, '.html'));
    const folder = path.dirname(target);
    if (!folders.has(folder)) {
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    fs.writeFileSync(target, String(processor.processSync(fs.readFileSync(source, 'utf8'))));
  }
  return files.length;
}

if (import.meta.main) {
  const [pages, out] = process.argv.slice(2);
  if (pages === undefined || out === undefined) {
    console.error('usage: node scripts/bench-floor.ts <pages folder> <output folder>');
    process.exitCode = 2;
  } else {
    console.log(String(renderFloor(pages, out)));
  }
}
