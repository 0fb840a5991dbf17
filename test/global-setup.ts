/**
 * Runs once before the whole suite: finds (or installs) Chromium and provides its path to tests
 * as `inject('chromium')`.
 */
import type { TestProject } from 'vitest/node';
import { ensureChromium } from '../scripts/ensure-chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Chromium executable the browser tests launch (see scripts/ensure-chromium.ts). */
    chromium: string;
  }
}

/** Provides `chromium`; fails the run when there is no Chromium and none can be installed. */
export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromium', await ensureChromium());
}
