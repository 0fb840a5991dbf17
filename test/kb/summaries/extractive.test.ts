import { beforeAll, describe, expect, it } from 'vitest';
import { loadMarkdownParser } from '../../../src/kb/index.ts';
import { cutSummary, summarize, type SummaryInput } from '../../../src/kb/summaries/extractive.ts';

beforeAll(loadMarkdownParser);

const markdown = (text: string, extra: Partial<SummaryInput> = {}): string => summarize({ format: 'markdown', text, frontMatterLines: 0, description: undefined, ...extra });
const code = (text: string): string => summarize({ format: 'code', text, frontMatterLines: 0, description: undefined });

describe('summarize', () => {
  it('takes the front matter description first, on one line', () => {
    const text = '---\ndescription: |\n  Two lines\n  of description.\n---\n# Title\n\nA paragraph.';
    expect(markdown(text, { frontMatterLines: 5, description: 'Two lines\nof description.\n' })).toBe('Two lines of description.');
  });

  it('else takes the first paragraph, markdown syntax removed', () => {
    expect(markdown('# Deploying\n\nShip **every** day with `make deploy`; see [the runbook](runbook.md).\nSecond line.\n\nNext paragraph.')).toBe(
      'Ship every day with make deploy; see the runbook. Second line.',
    );
  });

  it('skips front matter, headings, code blocks and HTML to reach the first paragraph', () => {
    const text = '---\ntitle: T\n---\n# T\n\n```sh\nnot this\n```\n\n<div>nor this</div>\n\n## Sub\n\nThis one.';
    expect(markdown(text, { frontMatterLines: 3 })).toBe('This one.');
  });

  it('finds a paragraph inside a blockquote (tldr pages have no other)', () => {
    expect(markdown('# tar\n\n> Archiving utility.\n> More information: <https://www.gnu.org/software/tar>.\n\n- Create an archive:\n\n`tar cf {{target.tar}} {{file1}}`')).toBe(
      'Archiving utility. More information: https://www.gnu.org/software/tar.',
    );
  });

  it('finds a first paragraph that comes after a long opening', () => {
    const opening = `\`\`\`text\n${'x\n'.repeat(5000)}\`\`\`\n\n`;
    expect(markdown(`${opening}Found after the code.`)).toBe('Found after the code.');
  });

  it('never takes a line from inside a fenced block, blank lines and all', () => {
    expect(markdown('# T\n\n```md\nnot\n\nthis paragraph\n```\n\n~~~\n\nnor this\n~~~\n\nBut this.')).toBe('But this.');
  });

  it('gives "" for markdown without a paragraph', () => {
    expect(markdown('# Only a heading\n\n```\ncode\n```')).toBe('');
  });

  it('takes the first block of a text subject', () => {
    expect(summarize({ format: 'text', text: '\n\nPlain notes.\nSecond line.\n\nLater.', frontMatterLines: 0, description: undefined })).toBe('Plain notes. Second line.');
  });

  it('takes the leading comment of a code subject, else ""', () => {
    expect(code('#!/usr/bin/env python3\n# Deploys the service.\n# Run it from CI.\nimport os\n# not this')).toBe('Deploys the service. Run it from CI.');
    expect(code('// Shared settings.\n\n// Not this block.\nexport {};')).toBe('Shared settings.');
    expect(code('{"name": "api"}')).toBe('');
  });

  it('takes a Python module docstring, after a shebang, an encoding line and a license header', () => {
    const script = [
      '#!/usr/bin/env python3',
      '# -*- coding: utf-8 -*-',
      '# Copyright 2025 Example Corp.',
      '# SPDX-License-Identifier: Apache-2.0',
      '',
      '"""Fill the fillable fields of a PDF form',
      'from a JSON file of values.',
      '',
      'Usage: fill_fillable_fields.py form.pdf values.json',
      '"""',
      'import sys',
    ].join('\n');
    expect(code(script)).toBe('Fill the fillable fields of a PDF form from a JSON file of values.');
    expect(code("'''One line.'''\nx = 1")).toBe('One line.');
    expect(code('r"""\n    Indented docstring.\n    """')).toBe('Indented docstring.');
  });

  it('takes a /** */ or // comment block, skipping license paragraphs, directives and tags', () => {
    const license = '/*\n * Licensed under the Apache License, Version 2.0 (the "License");\n * you may not use this file except in compliance with the License.\n */';
    expect(code(`${license}\n\n/**\n * @fileoverview Renders the slides\n * of a deck.\n * @param x ignored\n */\nexport {};`)).toBe('Renders the slides of a deck.');
    expect(code('// @ts-check\n/* eslint-disable no-console */\n// Builds the bundle.\nimport x from "y";')).toBe('Builds the bundle.');
    expect(code('/* One line. */\nint x;')).toBe('One line.');
    expect(code('// Copyright (c) 2024 Someone. All rights reserved.\n// Use of this source code is governed by a BSD-style license.\n\n// Parses tokens.\nfn main() {}')).toBe(
      'Parses tokens.',
    );
    expect(code('//! Crate docs.\nuse std;')).toBe('Crate docs.');
    expect(code('<?xml version="1.0" encoding="UTF-8"?>\n<!-- The fields of a form. -->\n<xs:schema/>')).toBe('The fields of a form.');
  });

  it('gives "" rather than code, a license or a preprocessor line', () => {
    expect(code('import os\n\n"""Not a module docstring."""')).toBe('');
    expect(code('#include <stdio.h>\n// Not the header.\nint main(void) {}')).toBe('');
    expect(code('# SPDX-License-Identifier: MIT\nset -e')).toBe('');
    expect(code('#!/bin/sh\nset -e')).toBe('');
  });

  it('never makes a summary of rule lines', () => {
    expect(code('# ══════════════════\n# Deck builder\n# ══════════════════\n\nimport x')).toBe('Deck builder');
    expect(code('/* ---------------- */\n/* ================ */\n/* Theme tokens. */\n:root {}')).toBe('Theme tokens.');
    expect(code('# ************\nx = 1')).toBe('');
    expect(markdown('═══════════════\n\n> ───────\n\n====\n\nThe real text.\n═══════════════')).toBe('The real text.');
    expect(summarize({ format: 'text', text: '+-------+\n|       |\n+-------+\n\nNotes.', frontMatterLines: 0, description: undefined })).toBe('Notes.');
    expect(markdown('Text.', { description: '═════' })).toBe('Text.');
  });

  it("takes a package.json's description, and no other file's", () => {
    const manifest = '{\n  "name": "deck",\n  "description": "Builds slide decks  from markdown."\n}';
    const of = (fileName: string | undefined, text = manifest): string => summarize({ format: 'code', text, frontMatterLines: 0, description: undefined, fileName });
    expect([of('package.json'), of('other.json'), of(undefined), of('package.json', '{"name": "x"}'), of('package.json', '{ broken')]).toEqual([
      'Builds slide decks from markdown.',
      '',
      '',
      '',
      '',
    ]);
  });
});

describe('cutSummary', () => {
  it('keeps a text of up to 300 characters whole', () => {
    const text = 'a'.repeat(300);
    expect(cutSummary(text)).toBe(text);
  });

  it('cuts at the last sentence end near 300 characters', () => {
    const first = `${'Word '.repeat(50).trim()}.`;
    const second = `${'More '.repeat(20).trim()}.`;
    const third = `${'Tail '.repeat(40).trim()}.`;
    expect(cutSummary(`${first} ${second} ${third}`)).toBe(`${first} ${second}`);
  });

  it('cuts at a word with an ellipsis when no sentence ends near the length', () => {
    const text = 'word '.repeat(100).trim();
    expect(cutSummary(text)).toBe(`${'word '.repeat(60).trim()}…`);
  });
});
