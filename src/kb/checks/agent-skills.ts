/**
 * Agent Skills (`check`, content/reference/cli/check.md, "Agent Skills"): a folder holding a
 * `SKILL.md` is a skill, and its front matter follows the rules of the Agent Skills format
 * (agentskills.io): a `name` that is its folder's name, a `description`, and bounded lengths.
 */
import path from 'node:path';
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import { readFrontMatter } from '../catalog/title.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';
import { frontMatterLineCount, isCheckedMarkdown } from './markdown-facts.ts';

/** The file that makes its folder a skill. */
export const SKILL_FILE = 'SKILL.md';

/** Longest `name` the format allows, in characters. */
export const SKILL_NAME_MAX = 64;

/** Longest `description` the format allows, in characters. */
export const SKILL_DESCRIPTION_MAX = 1024;

/** Longest `compatibility` the format allows, in characters. */
export const SKILL_COMPATIBILITY_MAX = 500;

/** Whether a subject is a skill's `SKILL.md`. */
export function isSkillFile(subject: Pick<CatalogSubject, 'path'>): boolean {
  return subject.path === SKILL_FILE || subject.path.endsWith(`/${SKILL_FILE}`);
}

/**
 * The warnings of every skill whose front matter (valid YAML) breaks the Agent Skills rules: `skill-name`
 * (missing, not text, too long, characters), `skill-name-mismatch` (not the folder's name),
 * `skill-description` (missing, too long) and `skill-compatibility` (too long).
 */
export function checkAgentSkills(catalog: Catalog): Diagnostic[] {
  // Needs the front matter parser, which building the catalog loaded.
  const diagnostics: Diagnostic[] = [];
  for (const topic of catalog.topics) {
    for (const subject of topic.subjects) {
      if (!isCheckedMarkdown(subject) || subject.learning !== null || !isSkillFile(subject)) continue;
      // Broken YAML is reported once, as front-matter: its keys are unread, not missing.
      if (readFrontMatter(subject.content).error) continue;
      const folder = path.basename(path.dirname(subject.file));
      for (const { code, key, message } of skillProblems(subject.frontMatter, folder)) {
        diagnostics.push({ kind: 'warning', code, message, file: subject.file, line: keyLine(subject.content, key) });
      }
    }
  }
  return diagnostics;
}

/** One broken rule of a skill's front matter. */
interface SkillProblem {
  code: 'skill-name' | 'skill-name-mismatch' | 'skill-description' | 'skill-compatibility';
  /** The front matter key it is about. */
  key: string;
  message: string;
}

/** What breaks the Agent Skills rules in the front matter of the skill in `folder`. */
export function skillProblems(frontMatter: Readonly<Record<string, unknown>>, folder: string): SkillProblem[] {
  const problems: SkillProblem[] = [];
  const name = frontMatter['name'];
  if (typeof name !== 'string' || name.trim() === '') {
    const written = name === undefined ? 'has no name' : `has a name that is not text (${JSON.stringify(name) ?? typeof name})`;
    problems.push({
      code: 'skill-name',
      key: 'name',
      message: `This skill ${written}: agents find a skill by its name. Add name: ${JSON.stringify(folder)} (the folder's name) to the front matter.`,
    });
  } else {
    const invalid = nameProblem(name);
    if (invalid) problems.push({ code: 'skill-name', key: 'name', message: `The skill name ${JSON.stringify(name)} ${invalid}. Rename it, and its folder, to match.` });
    if (name.normalize('NFKC') !== folder.normalize('NFKC')) {
      problems.push({
        code: 'skill-name-mismatch',
        key: 'name',
        message: `The skill name ${JSON.stringify(name)} is not its folder's name ${JSON.stringify(folder)}: agents load a skill by its folder. Rename the folder or the name so that they match.`,
      });
    }
  }
  const description = frontMatter['description'];
  if (typeof description !== 'string' || description.trim() === '') {
    problems.push({
      code: 'skill-description',
      key: 'description',
      message: 'This skill has no description: agents choose a skill by what its description says it does and when to use it. Add description: "…" to the front matter.',
    });
  } else if ([...description].length > SKILL_DESCRIPTION_MAX) {
    problems.push({
      code: 'skill-description',
      key: 'description',
      message: `The skill description has ${[...description].length} characters, over the ${SKILL_DESCRIPTION_MAX} the Agent Skills format allows. Shorten it; move the details into the body.`,
    });
  }
  const compatibility = frontMatter['compatibility'];
  if (typeof compatibility === 'string' && [...compatibility].length > SKILL_COMPATIBILITY_MAX) {
    problems.push({
      code: 'skill-compatibility',
      key: 'compatibility',
      message: `The skill compatibility has ${[...compatibility].length} characters, over the ${SKILL_COMPATIBILITY_MAX} the Agent Skills format allows. Say only what the skill needs to run; move the rest into the body.`,
    });
  }
  return problems;
}

/** Why a skill name breaks the format's rules, or `undefined` when it keeps them. */
function nameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (length > SKILL_NAME_MAX) return `has ${length} characters, over the ${SKILL_NAME_MAX} the Agent Skills format allows`;
  if (name !== name.toLowerCase() || !/^[\p{L}\p{N}-]+$/u.test(name)) return 'may hold only lowercase letters, digits and hyphens';
  if (name.startsWith('-') || name.endsWith('-')) return 'may not start or end with a hyphen';
  if (name.includes('--')) return 'may not hold two hyphens in a row';
  return undefined;
}

/** The line of a front matter key in a markdown text (1 when it is not written there). */
function keyLine(content: string, key: string): number {
  const lines = content.split('\n').slice(0, frontMatterLineCount(content));
  const index = lines.findIndex((line) => line.startsWith(`${key}:`));
  return index === -1 ? 1 : index + 1;
}
