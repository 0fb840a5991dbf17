/** The `kb.toml` that `init` writes: a small config a team edits, each key explained in a comment. */
import path from 'node:path';
import { PACKAGE_NAME } from '../../build/package-info.ts';
import { CONFIG_SCHEMA_FILE } from '../../kb/config/published-schema.ts';
import { STARTER_TOPIC, inFolder, localCommand, type InitSettings } from './settings.ts';

/**
 * The command that shows every config key from Syllabus's own guide, which its package ships:
 * the repository's own kb.toml has no `reference` topic.
 */
export function configurationReferenceCommand(): string {
  return `npx syllabus learn reference configuration --config node_modules/${PACKAGE_NAME}/content/kb.toml`;
}

/**
 * The JSON Schema that the `#:schema` line of `kb.toml` names, for TOML editors (Taplo, Even
 * Better TOML), which read a path relative to the file. With a package.json it is the installed
 * package's: offline, and of the version installed. Without one, Syllabus is not installed, so
 * it is the address of the same file of this version on the jsDelivr CDN, the version that npx
 * runs in this repository's workflows.
 */
export function configSchemaReference(settings: Pick<InitSettings, 'folder' | 'packageJson' | 'version'>): string {
  if (!settings.packageJson) return `https://cdn.jsdelivr.net/npm/${PACKAGE_NAME}@${settings.version}/${CONFIG_SCHEMA_FILE}`;
  const fromConfig = path.posix.relative(path.posix.dirname(inFolder(settings, 'kb.toml')), `node_modules/${PACKAGE_NAME}/${CONFIG_SCHEMA_FILE}`);
  return fromConfig.startsWith('../') ? fromConfig : `./${fromConfig}`;
}

/** The config file: `[site]` with the title, and the first topic with commented examples. */
export function renderKbToml(settings: InitSettings): string {
  const topic = STARTER_TOPIC;
  return `#:schema ${configSchemaReference(settings)}

# The knowledge base of this repository, built by Syllabus into a site for people and
# endpoints for AI agents. Topics are folders beside this file; subjects are the files in them.
# Check it after every change: ${localCommand(settings, 'check')}
# Every key, its default and an example, from Syllabus's own guide:
#   ${configurationReferenceCommand()}
# Editors with a TOML language server (Even Better TOML, Taplo) check and complete the keys
# with the schema that the first line names.

[site]
# Site title: the header, the home page and the llms.txt heading.
title = ${tomlString(settings.title)}
# Public address of the site; without it links stay relative and no sitemap is written.
# url = "https://kb.example.com/"

# One table per topic; its key ("${topic.id}") is the topic id agents pass to learn.
[kb.topic.${topic.id}]
# Display name, shown instead of the id.
title = "Project Knowledge"
# One line after the topic in the <knowledge> list agents get in their system prompt.
introduction = "How this project works and how we work on it: conventions, decisions and how-tos."
# The topic's folder, relative to this file.
subjects = "${topic.folder}"
# Subjects (slugs or globs) pre-loaded into the <knowledge> section, so agents need not learn them.
# learned = ["${topic.subject}"]
# Subjects (slugs or globs) left out of everything: site, endpoints and agents. For drafts.
# disabled = ["drafts/**"]
`;
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(value: string): string {
  const escaped = value.replace(/["\\\u0000-\u001f\u007f]/g, (c) => {
    const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `"${escaped}"`;
}
