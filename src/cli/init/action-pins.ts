/**
 * The GitHub Actions the generated workflows use, each pinned to the full commit SHA of one
 * release tag. A tag can be moved to other code; a commit cannot. Each SHA was checked against at
 * least two unrelated public repositories that pin the same SHA to the same tag. Dependabot
 * (`.github/dependabot.yml`) proposes updates, keeping the tag comment in step with the SHA.
 */

/** An action at one release: `uses: <name>@<sha> # <tag>`. */
export interface ActionPin {
  name: string;
  sha: string;
  tag: string;
}

/** Every action the generated workflows use. */
export const ACTION_PINS = {
  checkout: { name: 'actions/checkout', sha: '08c6903cd8c0fde910a37f88322edcfb5dd907a8', tag: 'v5.0.0' },
  setupNode: { name: 'actions/setup-node', sha: 'a0853c24544627f65ddf259abe73b1d18a591444', tag: 'v5.0.0' },
  cache: { name: 'actions/cache', sha: '9255dc7a253b0ccc959486e2bca901246202afeb', tag: 'v5.0.1' },
  uploadArtifact: { name: 'actions/upload-artifact', sha: '330a01c490aca151604b8cf639adc76d48f6c5d4', tag: 'v5.0.0' },
  downloadArtifact: { name: 'actions/download-artifact', sha: '634f93cb2916e3fdff6788551b99b062d0335ce0', tag: 'v5.0.0' },
  githubScript: { name: 'actions/github-script', sha: 'ed597411d8f924073f98dfc5c65a23a2325f34cd', tag: 'v8.0.0' },
  configurePages: { name: 'actions/configure-pages', sha: '983d7736d9b0ae728b81ab479565c72886d7745b', tag: 'v5.0.0' },
  uploadPagesArtifact: { name: 'actions/upload-pages-artifact', sha: '7b1f4a764d45c48632c6b24a0339c27f5614fb0b', tag: 'v4.0.0' },
  deployPages: { name: 'actions/deploy-pages', sha: 'd6db90164ac5ed86f2b6aed7e0febac5b3c0c03e', tag: 'v4.0.5' },
} as const satisfies Record<string, ActionPin>;

/** The value of a step's `uses:` key, with the tag as a comment: `actions/checkout@<sha> # v5.0.0`. */
export function usesLine(pin: ActionPin): string {
  return `${pin.name}@${pin.sha} # ${pin.tag}`;
}
