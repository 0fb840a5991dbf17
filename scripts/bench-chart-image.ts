/**
 * The scaling chart as a PNG, for the site's guide page (content/guide/performance.md): the site
 * publishes an SVG image only under `[site] allow_html = true` (an SVG opened at its own address
 * runs its scripts), which the guide does not set, and an SVG beside the PNG in the guide's
 * folder would share its slug; so the SVG that scripts/bench-scale.ts writes is kept in `docs/`
 * and the page shows a picture of it. Chromium draws it in the light scheme, at twice its size
 * for sharp text; the chart draws its own background, so the picture reads on a dark page too.
 *
 * Usage: node scripts/bench-chart-image.ts [chart.svg] [picture.png] (default
 * docs/build-scaling.svg and content/guide/.img/build-scaling.png).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ROOT } from './bench-common.ts';
import { ensureChromium } from './ensure-chromium.ts';

/** Where `npm run bench:scale -- --write-chart` writes the chart. */
export const CHART_SVG = path.join(ROOT, 'docs', 'build-scaling.svg');
/** Where it writes the chart's picture, which content/guide/performance.md shows. */
export const CHART_PNG = path.join(ROOT, 'content', 'guide', '.img', 'build-scaling.png');

/** Draws the SVG file `svgFile` with Chromium into the PNG file `pngFile`. */
export async function writeChartImage(svgFile: string, pngFile: string): Promise<void> {
  const svg = fs.readFileSync(svgFile, 'utf8');
  const size = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  if (!size) throw new Error(`${svgFile} has no viewBox "0 0 <width> <height>"; write it again with npm run bench:scale -- --write-chart.`);
  const [width, height] = [Number(size[1]), Number(size[2])];
  const browser = await chromium.launch({
    executablePath: await ensureChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--hide-scrollbars', '--font-render-hinting=none'],
  });
  try {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 2, colorScheme: 'light' });
    const page = await context.newPage();
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    fs.mkdirSync(path.dirname(pngFile), { recursive: true });
    await page.locator('svg').first().screenshot({ path: pngFile, omitBackground: true });
  } finally {
    await browser.close();
  }
}

if (import.meta.main) await writeChartImage(path.resolve(process.argv[2] ?? CHART_SVG), path.resolve(process.argv[3] ?? CHART_PNG));
