/**
 * Best-effort line lookup of a dotted config path in TOML text, so that errors about a key can
 * name its line as well as its path. The TOML parser does not report key positions.
 */

/** A 1-based position in a file. */
export interface Position {
  line: number;
  column: number;
}

/** Splits a TOML key (`a."b.c".d`) into its parts. */
function splitKey(key: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (const char of key.trim()) {
    if (quote) {
      if (char === quote) quote = null;
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '.') {
      parts.push(current.trim());
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current.trim());
  return parts;
}

/** The key part of a `key = value` line, or undefined for other lines. */
function keyOfLine(line: string): string | undefined {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '=') {
      return line.slice(0, i);
    } else if (char === '#' || char === '[') {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Finds where a dotted path (`['kb', 'topic', 'x', 'learned', 0]`) is written: the line of its key,
 * else of its table header, else of its closest written ancestor. An index after an array of
 * tables (`['check', 'override', 1]`) names its second `[[check.override]]`.
 */
export function locatePath(text: string, path: readonly (string | number)[]): Position | undefined {
  const lines = text.split(/\r?\n/);
  let table: (string | number)[] = [];
  let best: { depth: number; position: Position } | undefined;
  let inMultiline = false;
  // The index of the last element of each array of tables, by its dotted key.
  const arrays = new Map<string, number>();
  const withIndexes = (parts: readonly string[]): (string | number)[] => {
    const out: (string | number)[] = [];
    parts.forEach((part, i) => {
      out.push(part);
      const index = arrays.get(JSON.stringify(parts.slice(0, i + 1)));
      if (index !== undefined) out.push(index);
    });
    return out;
  };
  lines.forEach((raw, index) => {
    const tripleQuotes = (raw.match(/"""|'''/g) ?? []).length;
    if (inMultiline) {
      if (tripleQuotes % 2 === 1) inMultiline = false;
      return;
    }
    const trimmed = raw.trim();
    const column = raw.length - raw.trimStart().length + 1;
    let found: (string | number)[] | undefined;
    const header = /^\[(\[?)([^\]]*)\]\]?/.exec(trimmed);
    if (header) {
      const parts = splitKey(header[2]!);
      if (header[1]) {
        const key = JSON.stringify(parts);
        arrays.set(key, (arrays.get(key) ?? -1) + 1);
      }
      table = withIndexes(parts);
      found = table;
    } else {
      const key = keyOfLine(trimmed);
      if (key !== undefined && key.trim() !== '') found = [...table, ...splitKey(key)];
      if (tripleQuotes % 2 === 1) inMultiline = true;
    }
    if (!found) return;
    let depth = 0;
    while (depth < found.length && depth < path.length && found[depth] === path[depth]) depth++;
    if (depth !== found.length) return;
    if (!best || depth > best.depth) best = { depth, position: { line: index + 1, column } };
  });
  return best?.position;
}
