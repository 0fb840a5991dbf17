/**
 * The failure of a build that the team can act on: the configuration or the content is wrong, or a
 * stage could not finish (the page build, the search index). Hosts show its message and details.
 */
export class BuildError extends Error {
  /** What failed: the configuration (fix kb.toml), the content (fix the subjects), or a stage. */
  readonly kind: 'config' | 'content' | 'stage';
  /** Lines that say more (each error with its file and line), shown after the message. */
  readonly details: readonly string[];

  constructor(message: string, details: readonly string[] = [], kind: 'config' | 'content' | 'stage' = 'stage') {
    super(message);
    this.name = 'BuildError';
    this.kind = kind;
    this.details = details;
  }
}
