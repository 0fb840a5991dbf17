// ESLint for Syllabus (content/reference/decisions.md, "Developing Syllabus"): typed rules where
// they catch bugs, the core kept free of frameworks and hosts, and no import cycles.
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import noImportCycle from './eslint-rules/no-import-cycle.js';

/** Packages the core may not use: it runs the same under every host. */
const FRAMEWORKS = /^(?:astro(?:$|[/:])|@astrojs\/|@modelcontextprotocol\/|vitest(?:$|\/))/.source;
const FRAMEWORK_MESSAGE = 'src/kb is the framework-free core: no Astro, MCP SDK or Vitest there. A host (src/astro, src/agent, …) adapts the core to them.';

export default defineConfig(
  globalIgnores(['dist/', 'lib/', 'lib.building/', '.cache/', '.astro/', '**/.syllabus-cache/', 'test/fixtures/']),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { 'import-x': importX, syllabus: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: { 'import-x/resolver-next': [createNodeResolver()] },
    rules: { 'syllabus/no-import-cycle': 'error' },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { console: 'readonly', process: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    // One program for the whole tsconfig.json (every .ts file is in it): a third quicker than the
    // project service, which set up its project file by file.
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Names starting with _ are unused on purpose (a destructured property left out, say).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // A switch over a union that forgets a member is a bug the compiler does not report.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `return await` inside try: without it, the catch misses the rejection.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // An async function without await is how an interface that returns a promise is implemented.
      '@typescript-eslint/require-await': 'off',
      // Names, paths and config values are checked for control characters on purpose.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // `expect(object.method)` and spies name methods without calling them.
      '@typescript-eslint/unbound-method': 'off',
      // Tests read the JSON a command printed, and Vitest's matchers (expect.any, …) are typed any.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/kb/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: FRAMEWORKS, message: FRAMEWORK_MESSAGE }] }],
      'no-restricted-syntax': [
        'error',
        { selector: `ImportExpression[source.value=/${FRAMEWORKS}/]`, message: FRAMEWORK_MESSAGE },
        { selector: `TSImportType[source.value=/${FRAMEWORKS}/]`, message: FRAMEWORK_MESSAGE },
      ],
      // The core is called by hosts, never the other way round: hosts translate.
      'import-x/no-restricted-paths': [
        'error',
        { zones: [{ target: './src/kb', from: './src', except: ['./kb'], message: 'src/kb may not import a host: move what both need into the core, or pass it in.' }] },
      ],
      // Each host reports in its own way (stderr and an exit code, a tool result, an Astro error).
      'no-console': 'error',
      'no-restricted-properties': ['error', { object: 'process', property: 'exit', message: 'The core returns outcomes; the CLI decides the exit code.' }],
    },
  },
  {
    files: ['**/*.astro'],
    extends: [astro.configs.recommended],
  },
);
