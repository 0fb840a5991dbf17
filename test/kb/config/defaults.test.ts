/**
 * The defaults of config/defaults.ts against the schema that publishes them and the reference
 * that documents them (content/reference/configuration.md): one table per config table, with the
 * schema's keys in its order, each default the one the JSON Schema and the reference state.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECK_DEFAULTS,
  DEFAULT_SUMMARY_PROMPT,
  EVAL_AGENT_DEFAULTS,
  EVAL_DEFAULTS,
  KB_DEFAULTS,
  OVERRIDE_DEFAULTS,
  PROFILE_DEFAULTS,
  PROMPT_DEFAULTS,
  SITE_DEFAULTS,
  SOURCES_DEFAULTS,
  SUMMARIES_DEFAULTS,
  TOPIC_DEFAULTS,
} from '../../../src/kb/config/defaults.ts';
import { KNOWN_KEYS, renderConfigSchema } from '../../../src/kb/config/schema.ts';
import { ROOT } from '../../helpers/run-cli.ts';

/** Each table of defaults by the dotted path of its config table, as KNOWN_KEYS names them. */
const DEFAULTS: Record<string, Readonly<Record<string, unknown>>> = {
  site: SITE_DEFAULTS,
  kb: KB_DEFAULTS,
  'kb.summaries': SUMMARIES_DEFAULTS,
  'kb.sources': SOURCES_DEFAULTS,
  'kb.prompt': PROMPT_DEFAULTS,
  'kb.topic.*': TOPIC_DEFAULTS,
  check: CHECK_DEFAULTS,
  'check.override.*': OVERRIDE_DEFAULTS,
  eval: EVAL_DEFAULTS,
  'eval.agent': EVAL_AGENT_DEFAULTS,
  'profile.*': PROFILE_DEFAULTS,
};
/** Tables inside `[kb]` and `[check]`, which have their own defaults. */
const NESTED: Record<string, string[]> = { kb: ['summaries', 'sources', 'prompt', 'topic'], check: ['severity', 'override'], eval: ['agent'] };
/** Keys without a default because a table needs them. */
const REQUIRED = ['subjects', 'endpoint', 'model', 'files'];

/** The JSON Schema of each table, by the same paths. */
function schemaTables(): Record<string, { properties: Record<string, { default?: unknown }> }> {
  const schema = renderConfigSchema() as any;
  const kb = schema.properties.kb;
  return {
    site: schema.properties.site,
    kb,
    'kb.summaries': kb.properties.summaries,
    'kb.sources': kb.properties.sources,
    'kb.prompt': kb.properties.prompt,
    'kb.topic.*': kb.properties.topic.additionalProperties,
    check: schema.properties.check,
    'check.override.*': schema.properties.check.properties.override.items,
    eval: schema.properties.eval,
    'eval.agent': schema.properties.eval.properties.agent,
    'profile.*': schema.properties.profile.additionalProperties,
  };
}

/** A table of defaults with the keys that have none left out. */
const defined = (table: Readonly<Record<string, unknown>>): Record<string, unknown> => Object.fromEntries(Object.entries(table).filter(([, value]) => value !== undefined));

describe('config defaults', () => {
  it("name every key of each table, in the schema's order", () => {
    expect(Object.keys(DEFAULTS)).toEqual(Object.keys(KNOWN_KEYS));
    for (const [table, keys] of Object.entries(KNOWN_KEYS)) {
      expect({ table, keys: Object.keys(DEFAULTS[table]!) }).toEqual({ table, keys: keys.filter((key) => !(NESTED[table] ?? []).includes(key)) });
    }
  });

  it('are the defaults of the JSON Schema, and no key has another', () => {
    for (const [table, json] of Object.entries(schemaTables())) {
      const published = Object.fromEntries(
        Object.entries(json.properties)
          .filter(([, property]) => 'default' in property)
          .map(([key, property]) => [key, property.default]),
      );
      expect({ table, defaults: published }).toEqual({ table, defaults: defined(DEFAULTS[table]!) });
    }
  });

  it('are the defaults that content/reference/configuration.md states, key by key', () => {
    const reference = fs.readFileSync(path.join(ROOT, 'content/reference/configuration.md'), 'utf8');
    const headings: Record<string, string> = {
      site: '## `[site]`',
      kb: '## `[kb]`',
      'kb.summaries': '## `[kb.summaries]`',
      'kb.sources': '## `[kb.sources]`',
      'kb.prompt': '## `[kb.prompt]`',
      'kb.topic.*': '## `[kb.topic.<id>]`',
      check: '## `[check]`',
      'check.override.*': '### `[[check.override]]`',
      eval: '## `[eval]`',
      'eval.agent': '## `[eval.agent]`',
      'profile.*': '## `[profile.<name>]`',
    };
    /** The Default column of the first key table after a heading: `none`, `required`, `built-in` or a value. */
    const stated = (heading: string): Record<string, unknown> => {
      const section = reference.slice(reference.indexOf(`${heading}\n`));
      const rows = section.slice(section.indexOf('| Key | Type | Default | Meaning |')).split('\n').slice(2);
      const out: Record<string, unknown> = {};
      for (const row of rows) {
        if (!row.startsWith('|')) break;
        const [key, , shown] = row.split(' | ').map((cell) => cell.replace(/^\| /, ''));
        const value = /^`([^`]*)`/.exec(shown!)?.[1];
        out[key!.replaceAll('`', '')] = value !== undefined ? JSON.parse(value) : /required/.test(shown!) ? 'required' : shown;
      }
      return out;
    };
    const expected = (table: Readonly<Record<string, unknown>>): Record<string, unknown> =>
      Object.fromEntries(
        Object.entries(table).map(([key, value]) => [
          key,
          value === DEFAULT_SUMMARY_PROMPT ? 'built-in' : value !== undefined ? value : REQUIRED.includes(key) ? 'required' : 'none',
        ]),
      );
    for (const [table, heading] of Object.entries(headings)) {
      expect({ table, defaults: stated(heading) }).toEqual({ table, defaults: expected(DEFAULTS[table]!) });
    }
    expect(reference).toContain(`The built-in prompt:\n\n\`\`\`text\n${DEFAULT_SUMMARY_PROMPT}\n\`\`\``);
  });
});
