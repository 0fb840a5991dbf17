/** The first topic's starter subject: how a team adds knowledge, and the commands to run. */
import { STARTER_TOPIC, localCommand, type InitSettings } from './settings.ts';

/** The starter subject's markdown, with a front matter `description` (its summary in the indexes). */
export function renderStarterSubject(settings: InitSettings): string {
  const topic = STARTER_TOPIC.id;
  const run = (command: string): string => `\`${localCommand(settings, command)}\``;
  return `---
description: How to add knowledge to this knowledge base, what hidden and disabled subjects are, and the commands that check, serve and build it.
---

# Adding knowledge

This knowledge base is plain files in git. Syllabus builds them into a site for people and into
endpoints for AI agents, which read the same files: the \`learn\` tool, and a \`<knowledge>\`
section for their system prompt.

## Topics and subjects

- A **topic** is a folder that \`kb.toml\` names in a \`[kb.topic.<id>]\` table. This topic's id
  is \`${topic}\`.
- A **subject** is a file in a topic's folder: markdown, plain text, or config and code
  (\`.toml\`, \`.json\`, \`.py\`, …). Its slug is its path without the extension:
  \`runbooks/deploy.md\` is \`runbooks/deploy\`.
- **To add a subject**, add a file. Start markdown with a \`# Title\`, then one paragraph that
  says what the subject covers and when to read it: agents see it as the subject's summary
  (a front matter \`description\`, as in this file, is used instead when there is one).
- **To add a topic**, add a folder beside \`kb.toml\` and a \`[kb.topic.<id>]\` table with its
  \`subjects\` folder, \`title\` and one-line \`introduction\`.

## Hidden and disabled subjects

- A file or folder whose name starts with \`.\` is **hidden**: no listing shows it, but an agent
  that knows its exact slug, for example because a listed subject mentions it, can load it. Use
  it for details that would crowd the listings.
- A subject that matches the topic's \`disabled\` patterns in \`kb.toml\` is **disabled**: it is
  in no output at all, neither the site nor the agents' endpoints. Use it for drafts.

## Commands

Run them at the root of the repository:

| Command | Does |
| --- | --- |
| ${run('check')} | Reports every problem with its file and line. Run it before you commit. |
| ${run('dev')} | Serves the site at http://127.0.0.1:4321/ while you write. |
| ${run('build')} | Builds the site and the agents' endpoints into \`dist/\`. |
| ${run(`learn ${topic}`)} | Lists this topic's subjects as an agent sees them; add a slug to load one. |
`;
}
