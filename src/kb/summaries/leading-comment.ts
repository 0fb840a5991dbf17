/**
 * What a code file says about itself at its top (content/agents/endpoints.md, "Summaries"): the
 * first paragraph of its module docstring or leading comment, with a `#!` line or an XML
 * declaration, encoding and tool
 * directives, license headers and rule lines skipped. The header ends at the first line of code.
 */
import { isRuleLine } from './rule-lines.ts';

/** A line of a license header: SPDX, copyright and the opening words of the common licenses. */
const LICENSE_LINE =
  /SPDX-License-Identifier|^(?:\(c\)|©|copyright\s+(?:\(c\)|©|\d{4}|by\b|the\b))|all rights reserved|licen[cs]ed (?:under|to)\b|permission is hereby granted|is free software|you may not use this file|unless required by applicable law|@license\b/iu;

/** A comment addressed to a tool: an encoding line, an editor mode line, a linter or type checker's directive. */
const DIRECTIVE_LINE =
  /^(?:-\*-.*-\*-|(?:vim?|ex):|(?:en)?coding[:=]|eslint[- ]|jshint\b|jslint\b|global\s|@ts-|@flow\b|prettier-ignore|biome-ignore|deno-lint|tslint:|pylint:|noqa\b|type:\s*ignore|fmt:\s*(?:on|off|skip)|mypy:|flake8:|pyright:|isort:|shellcheck\s|istanbul\s|c8\s|#?(?:end)?region\b)/iu;

/** A C preprocessor line, which starts with `#` but is code. */
const PREPROCESSOR = /^\s*#\s*(?:include|import|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|error|warning|line)\b/u;

/** JSDoc tags whose text describes the file; any other tag ends a paragraph. */
const DESCRIBING_TAG = /^@(?:file|fileoverview|overview|module|description|desc)\b\s*/u;

/** How an open block comment or docstring ends, and whether its lines may start with `*`. */
interface OpenBlock {
  end: string;
  starred: boolean;
}

/**
 * The first paragraph of a code file's docstring or leading comment that is not a license
 * header, its lines joined with a space; `''` when the file starts with code.
 */
export function extractLeadingComment(text: string): string {
  for (const paragraph of headerParagraphs(text)) {
    if (!paragraph.some((line) => LICENSE_LINE.test(line))) return paragraph.join(' ');
  }
  return '';
}

/** The paragraphs of the comments and docstring a file starts with, in order. */
function* headerParagraphs(text: string): Generator<string[]> {
  const lines = text.split('\n');
  let paragraph: string[] = [];
  let open: OpenBlock | undefined;
  for (const [index, line] of lines.entries()) {
    // A `#!` line, or an XML declaration, is not what the file says about itself.
    if (index === 0 && (line.startsWith('#!') || /^<\?xml\s.*\?>\s*$/u.test(line))) continue;
    let content: string;
    if (open) {
      const end = line.indexOf(open.end);
      content = end === -1 ? line : line.slice(0, end);
      if (open.starred) content = content.replace(/^\s*\*+(?!\/)/u, '');
      if (end !== -1) open = undefined;
    } else if (line.trim() === '') {
      content = '';
    } else {
      const opened = openComment(line);
      if (opened === undefined) break;
      ({ content, open } = opened);
    }
    const kept = keptText(content.trim());
    if (kept === undefined) {
      if (paragraph.length > 0) yield paragraph;
      paragraph = [];
    } else {
      paragraph.push(kept);
    }
  }
  if (paragraph.length > 0) yield paragraph;
}

/** The comment text a line outside any block holds, and the block it opens; `undefined` for code. */
function openComment(line: string): { content: string; open: OpenBlock | undefined } | undefined {
  const docstring = /^\s*[rRuUbB]{0,2}("""|''')(.*)$/u.exec(line);
  if (docstring) return opening(docstring[2]!, { end: docstring[1]!, starred: false });
  const block = /^\s*\/\*+!?(.*)$/u.exec(line);
  if (block) return opening(block[1]!, { end: '*/', starred: true });
  const html = /^\s*<!--(.*)$/u.exec(line);
  if (html) return opening(html[1]!, { end: '-->', starred: false });
  if (PREPROCESSOR.test(line)) return undefined;
  const comment = /^\s*(?:\/\/[/!]?|#+|--+|;+|%+)(.*)$/u.exec(line);
  return comment ? { content: comment[1]!, open: undefined } : undefined;
}

/** The rest of a line that opens a block, and the block, unless it closes on the same line. */
function opening(rest: string, block: OpenBlock): { content: string; open: OpenBlock | undefined } {
  const end = rest.indexOf(block.end);
  return end === -1 ? { content: rest, open: block } : { content: rest.slice(0, end), open: undefined };
}

/** A comment line's text as a summary keeps it, or `undefined` where a paragraph ends. */
function keptText(text: string): string | undefined {
  if (text === '' || isRuleLine(text) || DIRECTIVE_LINE.test(text)) return undefined;
  if (text.startsWith('@')) {
    const tag = DESCRIBING_TAG.exec(text);
    const rest = tag ? text.slice(tag[0].length) : '';
    return rest === '' ? undefined : rest;
  }
  return text;
}
