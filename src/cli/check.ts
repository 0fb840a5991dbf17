/** `syllabus check`: validates config and content, every diagnostic with its file and line (content/reference/cli/check.md). */
import path from 'node:path';
import { buildCatalog } from '../kb/catalog/catalog.ts';
import { checkContent, loadContentChecks } from '../kb/checks/content.ts';
import { resolveSiteFiles } from '../kb/config/site-files.ts';
import { type Diagnostic, formatDiagnostic, hasConfigErrors, hasContentErrors, sortDiagnostics } from '../kb/diagnostics/diagnostics.ts';
import { readCheckedQuestionSet } from '../kb/evals/checked-questions.ts';
import { applySeverities } from '../kb/checks/severity.ts';
import { openLocalKnowledgeBase } from '../url-sources/local-sources.ts';
import { usageError } from './errors.ts';
import type { CommandIo } from './io.ts';
import { readConfig } from './knowledge-base-options.ts';
import { CONFIG_OPTION, parseCommandArgs } from './parse-args.ts';

export const CHECK_HELP = `Usage: syllabus check [--format text|github] [--strict] [--json] [--config PATH]…

Validates the configuration, every subject and the question set ([eval] questions), and prints
each problem with its file and line.

Options:
      --format FORMAT  text (default) or github (GitHub Actions annotations)
      --strict         fail on warnings too
      --json           print {"diagnostics", "errors", "warnings"} as JSON
  -c, --config PATH    config file (repeatable; default content/kb.toml, or SYLLABUS_CONFIG)
  -h, --help           show this help

Exit codes: 0 clean (warnings allowed), 1 content errors (or warnings with --strict),
2 configuration errors (nothing else can be checked until they are fixed).`;

const LABEL: Record<Diagnostic['kind'], string> = { 'config-error': 'error', 'content-error': 'error', warning: 'warning' };

/** A GitHub Actions annotation for a diagnostic. */
export function formatGithubAnnotation(diagnostic: Diagnostic, cwd: string): string {
  const escapeData = (s: string) => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
  const escapeProperty = (s: string) => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');
  const properties: string[] = [];
  if (diagnostic.file) properties.push(`file=${escapeProperty(path.relative(cwd, diagnostic.file) || diagnostic.file)}`);
  if (diagnostic.line) properties.push(`line=${diagnostic.line}`);
  if (diagnostic.line && diagnostic.column) properties.push(`col=${diagnostic.column}`);
  properties.push(`title=${escapeProperty(`syllabus ${diagnostic.code}`)}`);
  return `::${LABEL[diagnostic.kind]} ${properties.join(',')}::${escapeData(diagnostic.message)}`;
}

/** Runs `check`; returns the exit code. */
export async function checkCommand(argv: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...CONFIG_OPTION, format: { type: 'string' }, strict: { type: 'boolean' }, json: { type: 'boolean' } }, 'check');
  if (values.help) {
    io.out(CHECK_HELP);
    return 0;
  }
  if (positionals.length > 0) throw usageError(`check takes no arguments (got ${JSON.stringify(positionals[0])}).`, 'check');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'github') throw usageError(`--format must be text or github (got ${JSON.stringify(format)}).`, 'check');

  const diagnostics = await collectDiagnostics(values.config, io);
  const errors = diagnostics.filter((d) => d.kind !== 'warning').length;
  const warnings = diagnostics.length - errors;
  if (values.json) {
    io.out(JSON.stringify({ diagnostics, errors, warnings }, null, 2));
  } else if (format === 'github') {
    io.out(diagnostics.map((d) => formatGithubAnnotation(d, io.cwd)).join('\n'));
  } else {
    const lines = diagnostics.map((d) => `${LABEL[d.kind]}[${d.code}]: ${formatDiagnostic(d, io.cwd)}`);
    lines.push(`${errors} ${errors === 1 ? 'error' : 'errors'}, ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}`);
    io.out(lines.join('\n'));
  }
  if (hasConfigErrors(diagnostics)) return 2;
  if (hasContentErrors(diagnostics)) return 1;
  return values.strict && warnings > 0 ? 1 : 0;
}

/**
 * Every diagnostic of a knowledge base: configuration, walking, content, and the content checks,
 * with the URL sources the last build has not fetched (check never fetches); `[check]`'s
 * severities applied.
 */
async function collectDiagnostics(configFlags: string[] | undefined, io: CommandIo): Promise<Diagnostic[]> {
  const loaded = await readConfig(configFlags, io);
  if (!loaded.config) return sortDiagnostics(loaded.diagnostics);
  const { kb, unfetched } = openLocalKnowledgeBase(loaded.config);
  const siteFiles = resolveSiteFiles(loaded.config).diagnostics;
  if (hasConfigErrors([...siteFiles, ...kb.diagnostics()])) return sortDiagnostics([...loaded.diagnostics, ...siteFiles, ...kb.diagnostics()]);
  const [{ catalog, diagnostics }] = await Promise.all([buildCatalog(kb), loadContentChecks()]);
  const checks = checkContent(catalog, loaded.config.site, path.dirname(loaded.config.files[0]!), loaded.config.check);
  const questions = readCheckedQuestionSet(kb)?.diagnostics ?? [];
  return sortDiagnostics(applySeverities([...loaded.diagnostics, ...siteFiles, ...kb.diagnostics(), ...diagnostics, ...checks, ...unfetched, ...questions], loaded.config.check));
}
