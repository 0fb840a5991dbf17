import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
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
          // Starts finding (or installing) Chromium; the browser tests wait for it in their
          // beforeAll, which an install may keep busy for minutes.
          globalSetup: ['test/global-setup.ts'],
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
