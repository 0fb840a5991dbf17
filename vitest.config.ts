import os from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    // A folder the run's test files share: builds that several files read are made once (test/helpers/shared-build.ts).
    globalSetup: ['test/run-folder.ts'],
    // Limits that only stop a test that hangs: a busy machine may take minutes over a build, and no
    // test measures time (content/reference/decisions.md, "Developing Syllabus").
    testTimeout: 300_000,
    hookTimeout: 600_000,
    // expect.poll waits for what a page does next; its default of 1 s failed a browser test on a busy machine.
    expect: { poll: { timeout: 60_000 } },
    // Most files wait on child processes (the real bin, Astro builds, Chromium) rather than on their
    // own process: Vitest's default, one less than the cores, runs one file at a time on 2 cores.
    maxWorkers: Math.max(2, os.availableParallelism()),
    // A worker keeps the modules it loaded for its next file (content/reference/decisions.md,
    // "Developing Syllabus"): loading them again for each of 130 files cost a sixth of the suite.
    isolate: false,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/e2e/**', 'test/fixtures/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          // Starts finding (or installing) Chromium; the browser tests wait for it in beforeAll.
          globalSetup: ['test/run-folder.ts', 'test/global-setup.ts'],
        },
      },
    ],
  },
});
