/**
 * The e2e project's global setup: starts finding (or installing) Chromium and answers the browser
 * tests with its path at a local address, `inject('chromiumUrl')` (see `chromiumPath` in
 * test/helpers/browser.ts). It does not wait for an install itself: Vitest runs every project's
 * global setup before any test, and the unit tests never need a browser.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { ensureChromium } from '../scripts/ensure-chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * A local address whose answer, once Chromium is found or installed, is the JSON
     * {@link ChromiumAnswer} (see scripts/ensure-chromium.ts).
     */
    chromiumUrl: string;
  }
}

/** The executable the browser tests launch, or why there is none. */
export type ChromiumAnswer = { file: string } | { error: string };

/** Starts looking for Chromium and serves the outcome; the teardown waits for an install to end. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const answer: Promise<ChromiumAnswer> = ensureChromium().then(
    (file) => ({ file }),
    (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
  );
  const server = http.createServer((_request, response) => {
    void answer.then((body) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  project.provide('chromiumUrl', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return async () => {
    await answer;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}
