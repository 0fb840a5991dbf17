// @ts-check
import { defineConfig } from 'astro/config';

// `syllabus build` passes the knowledge base and the output folder; see src/cli/build.ts.
export default defineConfig({
  output: 'static',
  outDir: process.env.SYLLABUS_OUT_DIR ?? './dist',
  // Outside node_modules, so that `npm ci` does not wipe the build cache.
  cacheDir: './.cache/astro',
  trailingSlash: 'always',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
});
