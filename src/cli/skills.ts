/**
 * `syllabus skills`: the Agent Skills of the knowledge base, as the site's discovery index
 * publishes them, and `skills export <topic> --out DIR`, which writes a topic's skills as skill
 * folders (content/reference/cli/skills.md). Files are copied as bytes: nothing is ever run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildCatalog } from '../kb/catalog/catalog.ts';
import { type AgentSkill, listAgentSkills } from '../kb/publish/agent-skills.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { configForCommand, openForCommand, warnContentErrors } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const SKILLS_HELP = `Usage: syllabus skills [--json] [--config PATH…]
       syllabus skills export <topic> --out DIR [--config PATH…]

Lists the Agent Skills of the knowledge base: every visible folder whose SKILL.md has a name and
a description in its front matter, as /.well-known/agent-skills/index.json publishes them. One
line per skill:

  - <name> (<topic>/<folder>, <N> files): <description>

"skills export" writes each skill of a topic to DIR/<name>/: its SKILL.md and its other listed
files, byte for byte (hidden and disabled files never). Nothing is run, and no file is made
executable. A skill folder that already exists in DIR is an error: remove it, or export elsewhere.

Options:
      --json              print the skills as JSON: name, description, topic, folder, files
  -o, --out DIR           where "export" writes the skill folders (required)
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -h, --help              show this help

Exit codes: 0 success, 1 a topic without skills or a skill folder that exists, 2 usage or
configuration error (an unknown topic included).`;

/** Runs `skills`; returns the exit code. */
export async function skillsCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, json: { type: 'boolean' }, out: { type: 'string', short: 'o' } }, 'skills');
  if (values.help) {
    io.out(SKILLS_HELP);
    return 0;
  }
  const [action, ...rest] = positionals;
  if (action !== undefined && action !== 'export') throw usageError(`Unknown skills action ${JSON.stringify(action)}: the only one is "export".`, 'skills');
  if (action === undefined && values.out !== undefined) throw usageError('--out belongs to "skills export <topic> --out DIR".', 'skills');
  if (action === 'export') {
    if (rest.length !== 1) throw usageError('skills export takes one topic: syllabus skills export <topic> --out DIR.', 'skills');
    if (values.out === undefined) throw usageError('skills export needs --out DIR: the folder to write the skill folders to.', 'skills');
    if (values.json) throw usageError('--json belongs to "skills" alone; export writes files.', 'skills');
  }

  const config = await configForCommand(values.config, io);
  const kb = openForCommand(config, io);
  const { catalog } = await buildCatalog(kb);
  warnContentErrors(kb, io);
  const skills = listAgentSkills(catalog);
  if (action === 'export')
    return exportSkills(
      skills,
      rest[0]!,
      path.resolve(io.cwd, values.out!),
      catalog.topics.map((t) => t.id),
      io,
    );

  if (values.json) {
    io.out(
      JSON.stringify(
        skills.map((skill) => ({ ...describe(skill), files: skill.files.map((f) => f.path) })),
        null,
        2,
      ),
    );
  } else {
    io.out(skills.map((skill) => `- ${skill.name} (${place(skill)}, ${skill.files.length} ${skill.files.length === 1 ? 'file' : 'files'}): ${skill.description}`).join('\n'));
  }
  return 0;
}

/** Writes the skills of `topic` below `out`, one folder per skill named by its name. */
function exportSkills(skills: readonly AgentSkill[], topic: string, out: string, topics: readonly string[], io: CommandIo): number {
  if (!topics.includes(topic)) {
    throw usageError(`Unknown topic ${JSON.stringify(topic)}. Valid topics: ${topics.length > 0 ? topics.join(', ') : '(none)'}.`, 'skills');
  }
  const chosen = skills.filter((skill) => skill.topic === topic);
  if (chosen.length === 0) {
    throw new CliError(`Topic ${JSON.stringify(topic)} has no skills: no visible folder of it holds a SKILL.md with a name and a description. Run "syllabus check" for why.`, 1);
  }
  const existing = chosen.filter((skill) => fs.existsSync(path.join(out, skill.name)));
  if (existing.length > 0) {
    throw new CliError(`${path.join(out, existing[0]!.name)} already exists. Remove it, or export to another --out folder.`, 1);
  }
  let count = 0;
  for (const skill of chosen) {
    for (const file of skill.files) {
      const target = path.join(out, skill.name, ...file.path.split('/'));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // Copied as data: mode 0644 whatever the source's, so nothing exported is executable.
      fs.writeFileSync(target, fs.readFileSync(file.subject.file), { mode: 0o644 });
      count += 1;
    }
  }
  io.err(`Wrote ${chosen.length} ${chosen.length === 1 ? 'skill' : 'skills'} (${count} files) to ${path.relative(io.cwd, out) || '.'}/`);
  return 0;
}

function describe(skill: AgentSkill): { name: string; description: string; topic: string; folder: string } {
  return { name: skill.name, description: skill.description, topic: skill.topic, folder: skill.folder };
}

/** Where a skill lives: `topic/folder`, or the topic alone for a skill at its top. */
function place(skill: AgentSkill): string {
  return skill.folder === '' ? skill.topic : `${skill.topic}/${skill.folder}`;
}
