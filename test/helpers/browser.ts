/** Browser-test tools: a static server for a built site, a headless Chromium, and an axe check. */
import fs from 'node:fs/promises';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { Result as AxeResult } from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { serveStatic, type RunningServer } from '../../src/cli/static-server.ts';
import type { ChromiumAnswer } from '../global-setup.ts';

/** A running static server (the one `syllabus preview` uses). */
export type StaticServer = RunningServer;

/**
 * Serves `dir` on 127.0.0.1 at a free port, as a static host would (see src/cli/static-server.ts):
 * `/x/` is `/x/index.html`, a folder without its slash redirects to it, a missing file is the
 * root's `404.html` (status 404), and a path that is malformed or climbs out of `dir` is refused (400).
 */
export function serveDirectory(dir: string): Promise<StaticServer> {
  return serveStatic(dir);
}

/** The flags every test browser gets (STACK.md "Browser tests"). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The Chromium executable test/global-setup.ts found or installed, once it has; throws its
 * message when there is none.
 */
export async function chromiumPath(): Promise<string> {
  const url = inject('chromiumUrl');
  if (!url) throw new Error('No Chromium was provided: run the browser tests as the e2e project of vitest.config.ts, whose global setup provides it.');
  // node:http, not fetch: an install may take longer than fetch waits for an answer's headers.
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get(url, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      })
      .on('error', reject);
  });
  const answer = JSON.parse(body) as ChromiumAnswer;
  if ('error' in answer) throw new Error(answer.error);
  return answer.file;
}

/**
 * Launches headless Chromium, the one test/global-setup.ts provides. Playwright gives each launch
 * a fresh temporary profile (user-data dir) and deletes it on `browser.close()`.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: [...CHROMIUM_ARGS] });
}

/** One accessibility problem axe found, with the elements it concerns. */
export type AxeViolation = AxeResult;

let axeSource: string | undefined;

/** Runs axe-core on the page as it is now and returns its serious and critical violations. */
export async function checkAccessibility(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await fs.readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof import('axe-core') };
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
