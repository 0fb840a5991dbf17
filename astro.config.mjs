// @ts-check
import { satteri } from '@astrojs/markdown-satteri';
import { defineConfig } from 'astro/config';
import { syllabusIntegration } from './src/astro/integration.ts';
import { createLinksPlugin, createSanitizePlugin } from './src/astro/markdown-plugins.ts';

// `syllabus build` passes the output folder, the cache and the site's base; see src/cli/build.ts.
export default defineConfig({
  output: 'static',
  outDir: process.env.SYLLABUS_OUT_DIR ?? './dist',
  // Outside node_modules, so that `npm ci` does not wipe the build cache.
  cacheDir: process.env.SYLLABUS_ASTRO_CACHE ?? './.cache/astro',
  trailingSlash: 'always',
  build: { format: 'directory' },
  devToolbar: { enabled: false },
  integrations: [syllabusIntegration()],
  markdown: {
    // Measured against the unified pipeline on the tldr corpus: see content/reference/decisions.md.
    processor: satteri({ features: { rawHtml: true }, hastPlugins: [createLinksPlugin(), createSanitizePlugin()] }),
    shikiConfig: { themes: { light: 'github-light-default', dark: 'github-dark-default' }, defaultColor: false },
  },
});
