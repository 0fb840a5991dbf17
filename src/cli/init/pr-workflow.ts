/** `.github/workflows/knowledge-pr.yml`: check, diff and a preview build of each pull request, read-only. */
import { ACTION_PINS, usesLine } from './action-pins.ts';
import { configFile, type InitSettings } from './settings.ts';
import { checkoutStep, gh, setupNodeStep, syllabusInvocation } from './workflow-steps.ts';

/** The pull request workflow's file, relative to the repository root. */
export const PR_WORKFLOW = '.github/workflows/knowledge-pr.yml';

/** The `name:` of the pull request workflow, which the comment workflow follows. */
export const PR_WORKFLOW_NAME = 'knowledge-pr';

/**
 * The pull request workflow. It runs the pull request's code, so its token is read-only, it reads
 * no secret and publishes nothing: the comment workflow posts from its artifacts.
 */
export function renderPrWorkflow(settings: InitSettings): string {
  const check = syllabusInvocation(settings);
  const preview = syllabusInvocation(settings, { cacheDependencyPath: 'head/package-lock.json' });
  const syllabus = check.command;
  const checkInstall = check.install ? '\n      - run: npm ci\n' : '';
  const previewInstall = preview.install
    ? `
      # Both sides are read and built with the head's syllabus-kb: one install, the same rules on
      # both sides (so the diff shows knowledge changes, not rendering changes), and it works when
      # the base predates \`diff\` or \`build --base\`. The base checkout only provides its files.
      - run: npm ci
        working-directory: head
`
    : '';
  return `# Reviews a pull request's knowledge changes: \`check\` annotations on the diff, the knowledge diff
# (\`syllabus diff\`) and a preview site with a /changes/ page, kept as artifacts of the run.
#
# This workflow runs the pull request's own code (its package.json, its tooling, even this file as
# the pull request changed it), forks included. So its token is read-only, it reads no secrets,
# and it publishes nothing itself: knowledge-pr-comment.yml, which never runs the pull request's
# code, posts the diff from the artifacts.
name: ${PR_WORKFLOW_NAME}

on:
  pull_request:

permissions:
  contents: read

# A newer push to the same pull request replaces the run in progress.
concurrency:
  group: knowledge-pr-${gh('github.event.pull_request.number')}
  cancel-in-progress: true

env:
  # The knowledge base's config, relative to the repository root.
  KB_CONFIG: ${configFile(settings)}
  # "true": fail the preview job when a question of the question set ([eval] questions in
  # kb.toml) regresses: leaves the top 3 of find, or is no longer found. The comment shows it
  # either way.
  FAIL_ON_EVAL_REGRESSION: "false"

jobs:
  check:
    runs-on: ubuntu-latest
    timeout-minutes: 15
    steps:
${checkoutStep()}
${setupNodeStep(check)}${checkInstall}
      # Each diagnostic becomes an annotation on the changed file and line; content errors fail
      # the job (add --strict to fail on warnings too).
      - run: ${syllabus} check --config "$KB_CONFIG" --format github

  preview:
    runs-on: ubuntu-latest
    timeout-minutes: 30
    steps:
      # The head is the merge commit GitHub made for this event (the checkout's default on
      # pull_request): what main will hold once the pull request is merged, so that comparing it
      # with the base shows the pull request's own changes even when its branch is behind.
${checkoutStep({ path: 'head' })}
${checkoutStep({ ref: gh('github.event.pull_request.base.sha'), path: 'base' })}
${setupNodeStep(preview)}${previewInstall}
      # The pull request that adds the knowledge base finds none on its base: it is compared with
      # an empty config instead, so that everything shows as added.
      - name: Find the base's config
        id: base
        run: |
          if [[ -f "base/$KB_CONFIG" ]]; then
            echo "config=../base/$KB_CONFIG" >> "$GITHUB_OUTPUT"
          else
            : > "$RUNNER_TEMP/empty-kb.toml"
            echo "config=$RUNNER_TEMP/empty-kb.toml" >> "$GITHUB_OUTPUT"
          fi

      # The pull request number travels in a file: the comment workflow trusts nothing else
      # from this run, and checks even this against the run's own metadata.
      - name: Record the pull request number
        env:
          PR_NUMBER: ${gh('github.event.pull_request.number')}
        run: |
          mkdir -p review
          printf '%s\\n' "$PR_NUMBER" > review/pr-number

      # Sources on both sides: the diff sees hidden and disabled subjects too.
      - name: Diff the knowledge
        working-directory: head
        env:
          BASE_CONFIG: ${gh('steps.base.outputs.config')}
        run: |
          ${syllabus} diff "$BASE_CONFIG" "$KB_CONFIG" > ../review/diff.md
          ${syllabus} diff "$BASE_CONFIG" "$KB_CONFIG" --json > ../review/diff.json

      - uses: ${usesLine(ACTION_PINS.uploadArtifact)}
        with:
          name: knowledge-diff
          path: review
          retention-days: 14

      - name: Build the base
        working-directory: head
        env:
          BASE_CONFIG: ${gh('steps.base.outputs.config')}
        run: ${syllabus} build --config "$BASE_CONFIG" --out ../site-base

      # Against the base as published: the /changes/ page shows listed subjects only.
      - name: Build the preview
        working-directory: head
        run: ${syllabus} build --config "$KB_CONFIG" --out ../site-preview --base ../site-base

      - uses: ${usesLine(ACTION_PINS.uploadArtifact)}
        with:
          name: knowledge-preview
          path: site-preview
          retention-days: 14

      # Last, so that the diff and the preview are kept when it fails.
      - name: Fail on a question that regressed
        if: env.FAIL_ON_EVAL_REGRESSION == 'true'
        working-directory: head
        env:
          BASE_CONFIG: ${gh('steps.base.outputs.config')}
        run: ${syllabus} diff "$BASE_CONFIG" "$KB_CONFIG" --fail-on-regression > /dev/null
`;
}
