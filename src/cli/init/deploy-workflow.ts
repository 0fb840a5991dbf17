/** `.github/workflows/knowledge-deploy.yml`: builds the knowledge base on pushes to main and publishes it on GitHub Pages. */
import { ACTION_PINS, usesLine } from './action-pins.ts';
import { configFile, inFolder, type InitSettings } from './settings.ts';
import { checkoutStep, gh, setupNodeStep, syllabusInvocation } from './workflow-steps.ts';

/** The deploy workflow's file, relative to the repository root. */
export const DEPLOY_WORKFLOW = '.github/workflows/knowledge-deploy.yml';

/** The deploy workflow's \`name:\`, as the Actions tab shows it. */
export const DEPLOY_WORKFLOW_NAME = 'knowledge-deploy';

/** The deploy workflow. The job that can write to Pages runs nothing but actions/deploy-pages. */
export function renderDeployWorkflow(settings: InitSettings): string {
  const syllabus = syllabusInvocation(settings);
  const install = syllabus.install ? '\n      # Installs syllabus-kb at the version package-lock.json holds.\n      - run: npm ci\n' : '';
  // A new version of Syllabus may render differently: its cache starts afresh.
  const cacheScope = settings.packageJson ? gh("hashFiles('package-lock.json')") : settings.version;
  const sameTooling = settings.packageJson ? 'made with the same lockfile' : 'made by the same version of Syllabus';
  return `# Builds the knowledge base on every push to main and publishes it on GitHub Pages.
# Set up once: Settings → Pages → Build and deployment → Source: "GitHub Actions".
# Written by "syllabus init --github". If the default branch is not main, change it below.
name: ${DEPLOY_WORKFLOW_NAME}

on:
  push:
    branches: [main]
  workflow_dispatch:

# Write access is granted only to the deploy job, which runs no code from the repository.
permissions:
  contents: read

# One deployment at a time; a newer push waits instead of cancelling one half done.
concurrency:
  group: pages
  cancel-in-progress: false

env:
  # The knowledge base's config, relative to the repository root.
  KB_CONFIG: ${configFile(settings)}

jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    permissions:
      contents: read
      pages: read # configure-pages reads the site's address
    steps:
${checkoutStep()}
${setupNodeStep(syllabus)}${install}
      - id: pages
        uses: ${usesLine(ACTION_PINS.configurePages)}

      # The site is served at the Pages address (https://<owner>.github.io/<repo>/ or a custom
      # domain). \`build\` has no flag for it; \`--config\` is repeatable and later files merge over
      # earlier ones, so a two-line config file sets [site] url and base for this build only.
      - name: Point the site at its Pages address
        env:
          PAGES_ORIGIN: ${gh('steps.pages.outputs.origin')}
          PAGES_BASE_PATH: ${gh('steps.pages.outputs.base_path')}
        run: |
          origin_pattern='^https?://[A-Za-z0-9.-]+(:[0-9]+)?$'
          path_pattern='^/[A-Za-z0-9._~/-]*$'
          if [[ ! $PAGES_ORIGIN =~ $origin_pattern || ! $PAGES_BASE_PATH =~ $path_pattern ]]; then
            echo "::error::Unexpected GitHub Pages address: origin '$PAGES_ORIGIN', path '$PAGES_BASE_PATH'."
            exit 1
          fi
          printf '[site]\\nurl = "%s"\\nbase = "%s"\\n' "$PAGES_ORIGIN" "$PAGES_BASE_PATH" > "$RUNNER_TEMP/pages.toml"
          cat "$RUNNER_TEMP/pages.toml"

      # The build cache (.syllabus-cache/ beside kb.toml) keeps every subject's rendering, so
      # only changed subjects are rendered again. Each run saves a new entry; the newest one
      # ${sameTooling} is restored.
      - uses: ${usesLine(ACTION_PINS.cache)}
        with:
          path: ${inFolder(settings, '.syllabus-cache')}
          key: syllabus-build-${gh('runner.os')}-${cacheScope}-${gh('github.sha')}
          restore-keys: |
            syllabus-build-${gh('runner.os')}-${cacheScope}-

      # The Pages config comes second: it overrides [site] url and base of kb.toml.
      - run: ${syllabus.command} build --config "$KB_CONFIG" --config "$RUNNER_TEMP/pages.toml"

      - uses: ${usesLine(ACTION_PINS.uploadPagesArtifact)}
        with:
          path: dist

  deploy:
    needs: build
    runs-on: ubuntu-latest
    timeout-minutes: 10
    permissions:
      pages: write
      id-token: write
    environment:
      name: github-pages
      url: ${gh('steps.deployment.outputs.page_url')}
    steps:
      - id: deployment
        uses: ${usesLine(ACTION_PINS.deployPages)}
`;
}
