/**
 * The JSON Schema of kb.toml published for editors: the committed copy is what the config schema
 * generates now, each key carries its description and default, and it agrees with the config
 * loader on every TOML file of content/ and test/fixtures/.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kb/index.ts';
import { CONFIG_SCHEMA_FILE } from '../../../src/kb/config/published-schema.ts';
import { renderConfigSchema } from '../../../src/kb/config/schema.ts';
import { ROOT } from '../../helpers/run-cli.ts';

const schema = renderConfigSchema() as any;
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

/** Every TOML file below `folder`, by path relative to the repository, not following symlinks (the fixtures hold loops). */
function tomlFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory() && entry.name !== '.syllabus-cache') found.push(...tomlFiles(relative));
    else if (entry.isFile() && entry.name.endsWith('.toml')) found.push(relative);
  }
  return found.sort();
}

/** Whether a config file loads without a configuration error. */
function loads(file: string): boolean {
  const { diagnostics } = loadConfig([{ file: path.join(ROOT, file), text: fs.readFileSync(path.join(ROOT, file), 'utf8') }]);
  return !diagnostics.some((d) => d.kind === 'config-error');
}

/** Validates a TOML file against the schema: null when it passes, else where and why it fails. */
function schemaErrors(file: string): string[] | null {
  let data: unknown;
  try {
    data = parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
  } catch {
    return ['TOML syntax'];
  }
  return validate(data) ? null : validate.errors!.map((e) => `${e.instancePath || '/'} ${e.message}`);
}

describe('the JSON Schema of kb.toml', () => {
  it(`is committed as ${CONFIG_SCHEMA_FILE}, as the schema generates it now (else run npm run schema:config)`, () => {
    expect(fs.readFileSync(path.join(ROOT, CONFIG_SCHEMA_FILE), 'utf8')).toBe(`${JSON.stringify(schema, null, 2)}\n`);
  });

  it('gives each key its description, ending with its default, and the default itself', () => {
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.properties.site.properties.title).toEqual({
      description: 'Site title: the header, the home page and the llms.txt heading. Default: "Knowledge".',
      default: 'Knowledge',
      type: 'string',
    });
    expect(schema.properties.kb.properties.topic.additionalProperties.properties.learned).toEqual({
      description: 'Slugs or globs of subjects pre-loaded into the <knowledge> section, e.g. ["maintainers/*"]. Default: [].',
      default: [],
      type: 'array',
      items: { type: 'string' },
    });
    expect(schema.properties.kb.properties.summaries.properties.prompt.description).toBe('The system message of every call. Default: the built-in prompt.');
    expect(schema.properties.site.properties.url).toEqual({
      description:
        'Public URL of the site, e.g. "https://kb.example.com": http(s), without user name, password, query or fragment. Without it links stay relative and no sitemap is written.',
      type: 'string',
    });
  });

  it('titles each table', () => {
    const kb = schema.properties.kb;
    const titles = [
      schema,
      schema.properties.site,
      kb,
      kb.properties.summaries,
      kb.properties.sources,
      kb.properties.topic.additionalProperties,
      schema.properties.profile.additionalProperties,
    ].map((table) => table.title);
    expect(titles).toEqual(['kb.toml', '[site]', '[kb]', '[kb.summaries]', '[kb.sources]', '[kb.topic.<id>]', '[profile.<name>]']);
  });

  it('accepts every TOML file of content/ and test/fixtures/ that loads without a configuration error', () => {
    const files = [...tomlFiles('content'), ...tomlFiles('test/fixtures')].filter(loads);
    expect(files).toContain('content/kb.toml');
    expect(files).toContain('content/reference/examples/configs/full.toml');
    expect(files).toContain('test/fixtures/config-errors/ignored-tables.toml');
    expect(files.map((file) => ({ file, errors: schemaErrors(file) })).filter((r) => r.errors !== null)).toEqual([]);
  });

  it('refuses only files the loader refuses too', () => {
    const refused = [...tomlFiles('content'), ...tomlFiles('test/fixtures')].filter((file) => schemaErrors(file) !== null);
    expect(refused.filter(loads)).toEqual([]);
  });

  it('refuses unknown keys, wrong types, and topic ids that are invalid or reserved', () => {
    const cases = ['unknown-key', 'unknown-site-key', 'unknown-profile-key', 'wrong-type', 'wrong-type-kb', 'learned-string', 'bad-id', 'reserved-id'];
    expect(Object.fromEntries(cases.map((name) => [name, schemaErrors(`test/fixtures/config-errors/${name}.toml`)]))).toEqual({
      'unknown-key': ['/kb/topic/x must NOT have additional properties'],
      'unknown-site-key': ['/site must NOT have additional properties'],
      'unknown-profile-key': ['/profile/r must NOT have additional properties'],
      'wrong-type': ['/kb/topic/x/enable must be boolean'],
      'wrong-type-kb': ['/kb/max_subject_bytes must be integer'],
      'learned-string': ['/kb/topic/x/learned must be array'],
      'bad-id': ['/kb/topic must match pattern "^[A-Za-z][A-Za-z0-9_-]*$"', '/kb/topic property name must be valid'],
      'reserved-id': ['/kb/topic must NOT be valid', '/kb/topic property name must be valid'],
    });
  });
});
