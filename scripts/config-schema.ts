/**
 * Writes the JSON Schema of `kb.toml` (`npm run schema:config`): `schema/kb.schema.json`,
 * generated from the config schema (src/kb/config/schema.ts) and committed, so that the package
 * ships it and editors can name it. Run it after changing the schema; a test fails while the
 * committed copy differs from a fresh one (test/kb/config/json-schema.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_SCHEMA_FILE } from '../src/kb/config/published-schema.ts';
import { renderConfigSchema } from '../src/kb/config/schema.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const file = path.join(root, CONFIG_SCHEMA_FILE);
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, `${JSON.stringify(renderConfigSchema(), null, 2)}\n`);
process.stderr.write(`Wrote ${CONFIG_SCHEMA_FILE}\n`);
