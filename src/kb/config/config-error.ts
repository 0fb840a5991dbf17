/** Configuration errors: located at a dotted path of a config file, and that path as messages write it. */
import { locatePath } from './locate.ts';
import type { ConfigText } from './read.ts';
import { quoteKey } from './values.ts';
import type { Diagnostic } from '../diagnostics/diagnostics.ts';

/** Builds a configuration error located at a dotted path of a file. */
export function configError(configText: ConfigText, code: Diagnostic['code'], at: readonly (string | number)[], message: string): Diagnostic {
  const position = locatePath(configText.text, at);
  return { kind: 'config-error', code, message, file: configText.file, ...(position ?? {}) };
}

/** Writes a path as `kb.topic.x.learned[0]`; a key TOML cannot write bare is quoted, `profile."code review"`. */
export function dottedPath(at: readonly PropertyKey[]): string {
  let out = '';
  for (const part of at) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += (out ? '.' : '') + quoteKey(String(part));
  }
  return out;
}
