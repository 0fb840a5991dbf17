/**
 * The lint rules that keep the architecture (content/reference/decisions.md, "Developing
 * Syllabus"): the core imports no framework and no host, and no module imports itself back, types
 * included. `npm run lint` applies them to the tree in CI; these tests prove that they catch what
 * they are for, on code written for the purpose.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import noImportCycle from '../../eslint-rules/no-import-cycle.js';
import { ROOT } from '../helpers/run-cli.ts';

/** The repository's own config, without type information (the probes are not files of the project). */
const repositoryLint = new ESLint({ cwd: ROOT, overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }] });

async function problemsOf(text: string, filePath: string): Promise<string[]> {
  const [result] = await repositoryLint.lintText(text, { filePath });
  return result!.messages.map((message) => `${message.line} ${message.ruleId ?? 'parse'}`);
}

describe('the core stays free of frameworks and hosts', () => {
  const core = [
    "import { getCollection } from 'astro:content';",
    "import type { AstroIntegration } from 'astro';",
    "import { Server } from '@modelcontextprotocol/sdk/server/index.js';",
    "export type Vi = typeof import('vitest');",
    "export const load = () => import('@astrojs/markdown-remark');",
    "import { main } from '../../cli/main.ts';",
    'console.log(getCollection, main, Server);',
    'process.exit(1);',
    'export type Integration = AstroIntegration;',
  ].join('\n');

  it('forbids Astro, the MCP SDK and Vitest in every kind of import, hosts, console and process.exit in src/kb', async () => {
    expect(await problemsOf(core, 'src/kb/subjects/probe.ts')).toEqual([
      '1 no-restricted-imports',
      '2 no-restricted-imports',
      '3 no-restricted-imports',
      '4 no-restricted-syntax',
      '5 no-restricted-syntax',
      '6 import-x/no-restricted-paths',
      '7 no-console',
      '8 no-restricted-properties',
    ]);
  });

  it('lets the hosts use them', async () => {
    expect(await problemsOf(core.replace("'../../cli/main.ts'", "'../cli/main.ts'"), 'src/astro/probe.ts')).toEqual([]);
  });
});

describe('no-import-cycle', () => {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'syllabus-lint-'));
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** Writes the modules, then lints them all with the rule alone; the messages by file. */
  async function cycles(name: string, modules: Record<string, string>): Promise<Record<string, string[]>> {
    const dir = path.join(folder, name);
    for (const [file, text] of Object.entries(modules)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { syllabus: { rules: { 'no-import-cycle': noImportCycle } } },
          rules: { 'syllabus/no-import-cycle': 'error' },
        },
      ],
    });
    const found: Record<string, string[]> = {};
    for (const result of await eslint.lintFiles(['**/*.ts'])) {
      if (result.messages.length > 0) found[path.relative(dir, result.filePath)] = result.messages.map((message) => `${message.line}: ${message.message}`);
    }
    return found;
  }

  it('names the whole cycle in each of its modules, type-only and dynamic imports included', async () => {
    expect(
      await cycles('cycle', {
        'a.ts': "import type { B } from './b.ts';\nexport type A = B[];\n",
        'b.ts': "export type B = Awaited<ReturnType<typeof load>>;\nconst load = () => import('./deep/c.ts');\n",
        'deep/c.ts': "export * from '../a.ts';\n",
        'd.ts': "import type { A } from './a.ts';\nexport type D = A;\n",
      }),
    ).toEqual({
      'a.ts': ['1: Import cycle: a.ts → b.ts → deep/c.ts → a.ts. Move what both need into a module that neither imports.'],
      'b.ts': ['2: Import cycle: b.ts → deep/c.ts → a.ts → b.ts. Move what both need into a module that neither imports.'],
      'deep/c.ts': ['1: Import cycle: deep/c.ts → a.ts → b.ts → deep/c.ts. Move what both need into a module that neither imports.'],
    });
  });

  it('says nothing of imports that only run one way', async () => {
    expect(
      await cycles('tree', {
        'a.ts': "import { b } from './b.ts';\nimport { c } from './c.ts';\nexport const a = b + c;\n",
        'b.ts': "import { c } from './c.ts';\nexport const b = c;\n",
        'c.ts': "import path from 'node:path';\nexport const c = path.sep;\n",
      }),
    ).toEqual({});
  });
});
