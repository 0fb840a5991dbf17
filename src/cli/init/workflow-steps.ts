/** What the generated workflows share: how they install and run Syllabus, and their expressions. */
import { PACKAGE_NAME } from '../../build/package-info.ts';
import { ACTION_PINS, usesLine } from './action-pins.ts';
import type { InitSettings } from './settings.ts';

/** A GitHub Actions expression, `${{ <expression> }}`. */
export function gh(expression: string): string {
  return `\${{ ${expression} }}`;
}

/**
 * How a workflow runs Syllabus. With a package.json, the version its lockfile holds (`npm ci`, then
 * `npx syllabus`); without one, the version that wrote the workflow, fetched by npx
 * (`npx --yes --package=syllabus-kb@<version> syllabus`), with nothing to install.
 */
export interface SyllabusInvocation {
  /** The words before a command: `npx syllabus`. */
  command: string;
  /** The `with:` lines of actions/setup-node, indented for a step. */
  setupNodeWith: string;
  /** Whether the job runs `npm ci` first. */
  install: boolean;
}

/** How the workflows of a repository run Syllabus. */
export function syllabusInvocation(settings: InitSettings, options: { cacheDependencyPath?: string } = {}): SyllabusInvocation {
  if (!settings.packageJson) {
    return {
      command: `npx --yes --package=${PACKAGE_NAME}@${settings.version} syllabus`,
      setupNodeWith: '        with:\n          node-version: 22\n',
      install: false,
    };
  }
  const dependencyPath = options.cacheDependencyPath ? `          cache-dependency-path: ${options.cacheDependencyPath}\n` : '';
  return {
    command: 'npx syllabus',
    setupNodeWith: `        with:\n          node-version: 22\n          cache: npm\n${dependencyPath}`,
    install: true,
  };
}

/** The checkout step every job starts with: the token is not kept in the checkout's git config. */
export function checkoutStep(extra: Record<string, string> = {}): string {
  const lines = Object.entries(extra).map(([key, value]) => `          ${key}: ${value}\n`);
  return `      - uses: ${usesLine(ACTION_PINS.checkout)}\n        with:\n${lines.join('')}          persist-credentials: false\n`;
}

/** The setup-node step (Node 22, which Syllabus needs), with npm's cache when there is a lockfile. */
export function setupNodeStep(invocation: SyllabusInvocation): string {
  return `      - uses: ${usesLine(ACTION_PINS.setupNode)}\n${invocation.setupNodeWith}`;
}
