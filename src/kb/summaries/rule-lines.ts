/**
 * Rule lines (content/agents/endpoints.md, "Summaries"): lines drawn to separate, not to say
 * anything (`═══`, `----`, `====`, `***`, box drawing). A summary is never made of them.
 */

/** Characters people draw rules and boxes with: ASCII punctuation, box drawing, block elements and bullets. */
const RULE_LINE = /^[\s\-=_*#~+.:|/\\<>•·\u2500-\u259F\u25A0-\u25FF]*$/u;

/** Whether a line is a rule: at least three characters, every one of them a rule character or a space. */
export function isRuleLine(line: string): boolean {
  return line.trim().length >= 3 && RULE_LINE.test(line);
}

/** `text` without its rule lines. */
export function dropRuleLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !isRuleLine(line))
    .join('\n');
}
