/** What `syllabus init` sets up, decided once from the command line and the repository. */
import { PACKAGE_NAME } from '../../build/package-info.ts';

/** The inputs every generated file is rendered from. */
export interface InitSettings {
  /** The knowledge base's folder relative to the repository root, with `/` separators; `.` for the root itself. */
  folder: string;
  /** The site's title: the repository folder's name, made readable. */
  title: string;
  /** The version of Syllabus that runs `init` (pinned in workflows of repositories without package.json). */
  version: string;
  /** Whether the repository has a package.json (Syllabus is then installed with npm, not fetched by npx). */
  packageJson: boolean;
}

/** The folder `init` writes the knowledge base into when none is given. */
export const DEFAULT_FOLDER = 'content';

/** The first topic: its id, its folder (beside kb.toml) and its starter subject's file. */
export const STARTER_TOPIC = { id: 'project', folder: 'project', subject: 'adding-knowledge' } as const;

/** A path below the knowledge base's folder, relative to the repository root: `content/kb.toml`. */
export function inFolder(settings: Pick<InitSettings, 'folder'>, relative: string): string {
  return settings.folder === '.' ? relative : `${settings.folder}/${relative}`;
}

/** The config file's path relative to the repository root. */
export function configFile(settings: Pick<InitSettings, 'folder'>): string {
  return inFolder(settings, 'kb.toml');
}

/** ` --config <path>` when the config is not at the commands' default (`content/kb.toml`), else `''`. */
export function configFlag(settings: Pick<InitSettings, 'folder'>): string {
  return settings.folder === DEFAULT_FOLDER ? '' : ` --config ${configFile(settings)}`;
}

/**
 * A `syllabus` command as someone in the repository types it: `npx syllabus check`, with
 * `--config` when the knowledge base is not in `content/`.
 */
export function localCommand(settings: Pick<InitSettings, 'folder'>, command: string): string {
  return `npx syllabus ${command}${configFlag(settings)}`;
}

/** `npm install -D syllabus-kb`: how a repository adds Syllabus. */
export const INSTALL_COMMAND = `npm install -D ${PACKAGE_NAME}`;

/**
 * A folder name made readable as a title: words split at `-`, `_`, `.` and spaces, each with a
 * capital first letter (`acme-api` → `Acme Api`); `Knowledge` when nothing is left.
 */
export function readableTitle(folderName: string): string {
  const words = folderName.split(/[-_.\s]+/).filter((w) => w !== '');
  if (words.length === 0) return 'Knowledge';
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}
