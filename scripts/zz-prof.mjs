import { chromium } from 'playwright-core';
import { serveStatic } from '/work/main/src/cli/static-server.ts';
const dist = process.argv[2];
const extra = process.argv.slice(3);
const server = await serveStatic(dist);
let t = performance.now();
const tot = {};
const lap = (l) => { const n = performance.now(); tot[l] = (tot[l] ?? 0) + Math.round(n - t); t = n; };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync', ...extra] });
lap('launch');
for (let i = 0; i < 6; i++) {
  const ctx = await browser.newContext(); lap('context');
  const page = await ctx.newPage(); lap('page');
  await page.goto(server.url + '/handbook/welcome/'); lap('goto');
  await page.locator('main h1').textContent(); lap('text');
  await page.goto(server.url + '/handbook/'); lap('goto2');
  await ctx.close(); lap('close');
}
console.log(extra.join(' '), JSON.stringify(tot));
await browser.close(); await server.close();
