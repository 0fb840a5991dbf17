/** `syllabus find <query…>`: the listed subjects that match a query, best first (content/reference/cli/find.md). */
import path from 'node:path';
import { buildCatalog, type Catalog } from '../kb/catalog/catalog.ts';
import { DEFAULT_FIND_LIMIT, parseFindArguments, renderFindResults, renderFindSchema } from '../kb/view/find.ts';
import type { KnowledgeBase } from '../kb/subjects/knowledge-base.ts';
import { cacheFolder, defaultCacheDir } from '../build/cache-folder.ts';
import { loadCatalogMemo, saveCatalogMemo } from '../build/catalog-memo.ts';
import { CliError, usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { withCachedSummaries } from '../build/llm-summaries.ts';
import { REMOTE_HELP, REMOTE_OPTION, viewForCommand } from './knowledge-flags.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const FIND_HELP = `Usage: syllabus find <query…> [--limit N] [--topic ID] [--json] [--config PATH… | --remote URL]
       syllabus find --schema

Prints the listed subjects that match a query, best first, one per line:

  - <topic>/<slug> (**<title>**): <summary>

A subject whose title or name (the last part of its slug) is the whole query comes first; the
others rank by how well the query's words (stemmed) match the subject's title, name, summary,
headings and text (BM25F), times 0.7 + 0.3 × its confidence (1 for a plain subject). Subjects
that share no word with the query are left out: nothing matching prints nothing. Hidden and
disabled subjects are never found. Several words are one query: "syllabus find roll back" =
"roll back".

Options:
  -n, --limit N           the most subjects to print (default ${DEFAULT_FIND_LIMIT})
  -t, --topic ID          search one topic only (its id, or its title in any case)
      --json              print the subjects as JSON, with their scores (its JSON Schema: --schema)
      --schema            print the JSON Schema of --json
  -c, --config PATH       config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
${REMOTE_HELP}
  -h, --help              show this help

Exit codes: 0 success (also when nothing matches), 1 an unknown --topic or a site that cannot be
read, 2 usage or configuration error.`;

/** Runs `find`; returns the exit code. */
export async function findCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...CONFIG_OPTION, ...REMOTE_OPTION, limit: { type: 'string', short: 'n' }, topic: { type: 'string', short: 't' }, json: { type: 'boolean' }, schema: { type: 'boolean' } },
    'find',
  );
  if (values.help) {
    io.out(FIND_HELP);
    return 0;
  }
  if (values.schema) {
    if (positionals.length > 0 || values.json) throw usageError('find --schema takes no other arguments: it prints the JSON Schema of find --json.', 'find');
    io.out(JSON.stringify(renderFindSchema(), null, 2));
    return 0;
  }
  if (positionals.length === 0) throw usageError('find needs a query: syllabus find <query…>.', 'find');
  // The tool's own check, the query's length included: the same message as an agent gets.
  const args = { query: positionals.join(' '), limit: parseLimit(values.limit), topic: values.topic };
  const parsed = parseFindArguments(args);
  if (!parsed.ok) throw new CliError(parsed.message, 1);
  const { view, reportContentErrors } = await viewForCommand(values, io, 'find', {}, { catalog: catalogWithCache(io) });
  const found = await view.find(args);
  reportContentErrors();
  if (!found.ok) throw new CliError(found.message, 1);
  io.out(values.json ? JSON.stringify(found.results, null, 2) : renderFindResults(found.results));
  return 0;
}

/** `--limit`: a whole number, 1 or more; default {@link DEFAULT_FIND_LIMIT}. */
function parseLimit(value: string | undefined): number {
  if (value === undefined) return DEFAULT_FIND_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw usageError(`--limit must be a whole number, 1 or more (got ${JSON.stringify(value)}).`, 'find');
  return Number(value);
}

/**
 * The catalog `find` reads from local files. It keeps the build's memo of tokens and summaries
 * (`.syllabus-cache/` beside the first config file), so that only contents new since the last
 * build or find are summarised; a cache that cannot be written is left as it is. With
 * `[kb.summaries]`, the LLM summaries the build cached there replace the extractive ones (no call
 * is made), so that `find` ranks by the summaries the site published.
 */
export function catalogWithCache(io: CommandIo): (kb: KnowledgeBase) => Promise<Catalog> {
  return async (kb) => {
    const cache = cacheFolder(defaultCacheDir(path.resolve(io.cwd, kb.config.files[0]!)));
    const memo = loadCatalogMemo(cache.catalogMemo);
    const catalog = withCachedSummaries((await buildCatalog(kb, { memo })).catalog, kb.config.kb.summaries, cache.llmSummaries);
    if (memo.stats.computed > 0) {
      try {
        saveCatalogMemo(cache.catalogMemo, memo);
      } catch {
        // A read-only checkout: the next find computes the same again.
      }
    }
    return catalog;
  };
}
