/**
 * A generated corpus shaped like an Agent Skills repository (anthropics/skills): 34 skill folders
 * under `skills/`, each with a `SKILL.md` (some without an H1, titled by their front matter), Python
 * scripts with docstrings, reference pages, the same `LICENSE.txt`; some with TrueType fonts
 * (binary) and XML schemas, a few of them large. 414 files, 12 MB, the same at every run.
 * The benchmarks use it; nothing here is asserted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { random } from './bench-common.ts';

/** Skill folders. */
const SKILLS = 34;

const WORDS =
  'document slide sheet canvas brand theme font layout table chart image render export validate schema parse convert style colour page section workflow template review test server client artifact'.split(
    ' ',
  );

/** `count` words drawn by `next`, as a sentence. */
function sentence(next: () => number, count: number): string {
  const words = Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
}

/** A paragraph of `sentences` sentences. */
function paragraph(next: () => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(next, 8 + Math.floor(next() * 10))).join(' ');
}

/** An XML schema of about `kb` kilobytes. */
function schema(next: () => number, name: string, kb: number): string {
  let out = `<?xml version="1.0" encoding="UTF-8"?>\n<xsd:schema xmlns:xsd="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:example:${name}" elementFormDefault="qualified">\n`;
  for (let i = 0; out.length < kb * 1024; i++) {
    out += `  <xsd:complexType name="CT_${name}_${i}">\n    <xsd:annotation><xsd:documentation>${sentence(next, 10)}</xsd:documentation></xsd:annotation>\n    <xsd:sequence>\n`;
    for (let j = 0; j < 4; j++) out += `      <xsd:element name="${WORDS[Math.floor(next() * WORDS.length)]}${j}" type="xsd:string" minOccurs="0"/>\n`;
    out += `    </xsd:sequence>\n    <xsd:attribute name="val" type="xsd:int" use="required"/>\n  </xsd:complexType>\n`;
  }
  return `${out}</xsd:schema>\n`;
}

/** The bytes of a font-like binary of about `kb` kilobytes (a TrueType header, then noise). */
function font(next: () => number, kb: number): Buffer {
  const bytes = Buffer.alloc(kb * 1024);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
  bytes.writeUInt32BE(0x00010000, 0);
  return bytes;
}

/** A Python script with a module docstring. */
function script(next: () => number, name: string): string {
  const body = Array.from({ length: 20 + Math.floor(next() * 60) }, (_, i) => `def step_${i}(value):\n    """${sentence(next, 6)}"""\n    return value + ${i}\n`).join('\n');
  return `#!/usr/bin/env python3\n"""${name}: ${sentence(next, 9)}\n\n${paragraph(next, 2)}\n"""\n\nimport sys\n\n${body}\n\nif __name__ == "__main__":\n    print(step_0(int(sys.argv[1])))\n`;
}

const LICENSE = `Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/\n\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. ${paragraph(random(7 + i), 3)}`).join('\n\n')}\n`;

/** Writes the corpus into `dir` (`dir/skills/…` and `dir/kb.toml`, one topic `skills`); returns the number of files under `skills/`. */
export function writeSkillsCorpus(dir: string): number {
  const next = random(415);
  let files = 0;
  const write = (relative: string, content: string | Buffer): void => {
    const file = path.join(dir, 'skills', relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    files++;
  };
  for (let s = 0; s < SKILLS; s++) {
    const name = `skill-${String(s).padStart(2, '0')}-${WORDS[s % WORDS.length]}`;
    const heading = s % 3 === 0 ? '' : `# ${name.replace(/-/g, ' ')}\n\n`;
    write(
      `${name}/SKILL.md`,
      `---\nname: ${name}\ndescription: ${sentence(next, 14)}\nlicense: Complete terms in LICENSE.txt\n---\n\n${heading}${paragraph(next, 4)}\n\n## Workflow\n\n1. ${sentence(next, 8)}\n2. Run \`python scripts/main_0.py\`.\n3. Read [the reference](references/guide-0.md).\n\n\`\`\`python\nprint("${name}")\n\`\`\`\n`,
    );
    write(`${name}/LICENSE.txt`, LICENSE);
    for (let i = 0; i < 3; i++) write(`${name}/scripts/main_${i}.py`, script(next, `main_${i}`));
    for (let i = 0; i < 4; i++) write(`${name}/references/guide-${i}.md`, `# Guide ${i} of ${name}\n\n${Array.from({ length: 6 }, () => paragraph(next, 5)).join('\n\n')}\n`);
    if (s % 4 === 0) for (let i = 0; i < 4; i++) write(`${name}/canvas-fonts/Font${i}-Regular.ttf`, font(next, 60 + Math.floor(next() * 200)));
    if (s % 6 === 1) {
      for (let i = 0; i < 12; i++) write(`${name}/ooxml/schemas/part-${i}.xsd`, schema(next, `${name.replace(/-/g, '_')}_${i}`, i === 0 ? 300 : 8 + Math.floor(next() * 60)));
    }
  }
  fs.writeFileSync(path.join(dir, 'kb.toml'), '[site]\ntitle = "Skills"\n\n[kb.topic.skills]\ntitle = "Skills"\nsubjects = "skills"\n');
  return files;
}
