/** `.github/dependabot.yml`: weekly pull requests that update the pinned actions (and npm packages). */
import type { InitSettings } from './settings.ts';

/** Dependabot's config file, relative to the repository root. */
export const DEPENDABOT_CONFIG = '.github/dependabot.yml';

/**
 * The Dependabot config: the workflows' actions, which are pinned by commit (Dependabot updates
 * the SHA and its tag comment together), and with a package.json its npm packages, syllabus-kb
 * among them.
 */
export function renderDependabot(settings: InitSettings): string {
  const npm = settings.packageJson
    ? `
  # The packages of package.json, syllabus-kb among them.
  - package-ecosystem: npm
    directory: /
    schedule:
      interval: weekly
`
    : '';
  return `# Weekly pull requests that keep dependencies up to date (Settings → Code security → Dependabot).
version: 2
updates:
  # The actions of .github/workflows, pinned by commit: the SHA and its tag comment move together.
  - package-ecosystem: github-actions
    directory: /
    schedule:
      interval: weekly
${npm}`;
}
