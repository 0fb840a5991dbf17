/**
 * Where the JSON Schema of `kb.toml` (`renderConfigSchema`, config/schema.ts) is published
 * (content/reference/site-addresses.md): in the package, and on every built site.
 */

/** In the repository and the installed package, from their root: what a `#:schema` line of `kb.toml` names. */
export const CONFIG_SCHEMA_FILE = 'schema/kb.schema.json';

/** On the built site, below `[site] base`. */
export const CONFIG_SCHEMA_SITE_PATH = 'kb/kb.schema.json';
