/**
 * Page-weight benchmark (`npm run bench:weight`, and part of `npm run bench`): prints figures,
 * asserts nothing. Builds the same few tldr pages twice in a temporary folder (below .cache/), as a Syllabus site
 * and as an Astro Starlight site (its defaults: sidebar, search, table of contents), serves each,
 * loads one subject page in Chromium and counts what the page made the browser fetch by the time
 * the network was idle: every HTML, CSS and JavaScript response's body, gzipped (zlib level 6,
 * what static hosts commonly send) — the bytes a reader's browser is sent on a first visit.
 * Files fetched only on demand (the search index, before a search) are not counted, in either.
 *
 * Environment: BENCH_CORPUS (the folder of platform folders, default /work/shared/corpora/tldr/pages).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { serveStatic } from '../src/cli/static-server.ts';
import { BIN, NODE, ROOT, TLDR_PAGES } from './bench-common.ts';
import { ensureChromium } from './ensure-chromium.ts';

/** The tldr pages both sites hold (from the `common` platform), and the one measured. */
const PAGES = ['tar', 'git', 'curl', 'grep', 'ls', 'ssh', 'find', 'docker'];
const MEASURED = 'tar';

/** What one kind of file weighs on a page: how many, and their gzipped bytes. */
interface Weight {
  files: number;
  bytes: number;
}
type Kind = 'html' | 'css' | 'js';

const run = promisify(execFile);

/** A tldr page as a Starlight page: its `# ` heading becomes the front matter title Starlight requires. */
function starlightPage(markdown: string): string {
  const [first, ...rest] = markdown.split('\n');
  const title = first!.replace(/^#\s+/, '');
  return `---\ntitle: ${JSON.stringify(title)}\n---\n${rest.join('\n').replace(/^\n+/, '')}`;
}

/** Builds the Syllabus site of `pages` in `dir`; returns its output folder. */
async function buildSyllabus(dir: string, corpus: string): Promise<string> {
  fs.mkdirSync(path.join(dir, 'common'), { recursive: true });
  for (const name of PAGES) fs.copyFileSync(path.join(corpus, 'common', `${name}.md`), path.join(dir, 'common', `${name}.md`));
  fs.writeFileSync(path.join(dir, 'kb.toml'), '[site]\ntitle = "tldr"\n\n[kb.topic.common]\ntitle = "common"\nsubjects = "common"\n');
  await run(NODE, [BIN, 'build', '--config', 'kb.toml', '--out', 'dist', '--cache', 'cache'], { cwd: dir });
  return path.join(dir, 'dist');
}

/** Builds the Starlight site of `pages` in `dir`, with this checkout's packages; returns its output folder. */
async function buildStarlight(dir: string, corpus: string): Promise<string> {
  const docs = path.join(dir, 'src', 'content', 'docs', 'common');
  fs.mkdirSync(docs, { recursive: true });
  for (const name of PAGES) fs.writeFileSync(path.join(docs, `${name}.md`), starlightPage(fs.readFileSync(path.join(corpus, 'common', `${name}.md`), 'utf8')));
  fs.writeFileSync(path.join(dir, 'src', 'content', 'docs', 'index.md'), '---\ntitle: tldr\n---\nThe tldr pages.\n');
  fs.writeFileSync(
    path.join(dir, 'src', 'content.config.ts'),
    [
      "import { defineCollection } from 'astro:content';",
      "import { docsLoader } from '@astrojs/starlight/loaders';",
      "import { docsSchema } from '@astrojs/starlight/schema';",
      'export const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'astro.config.mjs'),
    [
      "import { defineConfig } from 'astro/config';",
      "import starlight from '@astrojs/starlight';",
      "export default defineConfig({ integrations: [starlight({ title: 'tldr', sidebar: [{ label: 'common', items: [{ autogenerate: { directory: 'common' } }] }] })] });",
      '',
    ].join('\n'),
  );
  // Astro bundles the packages a project depends on that build on Astro (Starlight among them): they must be named here.
  const versions = (name: string): string => (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  const dependencies = Object.fromEntries(['astro', '@astrojs/starlight'].map((name) => [name, versions(name)]));
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: 'starlight-weight', private: true, type: 'module', dependencies }, null, 2)}\n`);
  await run(NODE, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], { cwd: dir, env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' } });
  return path.join(dir, 'dist');
}

/** What the browser fetched a file as, or undefined for images, fonts, icons and data. */
const KINDS: Record<string, Kind> = { document: 'html', stylesheet: 'css', script: 'js' };

/** Loads `pathname` of the site in `dist` and weighs its HTML, CSS and JavaScript, gzipped. */
async function weighPage(browser: Browser, dist: string, pathname: string): Promise<Record<Kind, Weight>> {
  const server = await serveStatic(dist);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const bodies: Promise<[Kind, Buffer] | undefined>[] = [];
    page.on('response', (response) => {
      const kind = KINDS[response.request().resourceType()];
      if (kind) bodies.push(response.body().then((body) => [kind, body] as [Kind, Buffer]));
    });
    const answer = await page.goto(`${server.url}${pathname}`, { waitUntil: 'networkidle' });
    if (answer?.status() !== 200) throw new Error(`${pathname} answered ${answer?.status()} in ${dist}`);
    const weights: Record<Kind, Weight> = { html: { files: 0, bytes: 0 }, css: { files: 0, bytes: 0 }, js: { files: 0, bytes: 0 } };
    for (const entry of await Promise.all(bodies)) {
      if (!entry) continue;
      const [kind, body] = entry;
      weights[kind].files++;
      weights[kind].bytes += zlib.gzipSync(body, { level: 6 }).length;
    }
    return weights;
  } finally {
    await context.close();
    await server.close();
  }
}

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
const total = (w: Record<Kind, Weight>): number => w.html.bytes + w.css.bytes + w.js.bytes;

/** Runs the benchmark and prints its table; returns nothing, fails only when a build fails. */
export async function runWeightBenchmark(corpus = TLDR_PAGES): Promise<void> {
  if (!fs.existsSync(path.join(corpus, 'common', `${MEASURED}.md`))) {
    console.log(`Page weight: skipped, no tldr pages at ${corpus} (set BENCH_CORPUS).`);
    return;
  }
  // Inside the checkout (in its ignored .cache/), so that the Starlight site finds this checkout's
  // packages as any project finds its own: nothing is installed, and no link confuses Vite.
  fs.mkdirSync(path.join(ROOT, '.cache'), { recursive: true });
  const work = fs.mkdtempSync(path.join(ROOT, '.cache', 'bench-weight-'));
  const started = Date.now();
  try {
    const [syllabusDist, starlightDist] = await Promise.all([buildSyllabus(path.join(work, 'syllabus'), corpus), buildStarlight(path.join(work, 'starlight'), corpus)]);
    const browser = await chromium.launch({
      executablePath: await ensureChromium(),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    let ours: Record<Kind, Weight>;
    let theirs: Record<Kind, Weight>;
    try {
      ours = await weighPage(browser, syllabusDist, `/common/${MEASURED}/`);
      theirs = await weighPage(browser, starlightDist, `/common/${MEASURED}/`);
    } finally {
      await browser.close();
    }
    console.log(`Page weight: the tldr page "${MEASURED}" (${PAGES.length} pages in each site), HTML + CSS + JS fetched by the time the network is idle, gzipped (level 6)`);
    const row = (label: string, w: Record<Kind, Weight>): string =>
      `  ${label.padEnd(10)} ${(['html', 'css', 'js'] as const).map((k) => `${k} ${kb(w[k].bytes).padStart(8)} (${w[k].files})`).join('  ')}  total ${kb(total(w)).padStart(8)}`;
    console.log(row('Syllabus', ours));
    console.log(row('Starlight', theirs));
    console.log(`  Syllabus / Starlight: ${(total(ours) / total(theirs)).toFixed(2)}×  (${((Date.now() - started) / 1000).toFixed(1)} s with both builds)`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.main) await runWeightBenchmark();
