/**
 * Agent Skills discovery (content/agents/agent-skills.md): the skills of a knowledge base — each
 * visible folder whose `SKILL.md` has a `name` and a `description` — and what the site publishes
 * for them: one artifact per skill (its `SKILL.md` alone, or a `.tar.gz` of its listed files) and
 * `/.well-known/agent-skills/index.json` in the discovery format's 0.2.0 schema, each artifact
 * with its `sha256:` digest. Hidden and disabled files are never part of a skill.
 */
import { createHash } from 'node:crypto';
import type { Catalog, CatalogSubject } from '../catalog/catalog.ts';
import { isSkillFile, SKILL_FILE, skillProblems } from '../checks/agent-skills.ts';
import { compareStrings } from '../diagnostics/diagnostics.ts';
import { createTarGz, fitsTarPath } from './tar-gz.ts';

/** The `$schema` of the discovery index this site publishes. */
export const SKILLS_DISCOVERY_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json';

/** The folder of the discovery files, below the site's base. */
export const SKILLS_FOLDER = '.well-known/agent-skills';

/** One skill of the knowledge base. */
export interface AgentSkill {
  /** Its front matter `name`: the name agents know it by, and its artifact's name. */
  name: string;
  /** Its front matter `description` (trimmed). */
  description: string;
  topic: string;
  /** Its folder, relative to the topic's folder (`''` when `SKILL.md` is at the topic's top). */
  folder: string;
  /** Its files, `SKILL.md` first, then by path; `path` is relative to the skill's folder. */
  files: { path: string; subject: CatalogSubject }[];
}

/** A skill's published artifact. */
export interface SkillArtifact {
  type: 'skill-md' | 'archive';
  /** Its path below the site's base. */
  path: string;
  bytes: Uint8Array;
  /** `sha256:` and the hex SHA-256 of `bytes`. */
  digest: string;
}

/** The discovery index, as `/.well-known/agent-skills/index.json` holds it. */
export interface SkillsIndex {
  $schema: string;
  skills: { name: string; type: SkillArtifact['type']; description: string; url: string; digest: string }[];
}

/**
 * The skills of `catalog`, in topic order then by folder. A skill is a visible `SKILL.md` whose
 * front matter has a `name` that keeps the format's naming rules and a `description` (`check`
 * warns about the others, which are not published); its files are the listed ones of its folder
 * and below: no hidden or disabled file, no learning or URL source, no file skipped for its size,
 * no path an archive cannot hold. Of two skills with the same name, the first is kept.
 */
export function listAgentSkills(catalog: Catalog): AgentSkill[] {
  const skills: AgentSkill[] = [];
  const names = new Set<string>();
  for (const topic of catalog.topics) {
    const publishable = topic.subjects.filter((s) => !s.hidden && s.learning === null && s.source === null && s.skipped !== 'too-large' && s.skipped !== 'unreadable');
    const found: AgentSkill[] = [];
    for (const subject of publishable) {
      if (!isSkillFile(subject)) continue;
      const folder = subject.path.slice(0, -SKILL_FILE.length).replace(/\/$/, '');
      const leaf = folder.split('/').at(-1) ?? '';
      const broken = skillProblems(subject.frontMatter, leaf).some((p) => p.code === 'skill-name' || p.code === 'skill-description');
      if (broken) continue;
      const name = (subject.frontMatter['name'] as string).trim();
      const description = (subject.frontMatter['description'] as string).trim();
      if (names.has(name)) continue;
      names.add(name);
      const prefix = folder === '' ? '' : `${folder}/`;
      const files = publishable
        .filter((s) => s.path.startsWith(prefix) && s !== subject)
        .map((s) => ({ path: s.path.slice(prefix.length), subject: s }))
        .filter((f) => fitsTarPath(f.path))
        .sort((a, b) => compareStrings(a.path, b.path));
      found.push({ name, description, topic: topic.id, folder, files: [{ path: SKILL_FILE, subject }, ...files] });
    }
    skills.push(...found.sort((a, b) => compareStrings(a.folder, b.folder)));
  }
  return skills;
}

/**
 * A skill's artifact: its `SKILL.md` as stored when it is its only file, else a `.tar.gz` whose
 * root is the skill's folder. `read` gives a file's bytes as stored.
 */
export function makeSkillArtifact(skill: AgentSkill, read: (subject: CatalogSubject) => Uint8Array): SkillArtifact {
  if (skill.files.length === 1) {
    const bytes = read(skill.files[0]!.subject);
    return { type: 'skill-md', path: `${SKILLS_FOLDER}/${skill.name}/${SKILL_FILE}`, bytes, digest: sha256Digest(bytes) };
  }
  const bytes = createTarGz(skill.files.map((f) => ({ path: f.path, bytes: read(f.subject) })));
  return { type: 'archive', path: `${SKILLS_FOLDER}/${skill.name}.tar.gz`, bytes, digest: sha256Digest(bytes) };
}

/** The discovery index of `skills` and their artifacts (in the same order); urls below `base`. */
export function buildSkillsIndex(skills: readonly AgentSkill[], artifacts: readonly SkillArtifact[], base: string): SkillsIndex {
  return {
    $schema: SKILLS_DISCOVERY_SCHEMA,
    skills: skills.map((skill, i) => {
      const artifact = artifacts[i]!;
      return { name: skill.name, type: artifact.type, description: skill.description, url: encodeURI(`${base}${artifact.path}`), digest: artifact.digest };
    }),
  };
}

/** `sha256:` and the hex SHA-256 of `bytes`, as the discovery format writes digests. */
export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
