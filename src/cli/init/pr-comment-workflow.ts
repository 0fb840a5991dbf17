/**
 * `.github/workflows/knowledge-pr-comment.yml`: posts the knowledge diff of a finished knowledge-pr
 * run as one comment on its pull request. It holds a token that can write to pull requests, so it
 * never checks out or runs the pull request's code: it reads the run's artifacts as bounded data.
 */
import { PACKAGE_NAME } from '../../build/package-info.ts';
import { ACTION_PINS, usesLine } from './action-pins.ts';
import { PR_WORKFLOW_NAME } from './pr-workflow.ts';
import { gh } from './workflow-steps.ts';

/** The comment workflow's file, relative to the repository root. */
export const PR_COMMENT_WORKFLOW = '.github/workflows/knowledge-pr-comment.yml';

/**
 * The comment workflow. The preview it links to is served with `npx syllabus-kb preview`, which
 * works for a reviewer without a checkout of the repository.
 */
export function renderPrCommentWorkflow(): string {
  return `# Posts the knowledge diff of a finished knowledge-pr run as one comment on its pull request, and
# updates that comment on later runs.
#
# This workflow holds a token that can write to pull requests, so it never checks out or runs the
# pull request's code. Everything in the artifacts was written by code the pull request controls:
# it is read from files as data, never put into a command or a script, and the pull request
# number is used only after it matches the run that GitHub reports (same head commit and branch).
# A workflow_run workflow runs from the default branch: this file takes effect once merged there.
name: knowledge-pr-comment

on:
  workflow_run:
    workflows: [${PR_WORKFLOW_NAME}]
    types: [completed]

permissions: {}

jobs:
  comment:
    if: github.event.workflow_run.event == 'pull_request'
    runs-on: ubuntu-latest
    timeout-minutes: 5
    permissions:
      actions: read # download the run's artifacts
      pull-requests: write # post the comment
    steps:
      # A run that stopped before the diff has no artifact: then there is nothing to post.
      - id: download
        continue-on-error: true
        uses: ${usesLine(ACTION_PINS.downloadArtifact)}
        with:
          name: knowledge-diff
          path: ${gh('runner.temp')}/knowledge-diff
          run-id: ${gh('github.event.workflow_run.id')}
          github-token: ${gh('github.token')}

      - if: steps.download.outcome == 'success'
        uses: ${usesLine(ACTION_PINS.githubScript)}
        env:
          ARTIFACT_DIR: ${gh('runner.temp')}/knowledge-diff
        with:
          script: |
            const fs = require('node:fs');
            const path = require('node:path');
            const MARKER = '<!-- syllabus-diff -->';
            // GitHub refuses comments over 65,536 characters; leave room for the frame.
            const MAX_DIFF_CHARS = 60000;
            const run = context.payload.workflow_run;
            const { owner, repo } = context.repo;

            // An artifact file as text: a regular file (not a link) of bounded size, else undefined.
            function readArtifactFile(name, maxBytes) {
              const file = path.join(process.env.ARTIFACT_DIR, name);
              let stat;
              try {
                stat = fs.lstatSync(file);
              } catch {
                return undefined;
              }
              if (!stat.isFile() || stat.size > maxBytes) {
                core.warning(\`Ignoring \${name} in the artifact: not a regular file of at most \${maxBytes} bytes.\`);
                return undefined;
              }
              return fs.readFileSync(file, 'utf8');
            }

            // Cuts markdown at a line end, closing a fenced block left open.
            function truncateMarkdown(text, limit) {
              if (text.length <= limit) return text;
              const lines = text.slice(0, limit).split('\\n').slice(0, -1);
              let fence = null;
              for (const line of lines) {
                const match = /^\\s{0,3}(\`{3,}|~{3,})/.exec(line);
                if (!match) continue;
                if (fence === null) fence = match[1];
                else if (match[1][0] === fence[0] && match[1].length >= fence.length) fence = null;
              }
              return \`\${lines.join('\\n')}\${fence === null ? '' : \`\\n\${fence}\`}\\n\\n_The diff is longer than a comment can hold: the full diff is in the run's \\\`knowledge-diff\\\` artifact._\`;
            }

            const number = (readArtifactFile('pr-number', 32) ?? '').trim();
            if (!/^[0-9]{1,10}$/.test(number)) {
              core.setFailed('The artifact holds no valid pull request number; nothing was posted.');
              return;
            }
            const { data: pr } = await github.rest.pulls.get({ owner, repo, pull_number: Number(number) });
            const sameRun = pr.head.sha === run.head_sha && pr.head.ref === run.head_branch && pr.head.repo?.full_name === run.head_repository?.full_name;
            if (!sameRun) {
              core.notice(\`Pull request #\${pr.number} is not the one this run built (or it has new commits since): nothing was posted.\`);
              return;
            }
            if (pr.state !== 'open') {
              core.notice(\`Pull request #\${pr.number} is \${pr.state}: nothing was posted.\`);
              return;
            }

            const diff = readArtifactFile('diff.md', 4 * 1024 * 1024);
            let equal = false;
            try {
              equal = JSON.parse(readArtifactFile('diff.json', 16 * 1024 * 1024) ?? '{}').equal === true;
            } catch {
              core.warning('diff.json in the artifact is not JSON.');
            }
            const { data: artifacts } = await github.rest.actions.listWorkflowRunArtifacts({ owner, repo, run_id: run.id, name: 'knowledge-preview' });
            const preview = artifacts.artifacts.find((a) => a.name === 'knowledge-preview' && !a.expired);
            const previewLine = preview
              ? \`**Preview:** [download the built site](\${run.html_url}/artifacts/\${preview.id}), unzip it, run \\\`npx ${PACKAGE_NAME} preview --out <folder>\\\` and open \\\`/changes/\\\`.\`
              : \`**Preview:** none; the site did not build (see [the run](\${run.html_url})).\`;
            const body = [
              MARKER,
              diff === undefined ? \`## Knowledge diff\\n\\n_No diff was produced; see [the run](\${run.html_url})._\` : truncateMarkdown(diff.trim(), MAX_DIFF_CHARS),
              '',
              '---',
              previewLine,
              \`Built from \${run.head_sha.slice(0, 7)} by [knowledge-pr run \${run.run_number}](\${run.html_url}); \\\`check\\\` annotations are on the run's "check" job.\`,
            ].join('\\n');

            const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number: pr.number, per_page: 100 });
            const existing = comments.find((c) => c.user?.login === 'github-actions[bot]' && c.body?.startsWith(MARKER));
            // A pull request that changes no knowledge gets no new comment; an earlier one is updated.
            if (existing) {
              await github.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
              core.info(\`Updated comment \${existing.html_url}\`);
            } else if (equal) {
              core.info('The knowledge is unchanged: no comment was posted.');
            } else {
              const { data: created } = await github.rest.issues.createComment({ owner, repo, issue_number: pr.number, body });
              core.info(\`Posted comment \${created.html_url}\`);
            }
`;
}
