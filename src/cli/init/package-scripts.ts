/**
 * The `kb:*` scripts `init` adds to a package.json, written into its text in place: every other
 * byte (key order, indentation, line endings, one-line arrays) stays as it was.
 */
import { PACKAGE_NAME } from '../../build/package-info.ts';
import { configFlag, type InitSettings } from './settings.ts';

/** The scripts `init` adds: `kb:build`, `kb:dev` and `kb:check`, with `--config` when the knowledge base is not in `content/`. */
export function knowledgeScripts(settings: Pick<InitSettings, 'folder'>): Record<string, string> {
  const flag = configFlag(settings);
  return { 'kb:build': `syllabus build${flag}`, 'kb:dev': `syllabus dev${flag}`, 'kb:check': `syllabus check${flag}` };
}

/** A script of the same name that runs something else. */
export interface ScriptConflict {
  name: string;
  /** The script's current command (its JSON when it is not a string). */
  current: string;
}

/** The package.json with the scripts written, or why it cannot be edited. */
export type PackageScriptsEdit =
  | {
      ok: true;
      /** The new text; equal to the old one when every script was already there. */
      text: string;
      /** The scripts added or replaced, in the order given. */
      written: string[];
      /** Scripts of the same name with another command: replaced when forced, else left alone. */
      conflicts: ScriptConflict[];
      /** Whether `dependencies` or `devDependencies` lists syllabus-kb. */
      hasSyllabus: boolean;
    }
  | { ok: false; problem: string };

/**
 * Writes `scripts` into a package.json's text: missing ones are appended to its `"scripts"` object
 * (which is created at the end when absent), with the file's own indentation, spacing and line
 * endings; one with another command is a conflict, replaced only when `force` is set.
 */
export function editPackageScripts(text: string, scripts: Readonly<Record<string, string>>, force: boolean): PackageScriptsEdit {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  let manifest: unknown;
  try {
    manifest = JSON.parse(body);
  } catch (error) {
    return { ok: false, problem: `is not valid JSON (${(error as Error).message})` };
  }
  if (!isRecord(manifest)) return { ok: false, problem: 'is not a JSON object' };
  const current = manifest['scripts'];
  if (current !== undefined && !isRecord(current)) return { ok: false, problem: '"scripts" is not an object' };
  const hasSyllabus = [manifest['dependencies'], manifest['devDependencies']].some((deps) => isRecord(deps) && PACKAGE_NAME in deps);

  const conflicts: ScriptConflict[] = [];
  const toAdd: [string, string][] = [];
  const toReplace: [string, string][] = [];
  for (const [name, command] of Object.entries(scripts)) {
    const existing = current === undefined ? undefined : Object.hasOwn(current, name) ? current[name] : undefined;
    if (existing === undefined) toAdd.push([name, command]);
    else if (existing !== command) {
      conflicts.push({ name, current: typeof existing === 'string' ? existing : JSON.stringify(existing) });
      if (force) toReplace.push([name, command]);
    }
  }
  const written = Object.keys(scripts).filter((name) => toAdd.some(([n]) => n === name) || toReplace.some(([n]) => n === name));
  if (written.length === 0) return { ok: true, text, written, conflicts, hasSyllabus };

  const layout = readLayout(body);
  const root = objectAt(body, skipSpace(body, 0));
  const scriptsMember = findMember(root, 'scripts');
  const edits: TextEdit[] = [];
  if (scriptsMember === undefined) {
    const inner = layout.inline ? '' : layout.unit;
    edits.push(appendMembers(body, root, [['scripts', renderObject(toAdd, layout, inner)]], layout));
  } else {
    const object = objectAt(body, scriptsMember.valueStart);
    for (const [name, command] of toReplace) {
      const member = findMember(object, name)!;
      edits.push({ start: member.valueStart, end: member.valueEnd, text: JSON.stringify(command) });
    }
    if (toAdd.length > 0) {
      const strings: [string, string][] = toAdd.map(([name, command]) => [name, JSON.stringify(command)]);
      if (object.members.length > 0) edits.push(appendMembers(body, object, strings, layout));
      else {
        const indent = layout.inline ? '' : (lineIndent(body, scriptsMember.keyStart) ?? '');
        edits.push({ start: scriptsMember.valueStart, end: scriptsMember.valueEnd, text: renderObject(toAdd, layout, indent) });
      }
    }
  }
  let edited = body;
  for (const edit of edits.sort((a, b) => b.start - a.start)) edited = edited.slice(0, edit.start) + edit.text + edited.slice(edit.end);
  return { ok: true, text: bom + edited, written, conflicts, hasSyllabus };
}

interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/** How a JSON file is laid out: its line break, its indentation unit, and the text between a key and its value. */
interface Layout {
  newline: string;
  /** The root's members are on one line with it: new members go on that line too. */
  inline: boolean;
  unit: string;
  colon: string;
}

function readLayout(text: string): Layout {
  const newline = text.includes('\r\n') ? '\r\n' : '\n';
  const root = objectAt(text, skipSpace(text, 0));
  const first = root.members[0];
  const colon = first ? text.slice(first.keyEnd, first.valueStart) : ': ';
  if (!first) return { newline, inline: !text.trimEnd().includes('\n') && text.trim() !== '{}', unit: '  ', colon };
  const indent = lineIndent(text, first.keyStart);
  return { newline, inline: indent === undefined, unit: indent || '  ', colon };
}

/** The JSON text of an object of strings, laid out like the file, its closing brace at `indent`. */
function renderObject(members: readonly [string, string][], layout: Layout, indent: string): string {
  const values = members.map(([name, value]) => `${JSON.stringify(name)}${layout.colon}${JSON.stringify(value)}`);
  if (layout.inline) return `{${values.join(layout.colon.endsWith(' ') ? ', ' : ',')}}`;
  const inner = indent + layout.unit;
  return `{${layout.newline}${values.map((v) => inner + v).join(`,${layout.newline}`)}${layout.newline}${indent}}`;
}

/** An edit that appends members (`[name, JSON text]`) after an object's last member, spaced like the members before. */
function appendMembers(text: string, object: JsonObject, members: readonly [string, string][], layout: Layout): TextEdit {
  const last = object.members.at(-1);
  if (!last) {
    // `{}` at the root: the new members get a line each.
    const rendered = members.map(([name, value]) => `${JSON.stringify(name)}${layout.colon}${value}`);
    const body = layout.inline
      ? rendered.join(layout.colon.endsWith(' ') ? ', ' : ',')
      : `${layout.newline}${rendered.map((r) => layout.unit + r).join(`,${layout.newline}`)}${layout.newline}`;
    return { start: object.open + 1, end: object.close, text: body };
  }
  const second = object.members[1];
  const indent = lineIndent(text, last.keyStart);
  const inlineSeparator = layout.colon.endsWith(' ') ? ', ' : ',';
  const separator = second ? text.slice(object.members[0]!.valueEnd, second.keyStart) : indent === undefined ? inlineSeparator : `,${layout.newline}${indent}`;
  const colon = text.slice(last.keyEnd, last.valueStart);
  return { start: last.valueEnd, end: last.valueEnd, text: members.map(([name, value]) => `${separator}${JSON.stringify(name)}${colon}${value}`).join('') };
}

interface JsonMember {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

interface JsonObject {
  open: number;
  close: number;
  members: JsonMember[];
}

/** The last member named `key` (the one JSON.parse keeps). */
function findMember(object: JsonObject, key: string): JsonMember | undefined {
  return object.members.findLast((m) => m.key === key);
}

/** The object whose `{` is at `open`, in text already known to be valid JSON. */
function objectAt(text: string, open: number): JsonObject {
  const members: JsonMember[] = [];
  let i = skipSpace(text, open + 1);
  if (text[i] === '}') return { open, close: i, members };
  for (;;) {
    const keyStart = i;
    const keyEnd = endOfString(text, i);
    const valueStart = skipSpace(text, skipSpace(text, keyEnd) + 1);
    const valueEnd = endOfValue(text, valueStart);
    members.push({ key: JSON.parse(text.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd });
    i = skipSpace(text, valueEnd);
    if (text[i] !== ',') return { open, close: i, members };
    i = skipSpace(text, i + 1);
  }
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  return i;
}

function endOfString(text: string, i: number): number {
  for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
  return i + 1;
}

function endOfValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return endOfString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c === '"') i = endOfString(text, i) - 1;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
    }
    return i;
  }
  while (i < text.length && !',}] \t\r\n'.includes(text[i]!)) i++;
  return i;
}

/** The white space before `position` on its line, or `undefined` when something else precedes it there. */
function lineIndent(text: string, position: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', position - 1) + 1;
  const before = text.slice(lineStart, position);
  return /^[ \t]*$/.test(before) ? before : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
