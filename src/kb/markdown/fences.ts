/** Code fences of markdown, followed line by line without parsing the whole text, and the blocks they keep whole. */

/**
 * A reader of a markdown text's lines in order: for each line, whether it is a fence line
 * (opening or closing a fenced code block) or inside a fenced block. A fence closes only with
 * the character that opened it, at least as many times (CommonMark).
 */
export function createFenceReader(): (line: string) => boolean {
  let fence: string | undefined;
  return (line) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return true;
    }
    return fence !== undefined;
  };
}

/** The blocks of a markdown text: runs of lines between blank lines, a fenced code block never split. */
export function* markdownBlocks(text: string): Generator<string> {
  let block: string[] = [];
  const inCode = createFenceReader();
  for (const line of text.split('\n')) {
    if (!inCode(line) && line.trim() === '') {
      if (block.length > 0) yield block.join('\n');
      block = [];
    } else {
      block.push(line);
    }
  }
  if (block.length > 0) yield block.join('\n');
}
