/** Flag parsing for every command, on `node:util`'s parseArgs, with usage errors (exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes. */
export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** The `--config` option of commands that read a knowledge base. */
export const CONFIG_OPTION = {
  config: { type: 'string', short: 'c', multiple: true },
} as const satisfies Options;

/**
 * Parses a command's arguments; unknown flags and bad values are usage errors, and so is a NUL
 * character in any value (Node refuses it in every path, and no argument means one).
 */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, command: string) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '.');
    throw usageError(message, command);
  }
  const named = Object.entries(parsed.values).flatMap(([name, value]) => [value].flat().map((item) => [`--${name}`, item] as const));
  const positional = parsed.positionals.map((item) => ['the argument', item] as const);
  for (const [what, item] of [...named, ...positional]) {
    if (typeof item === 'string' && item.includes('\0')) {
      throw usageError(`${what} ${JSON.stringify(item)} contains a NUL character, which no path or argument can hold. Remove it.`, command);
    }
  }
  return parsed;
}
