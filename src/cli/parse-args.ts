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

/** Parses a command's arguments; unknown flags and bad values are usage errors. */
export function parseCommandArgs<T extends Options>(argv: string[], options: T, command: string) {
  try {
    return parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument starting with a '-'.*$/s, '.');
    throw usageError(message, command);
  }
}
